"""Plugins and the product around them: local plugins (``--plugin``), refusing broken plugins at load,
hook errors without tracebacks, ``rummykit schema``, ``show --origin`` and ``new house-rule``."""

from __future__ import annotations

import json
import re
import textwrap
import types
from pathlib import Path

import jsonschema
import pytest
import yaml
from conftest import UNDERCUT_DOUBLE as DOUBLE_UNDERCUT  # the plugin text other tests share

import rummykit
from rummykit.cli import main
from rummykit.ruleset import kernel_schema
from rummykit.scaffold import ScaffoldError, new_house_rule
from rummykit.simulate import play_game
from rummykit.variant import find_ruleset, house_rules_for, plugin_problems

ROOT = Path(__file__).resolve().parents[1]


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def test_a_local_plugin_offers_its_house_rule_and_changes_the_game(tmp_path: Path) -> None:
    plugin = write(tmp_path, "undercut_double.py", DOUBLE_UNDERCUT)
    assert "undercut-double" not in house_rules_for("gin")
    assert "undercut-double" in house_rules_for("gin", [plugin])
    variant = rummykit.load_variant("gin", house_rules=["undercut-double"], plugins=[plugin])
    assert variant.plugin_names == ("gin", "undercut-double")
    plain = rummykit.load_variant("gin")
    for seed in range(40):
        doubled, base = play_game(variant, seed, max_hands=1), play_game(plain, seed, max_hands=1)
        assert doubled.history == base.history
        if base.results[0].kind == "undercut":
            assert doubled.results[0].scores == tuple(2 * s for s in base.results[0].scores)
            break
    else:
        pytest.fail("no undercut in 40 seeds")
    assert rummykit.load_variant("gin").plugin_names == ("gin",)  # other variants are untouched


def test_a_plugin_file_loaded_but_not_selected_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plugin = write(tmp_path, "undercut_double.py", DOUBLE_UNDERCUT)
    loaded = rummykit.load_variant("gin", plugins=[plugin])  # selectable, not selected
    assert loaded.plugin_names == ("gin",) and loaded.local_plugins == ()
    selected = rummykit.load_variant("gin", house_rules=["undercut-double"], plugins=[plugin])
    assert selected.local_plugins == (str(plugin.resolve()),)  # the record names the file in force
    plain = rummykit.load_variant("gin")
    differ = 0
    for seed in range(30):
        base = play_game(plain, seed, max_hands=3)
        assert play_game(loaded, seed, max_hands=3).scores == base.scores
        differ += play_game(selected, seed, max_hands=3).scores != base.scores
        assert json.loads(play_game(loaded, seed, max_hands=1).to_json())["plugins"] == []
    assert differ  # the rule is in force where it is selected
    # The terminal shows the same game, and compare's first column is plain Gin.
    assert main(["play", "gin", "--bots", "greedy,greedy", "--seed", "1", "--max-hands", "3"]) == 0
    alone = capsys.readouterr().out
    args = ["play", "gin", "--bots", "greedy,greedy", "--seed", "1", "--max-hands", "3", "--plugin", str(plugin)]
    assert main(args) == 0
    assert capsys.readouterr().out == alone
    from rummykit.lab import compare

    comparison = compare(["gin", "gin+undercut-double"], games=40, seed=1, plugins=[plugin])
    rows = {row["key"]: row["configs"][1]["difference"] for row in comparison.summary()["measures"]}
    assert rows["points_per_hand"]["significant"] and rows["points_per_hand"]["mean"] > 0


def test_a_plugin_file_that_offers_no_house_rule_is_in_force_and_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "import rummykit\n\n\n@rummykit.hookimpl\ndef rummykit_observe(deal, seat, view):\n    view['x'] = 1\n"
    plugin = write(tmp_path, "peek_rule.py", text)
    variant = rummykit.load_variant("gin", plugins=[plugin])
    assert variant.plugin_names == ("gin", "peek-rule") and variant.local_plugins == (str(plugin.resolve()),)
    assert variant.new_game(seed=1).observation(0)["x"] == 1
    args = ["--plugin", str(plugin)]
    assert main(["play", "gin", "--bots", "greedy,greedy", "--seed", "1", "--max-hands", "1", *args]) == 0
    assert capsys.readouterr().out.startswith("Gin Rummy (gin) with plugin peek-rule, seed 1:")
    assert main(["compare", "gin", "gin+modern", "--games", "2", *args]) == 0
    assert "In force in every configuration: plugin peek-rule." in capsys.readouterr().out


def test_a_module_object_is_a_plugin_too() -> None:
    module = types.ModuleType("table_rules")
    exec(compile(DOUBLE_UNDERCUT, "table_rules.py", "exec"), module.__dict__)
    variant = rummykit.load_variant("gin", house_rules=["undercut-double"], plugins=[module])
    assert "table-rules" in variant.plugin_names


def test_plugin_problems_of_a_good_plugin_are_none() -> None:
    import rummykit.plugins.gin as gin

    assert plugin_problems("gin", gin) == []


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("@rummykit.hookimpl\ndef rummykit_deel(deal, deck):\n    pass\n", "did you mean 'rummykit_deal'?"),
        ("def rummykit_observe(deal, seat, view):\n    pass\n", "not marked @rummykit.hookimpl"),
        ("@rummykit.hookimpl\ndef rummykit_observe(deal, player, view):\n    pass\n", "argument 'player'"),
    ],
)
def test_a_broken_plugin_is_refused_at_load_naming_it(tmp_path: Path, source: str, message: str) -> None:
    plugin = write(tmp_path, "table.py", "import rummykit\n\n\n" + source)
    with pytest.raises(rummykit.RulesetError) as info:
        rummykit.load_variant("gin", plugins=[plugin])
    (problem,) = info.value.problems
    def_line = next(i for i, line in enumerate(plugin.read_text().splitlines(), 1) if line.startswith("def "))
    assert problem.file == str(plugin) and (problem.line, problem.column) == (def_line, 1)
    assert "plugin 'table'" in problem.message and message in problem.message


def test_a_hook_that_raises_names_plugin_and_hook(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plugin = write(
        tmp_path,
        "oops.py",
        """
        import rummykit


        @rummykit.hookimpl
        def rummykit_turn_ended(deal, seat):
            raise KeyError("nobody")
    """,
    )
    variant = rummykit.load_variant("gin", plugins=[plugin])
    with pytest.raises(rummykit.PluginError) as info:
        play_game(variant, 1)
    assert (info.value.plugin, info.value.hook) == ("oops", "rummykit_turn_ended")
    assert main(["simulate", "gin", "--games", "1", "--plugin", str(plugin)]) == 1
    err = capsys.readouterr().err
    assert err == "rummykit: plugin 'oops' failed in hook rummykit_turn_ended: KeyError: 'nobody'\n"


def test_a_plugin_file_is_reloaded_when_it_changes(tmp_path: Path) -> None:
    plugin = write(
        tmp_path,
        "limit.py",
        """
        import rummykit


        @rummykit.hookimpl
        def rummykit_house_rules():
            return {"limit": {"summary": "One.", "set": {"rules": {"knock_limit": 5}}}}
    """,
    )
    assert rummykit.load_variant("gin", ["limit"], plugins=[plugin]).rules["knock_limit"] == 5
    text = plugin.read_text().replace("5", "6")
    plugin.write_text(text)
    import os

    os.utime(plugin, ns=(plugin.stat().st_atime_ns, plugin.stat().st_mtime_ns + 1_000_000))
    assert rummykit.load_variant("gin", ["limit"], plugins=[plugin]).rules["knock_limit"] == 6


def test_yaml_is_never_a_plugin(tmp_path: Path) -> None:
    ruleset = write(tmp_path, "gin.yaml", "name: x\n")
    with pytest.raises(rummykit.RulesetError, match="a plugin is a Python file"):
        rummykit.load_variant("gin", plugins=[ruleset])


# -- schema, origins, editor support ------------------------------------------------------------------


def test_schema_command_prints_the_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == kernel_schema()
    jsonschema.Draft202012Validator.check_schema(printed)
    assert main(["schema", "--variant", "gin"]) == 0
    with_rules = json.loads(capsys.readouterr().out)
    assert "knock_limit" in with_rules["properties"]["rules"]["properties"]
    assert with_rules["properties"]["rules"]["additionalProperties"] is False
    assert main(["schema", "--plugin", "mine.py"]) == 2  # not silently the kernel's schema alone
    assert "name the variant with --variant" in capsys.readouterr().err


def test_every_shipped_ruleset_names_the_schema_for_editors() -> None:
    for path in sorted((ROOT / "variants").glob("*.yaml")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first == "# yaml-language-server: $schema=../rummykit/ruleset.schema.json", path.name
    # installed, the rulesets sit in rummykit/variants/: the same relative path... from the repository's layout
    assert (ROOT / "variants" / "../rummykit/ruleset.schema.json").resolve().is_file()


def test_show_origin_names_the_file_of_each_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(
        tmp_path,
        "friday.yaml",
        """
        name: friday
        title: Friday Gin
        extends: gin
        target: 200
    """,
    )
    monkeypatch.chdir(tmp_path)
    assert main(["show", "friday.yaml", "--origin", "--house-rule", "modern"]) == 0
    out = capsys.readouterr().out
    lines = {line.split("#")[0].strip(): line.rsplit("# ", 1)[-1] for line in out.splitlines() if "  # " in line}
    assert lines["target: 200"] == "friday.yaml"
    assert lines["knock_limit: 10"] == "gin.yaml"
    assert lines["gin_bonus: 25"] == "house rule 'modern'"
    assert lines["name: friday"] == "friday.yaml"
    ruleset = yaml.safe_load(out.split("\n\n")[0])  # still YAML: the origins are comments
    assert ruleset["target"] == 200 and ruleset["rules"]["gin_bonus"] == 25


# -- new house-rule ---------------------------------------------------------------------------------------


def test_new_house_rule_scaffolds_a_package(tmp_path: Path) -> None:
    made = new_house_rule("knock-7", tmp_path, "gin-rummy")
    assert made.variant == "gin"
    names = sorted(str(p.relative_to(tmp_path)) for p in made.files)
    assert names == [
        "knock-7/README.md",
        "knock-7/knock_7/__init__.py",
        "knock-7/knock_7/house_rule.yaml",
        "knock-7/pyproject.toml",
        "knock-7/tests/test_knock_7.py",
    ]
    pyproject = (tmp_path / "knock-7" / "pyproject.toml").read_text()
    assert '[project.entry-points.rummykit]\nknock-7 = "knock_7"' in pyproject
    for path in made.files:
        if path.suffix == ".py":
            compile(path.read_text(), str(path), "exec")
    # The scaffold works as it is: a local plugin offering a house rule that changes nothing yet.
    variant = rummykit.load_variant("gin", ["knock-7"], plugins=[tmp_path / "knock-7" / "knock_7" / "__init__.py"])
    assert variant.house_rules == ("knock-7",)
    assert rummykit.validate("gin", plugins=[tmp_path / "knock-7" / "knock_7" / "__init__.py"]) == []


@pytest.mark.parametrize(
    ("name", "variant", "message"),
    [
        ("Knock 7", "gin", "not a house rule name"),
        ("knock-7", "gni", "no variant named 'gni'"),
        # the package is a module beside every other one: never a keyword, nor one that exists already
        ("import", "gin", "the Python module 'import', a Python keyword; choose another name, such as 'my-import'"),
        ("pass", "gin", "a Python keyword"),
        ("yaml", "gin", "the Python module 'yaml', which is importable already .*installing it would replace"),
        ("rummykit", "gin", "'rummykit', which is importable already"),
        ("json", "gin", "'json', which names a module of the standard library; .* such as 'my-json'"),
        ("gin", "gin", "a plugin named 'gin' is installed already"),
        ("modern", "gin", "gin has a house rule 'modern' already .*; choose another name, such as 'my-modern'"),
    ],
)
def test_new_house_rule_refuses_mistakes(tmp_path: Path, name: str, variant: str, message: str) -> None:
    with pytest.raises(ScaffoldError, match=message):
        new_house_rule(name, tmp_path, variant)
    assert list(tmp_path.iterdir()) == []


def test_new_house_rule_accepts_a_name_another_variant_has(tmp_path: Path) -> None:
    assert new_house_rule("modern", tmp_path, "500-rum").variant == "500-rum"  # only gin has a 'modern'


def test_new_house_rule_refuses_a_folder_it_cannot_create_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("notes\n")
    missing = tmp_path / "nope" / "deeper"
    for where, message in [
        (notes, f"rummykit: {notes} is not a folder: name the folder to create the package in\n"),
        (missing, f"rummykit: {missing} does not exist: create the folder first, or name one that exists\n"),
    ]:
        assert main(["new", "house-rule", "foo-bar", "--dir", str(where)]) == 2
        assert capsys.readouterr().err == message
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]  # the missing folder is not made
    # A folder that cannot be written in (read-only: as root, only a refused access shows it).
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("os.access", lambda path, mode: False)
    assert main(["new", "house-rule", "foo-bar"]) == 2
    assert capsys.readouterr().err == (
        f"rummykit: cannot create the package in the current folder ({tmp_path}): permission denied\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_new_house_rule_leaves_nothing_when_a_write_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    written = []
    real = Path.write_text

    def write_text(self: Path, *args: object, **kwargs: object) -> int:
        if len(written) == 2:
            raise PermissionError(13, "Permission denied", str(self))
        written.append(self)
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "write_text", write_text)
    with pytest.raises(ScaffoldError, match=f"cannot write the package in {tmp_path / 'foo-bar'}: Permission denied"):
        new_house_rule("foo-bar", tmp_path)
    assert len(written) == 2 and list(tmp_path.iterdir()) == []


def test_new_house_rule_next_steps_name_the_package_from_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    here, elsewhere = tmp_path / "here", tmp_path / "elsewhere"
    (here / "sub").mkdir(parents=True)
    elsewhere.mkdir()
    monkeypatch.chdir(here)
    inside = new_house_rule("knock-7", here / "sub")  # an absolute --dir inside the current folder
    assert inside.shown == "sub/knock-7"
    assert inside.next_steps[2] == "pip install ./sub/knock-7   # then: rummykit show gin; pytest sub/knock-7"
    outside = new_house_rule("knock-7", "../elsewhere")
    assert outside.shown == f"{elsewhere.as_posix()}/knock-7"
    assert outside.next_steps[1].startswith(f"rummykit play gin --plugin {elsewhere.as_posix()}/knock-7/knock_7/")
    assert outside.next_steps[2].startswith(f"pip install {elsewhere.as_posix()}/knock-7   # then:")


def test_new_house_rule_never_overwrites(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "house-rule", "knock-7", "--dir", str(tmp_path)]) == 0
    assert main(["new", "house-rule", "knock-7", "--dir", str(tmp_path)]) == 2
    assert "already exists" in capsys.readouterr().err


# -- house rules offered by plugins: names unique for a variant, variants that exist -------------------------

OFFERS = """
import rummykit


@rummykit.hookimpl
def rummykit_house_rules():
    return {{"{name}": {{"summary": "A house rule.", "variants": {variants}, "set": {{"target": 250}}}}}}
"""


def test_a_plugin_house_rule_named_like_one_the_variant_has_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plugin = write(tmp_path, "modern.py", OFFERS.format(name="modern", variants=["gin"]))
    gin_yaml = Path(find_ruleset("gin"))
    line = next(i for i, text in enumerate(gin_yaml.read_text().splitlines(), 1) if text == "  modern:")
    message = (
        f"{plugin}:5:1: rummykit_house_rules().modern: plugin 'modern': house rule 'modern': gin has a house "
        f"rule 'modern' already, from {gin_yaml}:{line}; a house rule's name is unique for a variant: "
        "rename one of them"
    )
    problems = rummykit.validate("gin", plugins=[plugin])
    assert [str(p) for p in problems] == [message]
    for load in (
        lambda: rummykit.load_variant("gin", ["modern"], plugins=[plugin]),
        lambda: house_rules_for("gin", [plugin]),
    ):
        with pytest.raises(rummykit.RulesetError) as caught:
            load()
        assert [str(p) for p in caught.value.problems] == [message]
    assert main(["show", "gin", "--plugin", str(plugin)]) == 2
    assert capsys.readouterr().err == f"rummykit: {message}\n"
    # Two local plugins offering one name: the second is refused, naming the first.
    first = write(tmp_path, "first.py", OFFERS.format(name="knock-7", variants=["gin"]))
    second = write(tmp_path, "second.py", OFFERS.format(name="knock-7", variants=[]))
    problems = rummykit.validate("gin", plugins=[first, second])
    assert len(problems) == 1 and problems[0].file == str(second)
    assert f"already, from plugin 'first' ({first})" in problems[0].message
    # For a variant that has no 'modern', the plugin's is offered.
    elsewhere = write(tmp_path, "modern_500.py", OFFERS.format(name="modern", variants=["500-rum"]))
    assert rummykit.load_variant("500-rum", ["modern"], plugins=[elsewhere]).ruleset["target"] == 250


SETS = """
import rummykit


@rummykit.hookimpl
def rummykit_house_rules():
    return {{"k7": {{"summary": "Knock at 7.", "variants": ["gin"], "set": {set}}}}}
"""


@pytest.mark.parametrize(
    ("given", "path", "said"),
    [
        ({"rules": {"knock_limt": 7}}, "rules.knock_limt", "unknown key 'knock_limt' (did you mean 'knock_limit'?)"),
        ({"rules": {"knock_limit": "seven"}}, "rules.knock_limit", "expected a whole number, got 'seven'"),
        ({"target": -5, "max_hands": 3}, "target", "expected a number at least 1, got -5"),
    ],
)
def test_a_plugin_house_rule_whose_set_does_not_validate_is_refused_at_load(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], given: dict[str, object], path: str, said: str
) -> None:
    plugin = write(tmp_path, "knock_7.py", SETS.format(set=given))
    for load in (
        lambda: rummykit.load_variant("gin", plugins=[plugin]),
        lambda: rummykit.load_variant("gin", ["k7"], plugins=[plugin]),
    ):
        with pytest.raises(rummykit.RulesetError) as refused:  # selected or not: it could never be played
            load()
        (problem,) = refused.value.problems
        assert (problem.file, problem.line, problem.path) == (str(plugin), 5, f"rummykit_house_rules().k7.set.{path}")
        assert problem.message.startswith(f"plugin 'knock-7': house rule 'k7': {said}")
    assert main(["show", "gin", "--plugin", str(plugin)]) == 2
    assert f"{plugin}:5:1: rummykit_house_rules().k7.set.{path}" in capsys.readouterr().err
    # A house rule offered for another variant only is not held to this one's rules.
    assert rummykit.load_variant("500-rum", plugins=[plugin]).name == "500-rum"


def test_without_house_rules_refuses_a_misspelling_but_not_a_plugin_rule_that_is_not_installed(tmp_path: Path) -> None:
    plugin = write(tmp_path, "knock_7.py", OFFERS.format(name="knock-7", variants=["gin", "plain"]))
    plain = write(tmp_path, "plain.yaml", "name: plain\nextends: gin\nwithout_house_rules: [knock-7, big-gin]\n")
    for given in ([], [plugin]):  # with the plugin or without it, the ruleset loads and leaves both out
        assert {"knock-7", "big-gin"}.isdisjoint(house_rules_for(str(plain), plugins=given))
        assert rummykit.validate(str(plain), plugins=given) == []
    typo = write(tmp_path, "typo.yaml", "name: typo\nextends: gin\nwithout_house_rules: [big-gni]\n")
    (problem,) = rummykit.validate(str(typo))
    assert (problem.file, problem.line, problem.path) == (str(typo), 3, "without_house_rules[0]")
    assert problem.message.startswith("no house rule 'big-gni' to leave out (did you mean 'big-gin'?)")


def test_a_plugin_house_rule_set_is_checked_with_the_schemas_of_the_plugins_it_brings_in(tmp_path: Path) -> None:
    boomer = write(
        tmp_path,
        "boomer.py",
        """
        import rummykit


        @rummykit.hookimpl
        def rummykit_rules_schema():
            return {"type": "object", "properties": {"boom_at": {"type": "integer"}}}


        @rummykit.hookimpl
        def rummykit_house_rules():
            return {"boom-500": {"summary": "Boom in 500 Rum.", "variants": ["500-rum"]}}
        """,
    )
    user = write(
        tmp_path,
        "user.py",
        """
        import rummykit


        @rummykit.hookimpl
        def rummykit_house_rules():
            return {"early-boom": {"summary": "Boom.", "variants": ["gin"], "plugins": ["boomer"],
                                   "set": {"rules": {"boom_at": 1}}}}
        """,
    )
    assert rummykit.load_variant("gin", plugins=[user, boomer]).name == "gin"
    assert rummykit.load_variant("gin", ["early-boom"], plugins=[user, boomer]).ruleset["rules"]["boom_at"] == 1


def test_a_plugin_house_rule_for_a_variant_that_does_not_exist_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plugin = write(tmp_path, "knock_7.py", OFFERS.format(name="knock-7", variants=["gin", "ginn"]))
    problems = rummykit.validate("gin", plugins=[plugin])
    assert len(problems) == 1
    assert (problems[0].file, problems[0].line) == (str(plugin), 5)
    assert problems[0].path == "rummykit_house_rules().knock-7.variants[1]"
    assert problems[0].message.startswith(
        "plugin 'knock-7': house rule 'knock-7': no variant named 'ginn' (did you mean 'gin'?); known variants: "
    )
    assert main(["play", "gin", "--plugin", str(plugin), "--house-rule", "knock-7", "--bots", "greedy,greedy"]) == 2
    assert "no variant named 'ginn' (did you mean 'gin'?)" in capsys.readouterr().err
    # A name unlike every variant's may be a ruleset file's own (name: my-gin): not taken for a typo.
    mine = write(tmp_path, "mine.py", OFFERS.format(name="short-game", variants=["gin", "my-house-rum"]))
    assert rummykit.validate("gin", plugins=[mine]) == []
    # An alias names the variant too; a house rule for another variant says so when selected.
    alias = write(tmp_path, "alias.py", OFFERS.format(name="alias-rule", variants=["gin-rummy"]))
    assert rummykit.load_variant("gin", ["alias-rule"], plugins=[alias]).ruleset["target"] == 250
    other = write(tmp_path, "other.py", OFFERS.format(name="other-rule", variants=["500-rum"]))
    with pytest.raises(
        rummykit.RulesetError, match=r"gin has no house rule 'other-rule' \(plugin 'other' offers it for 500-rum only\)"
    ):
        rummykit.load_variant("gin", ["other-rule"], plugins=[other])


def test_a_hook_returning_the_wrong_type_is_named_with_its_plugin(tmp_path: Path) -> None:
    plugin = tmp_path / "bad_score.py"
    plugin.write_text(
        "import rummykit\n\n\n@rummykit.hookimpl\ndef rummykit_score_hand(deal, kind):\n    return 42\n",
        encoding="utf-8",
    )
    variant = rummykit.load_variant("gin", plugins=[plugin])
    game = variant.new_game(
        layout={
            "dealer": 1,
            "hands": ["7S 7H 7D 9C TC JC 3H 4H 5H 9D", "2S 3S 4S QD QH QC 8C AH AD 2C"],
            "discard": ["KD"],
            "stock": ["KS"],
        }
    )
    for action in ("pass", "pass", "draw stock"):
        game.apply(action)
    with pytest.raises(
        rummykit.PluginError,
        match=r"plugin 'bad-score' failed in hook rummykit_score_hand: "
        r"TypeError: returned int 42 where HandResult",
    ):
        game.apply("knock KS")


def knock_file_plugin(folder: Path) -> tuple[Path, Path]:
    """A local plugin offering the house rule ``knock-file`` read from ``rule.yaml`` beside it (not yet written)."""
    plugin = folder / "knock_file.py"
    plugin.write_text(
        "from pathlib import Path\n"
        "import rummykit\n\n\n"
        "@rummykit.hookimpl\n"
        "def rummykit_house_rules():\n"
        '    return rummykit.house_rule_file(Path(__file__).with_name("rule.yaml"), "knock-file")\n',
        encoding="utf-8",
    )
    return plugin, folder / "rule.yaml"


def test_a_house_rule_read_from_its_file_is_reported_at_the_files_lines(tmp_path: Path) -> None:
    plugin, rule = knock_file_plugin(tmp_path)
    rule.write_text('summary: "Knock with 7."\nvariants: [gin]\nset:\n  rules:\n    knock_limit: 7\n', "utf-8")
    variant = rummykit.load_variant("gin", house_rules=["knock-file"], plugins=[str(plugin)])
    assert variant.rules["knock_limit"] == 7
    rule.write_text('summary: "Knock with 7."\nvariants: [gin]\nset:\n  rules:\n    knock_limt: 7\n', "utf-8")
    found = [str(p) for p in rummykit.validate("gin", plugins=[str(plugin)])]
    assert len(found) == 1 and found[0].startswith(f"{rule}:5:5: set.rules.knock_limt: plugin 'knock-file'")
    rule.write_text('summary: "x"\nvariants: [ginn]\n', "utf-8")
    found = [str(p) for p in rummykit.validate("gin", plugins=[str(plugin)])]
    assert found and found[0].startswith(f"{rule}:2:12: variants[0]:") and "did you mean 'gin'" in found[0]
    rule.write_text('summary: "x"\nset:\n  rules:\n    knock_limit: 7\n   gin_bonus: 3\n', "utf-8")
    found = [str(p) for p in rummykit.validate("gin", plugins=[str(plugin)])]
    assert found and re.match(rf"{re.escape(str(rule))}:5:\d+: \(document\): not valid YAML", found[0])


def test_a_variant_is_read_again_once_a_file_it_was_read_from_is_edited(tmp_path: Path) -> None:
    # A house rule tried in a notebook or served by a web server that keeps running: the edit is in force.
    mine = tmp_path / "mine.yaml"
    mine.write_text("name: mine\nextends: gin\ntarget: 150\n", encoding="utf-8")
    first = rummykit.load_variant(str(mine))
    assert first.ruleset["target"] == 150 and rummykit.load_variant(str(mine)) is first  # kept while unchanged
    mine.write_text("name: mine\nextends: gin\ntarget: 1500\n", encoding="utf-8")
    assert rummykit.load_variant(str(mine)).ruleset["target"] == 1500
    mine.write_text("name: mine\nextends: gin\ntarget: -15\n", encoding="utf-8")
    with pytest.raises(rummykit.RulesetError, match=r"mine.yaml:3:9: target: expected a number at least 1"):
        rummykit.load_variant(str(mine))
    # A plugin's house rule read from its file (house_rule_file).
    plugin, rule = knock_file_plugin(tmp_path)
    rule.write_text('summary: "Knock with 7."\nvariants: [gin]\nset:\n  rules:\n    knock_limit: 7\n', "utf-8")
    assert rummykit.load_variant("gin", ["knock-file"], plugins=[str(plugin)]).rules["knock_limit"] == 7
    rule.write_text('summary: "Knock with 10."\nvariants: [gin]\nset:\n  rules:\n    knock_limit: 10\n', "utf-8")
    assert rummykit.load_variant("gin", ["knock-file"], plugins=[str(plugin)]).rules["knock_limit"] == 10
    # Selected and wrong, it is refused at its line in that file (what play and simulate print), as validate does.
    rule.write_text('summary: "Knock with 7."\nvariants: [gin]\nset:\n  rules:\n    knock_limit: 700\n', "utf-8")
    with pytest.raises(rummykit.RulesetError) as refused:
        rummykit.load_variant("gin", ["knock-file"], plugins=[str(plugin)])
    said = "plugin 'knock-file': house rule 'knock-file'"
    assert str(refused.value) == f"{rule}:5:18: set.rules.knock_limit: {said}: expected a number at most 100, got 700"
    assert [str(p) for p in rummykit.validate("gin", plugins=[str(plugin)])] == [str(refused.value)]
    rule.write_text('summary: "x"\nvariants: [gin]\nset:\n  melds:\n    set_min: 5\n    set_max: 4\n', "utf-8")
    with pytest.raises(
        rummykit.RulesetError, match=rf"^{re.escape(str(rule))}:5:14: set.melds.set_min: {said}: melds.set_min \(5\)"
    ):
        rummykit.load_variant("gin", ["knock-file"], plugins=[str(plugin)])


def test_an_installed_plugin_whose_house_rules_are_broken_stops_no_game_it_is_not_named_by(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rummykit import variant as variant_module

    broken = types.ModuleType("broken_rules")

    def rummykit_house_rules() -> dict[str, object]:
        raise ValueError("house_rule.yaml is not there")

    broken.rummykit_house_rules = rummykit_house_rules  # type: ignore[attr-defined]
    installed = dict(variant_module._plugin_entry_points())
    monkeypatch.setattr(variant_module, "_plugin_entry_points", lambda: {**installed, "broken-rules": None})
    load = variant_module._load_plugin
    monkeypatch.setattr(variant_module, "_load_plugin", lambda name: broken if name == "broken-rules" else load(name))
    game = rummykit.load_variant("500-rum", options={"target": 777}).new_game(seed=1)
    assert game.legal_actions()
    with pytest.raises(rummykit.RulesetError, match="has no house rule 'nope'.*could not be loaded: broken-rules"):
        rummykit.load_variant("500-rum", house_rules=["nope"], options={"target": 778})


def test_a_rulesets_house_rule_named_like_a_plugins_is_refused_at_the_rulesets_line(tmp_path: Path) -> None:
    plugin = write(tmp_path, "seven.py", OFFERS.format(name="seven", variants=["my-gin"]))
    ruleset = write(
        tmp_path,
        "my-gin.yaml",
        "name: my-gin\nextends: gin\nhouse_rules:\n  seven:\n    summary: Ours.\n    set: {target: 70}\n",
    )
    problems = rummykit.validate(ruleset, plugins=[plugin])
    assert problems and (problems[0].file, problems[0].line) == (str(ruleset), 4)
    assert "plugin 'seven'" in problems[0].message and "rename one of them" in problems[0].message
