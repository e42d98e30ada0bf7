"""``rummykit_ruleset_problems``: a plugin refuses the values its game cannot play, at the line that set
them, before any game starts (Gin's stock made again from the pile; a third-party plugin's own checks)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path
from typing import Any

import pytest

import rummykit
from rummykit.cli import main


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def my_gin(folder: Path, body: str) -> Path:
    """``my-gin.yaml``, extending Gin: its name and title on lines 1 to 3, then ``body``."""
    return write(folder, "my-gin.yaml", "extends: gin\nname: my-gin\ntitle: My Gin\n" + body)


@pytest.mark.parametrize("variant", ["gin", "oklahoma-gin", "gin-3", "gin-partnership"])
@pytest.mark.parametrize("empty_stock", ["turn-over", "reshuffle"])
def test_gin_refuses_a_stock_made_again_from_the_pile(variant: str, empty_stock: str) -> None:
    with pytest.raises(rummykit.RulesetError) as info:
        rummykit.load_variant(variant, options={"draw": {"empty_stock": empty_stock}})
    (problem,) = info.value.problems
    assert (problem.file, problem.path) == ("options", "draw.empty_stock")
    assert problem.message.startswith("plugin 'gin': a hand of Gin is dead when its stock is down to")
    assert f"so {empty_stock!r} would never take effect: expected end" in problem.message
    assert rummykit.load_variant(variant, options={"draw": {"empty_stock": "end"}}).name == variant


@pytest.mark.parametrize(
    ("variant", "options", "path", "words"),
    [
        ("gin", {"table": {"melds": True}}, "table.melds", "plugin 'gin': in Gin melds stay in hand until the knock"),
        ("gin-partnership", {"table": {"layoff": "own"}}, "table.layoff", "laid off only at the settlement"),
        ("gin-3", {"players": {"min": 2}}, "players.min", "plugin 'gin-3': Gin for three is for three players"),
        ("gin-3", {"players": {"max": 4}}, "players.max", "expected 3, got 4"),
        ("iceberg", {"table": {"melds": False}}, "table.melds", "plugin 'iceberg': Iceberg's aces and melds are"),
        ("skarney", {"target": 1000}, "target", "plugin 'skarney': a game of Skarney is 7 hands (rules.hands)"),
        ("skarney-singles", {"target": 500}, "target", "the highest total winning: expected no target (null)"),
    ],
)
def test_the_games_refuse_table_rules_and_player_counts_they_do_not_play(
    variant: str, options: dict[str, Any], path: str, words: str
) -> None:
    # Each was accepted, then crashed (Gin for three with two players; partnership Gin melding on the table),
    # or played a game that is not this one (Gin ended "out", Iceberg ended every hand "exhausted", Skarney
    # ignored its target and said the game ended at it).
    with pytest.raises(rummykit.RulesetError) as info:
        rummykit.load_variant(variant, options=options)
    (problem,) = info.value.problems
    assert problem.path == path and words in problem.message


def test_the_refusal_is_at_the_line_of_the_users_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ruleset = my_gin(tmp_path, "draw:\n  from_pile: top\n  empty_stock: reshuffle\n")
    (problem,) = rummykit.validate(ruleset)
    assert (problem.file, problem.line, problem.column) == (str(ruleset), 6, 16)
    assert main(["play", str(ruleset), "--bots", "random,random", "--seed", "1"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # refused before a game starts
    assert f"{ruleset}:6:16: draw.empty_stock: plugin 'gin':" in captured.err


def test_a_house_rule_setting_it_is_refused_at_its_line_by_validate_and_play(tmp_path: Path) -> None:
    refill = "house_rules:\n  refill:\n    summary: The pile becomes the stock.\n"
    ruleset = my_gin(tmp_path, refill + "    set: {draw: {empty_stock: turn-over}}\n")
    (problem,) = rummykit.validate(ruleset)
    assert (problem.file, problem.line, problem.column, problem.path) == (
        str(ruleset),
        7,
        31,
        "house_rules.refill.set.draw.empty_stock",
    )
    assert problem.message.startswith("house rule 'refill': plugin 'gin': a hand of Gin is dead")
    with pytest.raises(rummykit.RulesetError) as info:  # selected to play: the same words, at the same line
        rummykit.load_variant(str(ruleset), ["refill"])
    assert info.value.problems == [problem]
    assert rummykit.load_variant(str(ruleset)).name == "my-gin"


CHECKING_PLUGIN = """
    import rummykit


    @rummykit.hookimpl
    def rummykit_ruleset_problems(ruleset):
        problems = []
        if ruleset["target"] > 200:
            problems.append(("target", f"this table plays to 200 at most, not {ruleset['target']}"))
        if ruleset["rules"]["gin_bonus"] < ruleset["rules"]["undercut_bonus"]:
            problems.append(("rules.gin_bonus", "gin pays at least an undercut", ["rules.undercut_bonus"]))
        ruleset["target"] = 1  # a copy: the variant keeps its own
        return problems
"""


def test_a_local_plugin_checks_the_merged_ruleset_and_each_problem_is_located(tmp_path: Path) -> None:
    plugin = write(tmp_path, "table_limits.py", CHECKING_PLUGIN)
    assert rummykit.load_variant("gin", plugins=[plugin]).ruleset["target"] == 100  # unchanged by the plugin
    ruleset = write(
        tmp_path,
        "table.yaml",
        """
        extends: gin
        name: table
        title: Table
        target: 250
        rules:
          undercut_bonus: 30
        """,
    )
    problems = rummykit.validate(ruleset, plugins=[plugin])
    assert [(p.line, p.path, p.message) for p in problems] == [
        (4, "target", "plugin 'table-limits': this table plays to 200 at most, not 250"),
        (
            6,
            "rules.undercut_bonus",
            "plugin 'table-limits': gin pays at least an undercut (rules.gin_bonus inherited from gin.yaml line 46)",
        ),
    ]
    with pytest.raises(rummykit.RulesetError) as info:
        rummykit.load_variant("gin", options={"rules": {"gin_bonus": 5}}, plugins=[plugin])
    assert [p.path for p in info.value.problems] == ["rules.gin_bonus"]


@pytest.mark.parametrize(
    "answer",
    [
        "'target'",
        "5",
        "{'target': 'too high'}",
        "('target', 'too high')",
        "[('target',)]",
        "[('target', 7)]",
        "[('target', '')]",
        "[('', 'too high')]",
        "[('deal..hand_size', 'too high')]",
        "[('target', 'x', 'y')]",
        "[('target', 'x', ['players..min'])]",
    ],
)
def test_a_plugin_answering_in_the_wrong_form_is_refused_at_its_hook(tmp_path: Path, answer: str) -> None:
    source = f"import rummykit\n\n\n@rummykit.hookimpl\ndef rummykit_ruleset_problems(ruleset):\n    return {answer}"
    plugin = write(tmp_path, "bad_check.py", source)
    with pytest.raises(rummykit.RulesetError) as info:
        rummykit.load_variant("gin", plugins=[plugin])
    assert rummykit.validate("gin", plugins=[plugin]) == info.value.problems
    (problem,) = info.value.problems
    assert (problem.file, problem.line, problem.column) == (str(plugin), 5, 1)
    assert problem.message.startswith("plugin 'bad-check': expected None or a list of (path, message)")
    assert repr(ast.literal_eval(answer)) in problem.message  # the whole answer quoted, not its first letter


def test_a_check_may_take_no_argument_and_none_means_no_problem(tmp_path: Path) -> None:
    source = "import rummykit\n\n\n@rummykit.hookimpl\ndef rummykit_ruleset_problems():\n    return None"
    plugin = write(tmp_path, "quiet_check.py", source)
    assert "quiet-check" in rummykit.load_variant("gin", plugins=[plugin]).plugin_names
    assert rummykit.validate("gin", plugins=[plugin]) == []


def test_a_check_cannot_be_a_wrapper(tmp_path: Path) -> None:
    source = """
        import rummykit


        @rummykit.hookimpl(wrapper=True)
        def rummykit_ruleset_problems(ruleset):
            found = yield
            return found
        """
    plugin = write(tmp_path, "wrapping.py", source)
    (problem,) = rummykit.validate("gin", plugins=[plugin])
    assert (problem.file, problem.line) == (str(plugin), 5)
    assert problem.message == "plugin 'wrapping': cannot be a wrapper: it returns the problems it finds"


def test_a_plugin_only_offering_house_rules_is_asked_once_one_is_selected(tmp_path: Path) -> None:
    source = """
        import rummykit


        @rummykit.hookimpl
        def rummykit_house_rules():
            return {"no-limit-check": {"summary": "Checks the target."}}


        @rummykit.hookimpl
        def rummykit_ruleset_problems(ruleset):
            return [("target", "not with this house rule")]
        """
    plugin = write(tmp_path, "offering.py", source)
    assert rummykit.load_variant("gin", plugins=[plugin]).name == "gin"  # offered, not in force: not asked
    with pytest.raises(rummykit.RulesetError) as info:
        rummykit.load_variant("gin", ["no-limit-check"], plugins=[plugin])
    assert [p.message for p in info.value.problems] == ["plugin 'offering': not with this house rule"]


def test_a_plugin_whose_check_raises_is_named(tmp_path: Path) -> None:
    source = "import rummykit\n\n\n@rummykit.hookimpl\ndef rummykit_ruleset_problems(ruleset):\n    return ruleset['x']"
    plugin = write(tmp_path, "bad_check.py", source)
    with pytest.raises(rummykit.PluginError) as info:
        rummykit.load_variant("gin", plugins=[plugin])
    assert (info.value.plugin, info.value.hook) == ("bad-check", "rummykit_ruleset_problems")
    (problem,) = rummykit.validate("gin", plugins=[plugin])
    assert (problem.file, problem.line) == (str(plugin), 6) and "KeyError: 'x'" in problem.message


def test_a_check_failing_only_with_a_house_rule_is_located_by_validate(tmp_path: Path) -> None:
    source = """
        import rummykit


        @rummykit.hookimpl
        def rummykit_ruleset_problems(ruleset):
            return [] if ruleset["target"] == 100 else [][0]
        """
    plugin = write(tmp_path, "fragile.py", source)
    ruleset = write(
        tmp_path,
        "short.yaml",
        """
        extends: gin
        name: short
        title: Short
        house_rules:
          short:
            summary: To 50.
            set: {target: 50}
        """,
    )
    (problem,) = rummykit.validate(ruleset, plugins=[plugin])  # not raised: told at the hook's line
    assert (problem.file, problem.line) == (str(plugin), 6)
    assert "failed in hook rummykit_ruleset_problems: IndexError" in problem.message


def test_a_runaway_check_is_told_in_part_quickly(tmp_path: Path) -> None:
    source = """
        import rummykit


        @rummykit.hookimpl
        def rummykit_ruleset_problems(ruleset):
            return [("target", "x" * 100_000)] * 200_000
        """
    plugin = write(tmp_path, "runaway.py", source)
    with pytest.raises(rummykit.RulesetError) as info:
        rummykit.load_variant("gin", plugins=[plugin])
    problems = info.value.problems
    assert len(problems) == 51 and all(len(p.message) < 600 for p in problems)
    assert problems[-1].message == "plugin 'runaway': and 199,950 more problems (the first 50 are told)"
    assert (problems[-1].file, problems[-1].line) == (str(plugin), 5)
