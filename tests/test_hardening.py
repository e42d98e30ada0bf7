"""Hostile and careless input: records that name code, prearranged deals, wrong types, and
plugins that lose cards, fail halfway or return values out of range. Rulesets live in ``tests/broken``."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import rummykit
from rummykit import Action, Game, IllegalAction
from rummykit.bots import GreedyBot
from rummykit.cli import main
from rummykit.dispatch import PluginError
from rummykit.records import UntrustedPlugins
from rummykit.simulate import play_game
from rummykit.variant import load_local_plugin


def state(game: Game) -> str:
    """Everything a game holds, in a canonical form: compared before and after a refused action."""
    deal = game.deal
    return json.dumps(
        {
            "record": json.loads(game.to_json()),
            "hands": [[str(c) for c in hand] for hand in deal.hands],
            "stock": [str(c) for c in deal.stock],
            "discard": [str(c) for c in deal.discard],
            "table": [[str(c) for c in tm.meld.cards] for tm in deal.table],
            "set_aside": [str(c) for c in deal.set_aside],
            "phase": deal.phase,
            "current": deal.current,
            "turn": deal.turn,
            "state": repr(sorted(deal.state.items())),
            "known": [sorted(k) for k in deal.known],
            "face_down": sorted(deal.face_down),
            "rng": game.rng.getstate()[1][:4],
            "scores": game.scores,
            "over": game.is_over,
        },
        sort_keys=True,
    )


def plugin(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / f"{name}.py"
    path.write_text("import rummykit\n\n" + textwrap.dedent(body), encoding="utf-8")
    return path


# -- 1. records name code; replay runs only what the user asks for ----------------------------------------


EVIL = """
from pathlib import Path
Path(__file__).with_name("ran.txt").write_text("the plugin ran")
"""


def test_replay_never_runs_a_plugin_the_record_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    evil = plugin(tmp_path, "evil", EVIL)
    record = json.loads(play_game(rummykit.load_variant("gin"), 3, ("greedy", "greedy")).to_json())
    record["plugins"] = [str(evil)]
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps(record))
    assert main(["replay", str(saved)]) == 2
    err = capsys.readouterr().err
    assert not (tmp_path / "ran.txt").exists()
    assert err.count("\n") == 1 and str(evil) in err and "--plugin FILE" in err and "--trust-plugins" in err
    with pytest.raises(UntrustedPlugins) as refused:
        Game.from_json(json.dumps(record))
    assert refused.value.files == [str(evil)] and not (tmp_path / "ran.txt").exists()
    assert main(["replay", str(saved), "--trust-plugins"]) == 0  # asked for: the record's file is loaded
    assert (tmp_path / "ran.txt").exists()


def test_a_plugin_file_named_like_a_module_does_not_replace_it(tmp_path: Path) -> None:
    import json as real_json

    shadow = plugin(tmp_path, "json", "def dumps(*args, **kwargs):\n    return 'not json'\n")
    name, module = load_local_plugin(shadow)
    assert name == "json" and module.__name__ != "json"
    assert sys.modules["json"] is real_json and real_json.dumps([1]) == "[1]"


def test_replay_shows_the_recorded_game_with_its_plugins(
    undercut_double_plugin: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    variant = rummykit.load_variant("gin", house_rules=["undercut-double"], plugins=[undercut_double_plugin])
    game = play_game(variant, 5, ("greedy", "greedy"))
    assert any(h.kind == "undercut" for h in game.results)  # the house rule changes the scores
    saved = tmp_path / "game.json"
    saved.write_text(game.to_json())
    elsewhere = tmp_path / "moved"
    elsewhere.mkdir()
    moved = elsewhere / undercut_double_plugin.name  # the record names the file; a copy elsewhere is accepted
    moved.write_text(undercut_double_plugin.read_text())
    assert main(["replay", str(saved), "--plugin", str(moved)]) == 0
    out = capsys.readouterr().out
    final = [line for line in out.splitlines() if line.startswith("Final scores:")]
    assert final == [f"Final scores: Player 1 {game.scores[0]}, Player 2 {game.scores[1]}"]


# -- 6. prearranged deals are checked completely before play ---------------------------------------------

GIN_HANDS = ["AC 2C 3C 4C 5C 6C 7C 8C 9C TC".split(), "AD 2D 3D 4D 5D 6D 7D 8D 9D TD".split()]


@pytest.mark.parametrize(
    ("variant", "deal", "message"),
    [
        ("gin", {"dealer": 2, "hands": GIN_HANDS}, "'dealer' is seat 2, but the seats are 0 to 1"),
        ("gin", {"dealer": -1, "hands": GIN_HANDS}, "'dealer' is seat -1"),
        ("gin", {"dealer": "1", "hands": GIN_HANDS}, "'dealer' is a seat number, not '1'"),
        ("gin-3", {"dealer": 5, "hands": GIN_HANDS + [[]]}, "'dealer' is seat 5, but the seats are 0 to 2"),
        ("gin-3", {"dealer": 0, "hands": [["KS"]] + GIN_HANDS}, "hand 0 holds cards, but seat 0 sits out"),
        ("gin", {"dealer": 0, "hands": [[], []]}, "hand 0 is empty, but seat 0 plays this deal"),
        ("gin", {"dealer": 0, "hands": [GIN_HANDS[0], [7]]}, "hand 1 names 7, not a card"),
        ("gin", {"dealer": 0, "hands": "AC 2C"}, "'hands' is a list of hands"),
    ],
)
def test_a_prearranged_deal_is_checked_before_play(variant: str, deal: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match="deal: " + message.replace("(", r"\(")):
        rummykit.load_variant(variant).new_game(layout=deal, seed=1)


def test_a_huge_player_count_is_refused_at_once() -> None:
    start = time.perf_counter()
    with pytest.raises(ValueError, match="gin is for 2 players, not 1000000000"):
        rummykit.load_variant("gin").new_game(players=10**9)
    assert time.perf_counter() - start < 0.5


@pytest.mark.parametrize("command", [["play", "gin", "--bots", "greedy"], ["simulate", "gin", "--games", "1"]])
def test_a_huge_player_count_on_the_command_line_is_one_line(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    start = time.perf_counter()
    assert main([*command, "--players", str(10**9)]) == 2
    assert capsys.readouterr().err.count("\n") == 1 and time.perf_counter() - start < 1.0


# -- 7. a caller's mistake is the caller's, never a plugin's ---------------------------------------------


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (None, "an action is an Action or its text, not NoneType None"),
        (123, "an action is an Action or its text, not int 123"),
        (Action("discard", ("7H",)), r"Action.cards is a tuple of Card \(parse_card\('7H'\)\), not \('7H',\)"),  # type: ignore[arg-type]
        (Action(7, ()), "Action.kind is text"),  # type: ignore[arg-type]
        (Action("layoff", (), "0"), "Action.target is a meld number or None, not '0'"),  # type: ignore[arg-type]
    ],
)
def test_a_wrong_type_of_action_is_a_type_error(action: Any, message: str) -> None:
    game = rummykit.load_variant("gin").new_game(seed=1)
    before = state(game)
    with pytest.raises(TypeError, match=message):
        game.apply(action)
    assert state(game) == before


def test_illegal_action_messages_are_bounded() -> None:
    game = rummykit.load_variant("gin").new_game(seed=1)
    for text in ("discard " + "7H " * 20_000, "x" * 100_000, "discard 7H on " + "9" * 5000):
        with pytest.raises(IllegalAction) as refused:
            game.apply(text)
        assert len(str(refused.value)) < 1000 and "\n" not in str(refused.value)


def record_of(**changes: Any) -> str:
    record = json.loads(rummykit.load_variant("gin").new_game(seed=1).to_json())
    record.update(changes)
    return json.dumps(record)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (record_of(actions=[[1, 2]]), "'actions' is a list of deals, each a list of actions as text, not"),
        (record_of(actions="draw stock"), "'actions' is a list of deals"),
        (record_of(seed=float("nan")), "'seed' is a whole number, not NaN"),
        (record_of(seed=None), "'seed' is a whole number, not null"),
        (record_of(seed="abc"), "'seed' is a whole number, not \"abc\""),
        (record_of(seed=1.5), "'seed' is a whole number, not 1.5"),
        (record_of(players="ab"), "'players' is a list of names"),
        (record_of(variant=None), "'variant' is a variant name or ruleset file"),
        (record_of(house_rules="modern"), "'house_rules' is a list of house rule names"),
        (record_of(options=[1]), "'options' is a mapping of ruleset values"),
        (record_of(plugins=[{"evil": 1}]), "'plugins' is a list of plugin files"),
        (record_of(deal=7), "'deal' is a mapping"),
        (record_of(scores=["1"]), "'scores' is a list of whole numbers"),
        (record_of(deal={"dealer": 9, "hands": GIN_HANDS}), "deal: 'dealer' is seat 9"),
        ("[1, 2]", "not a rummykit record"),
        ("{", "not a rummykit record: not JSON"),
        (record_of()[:-1] + ', "x": ' + "[" * 100_000 + "]" * 100_000 + "}", "nests too deeply"),
        (record_of(options={"rules": {"a": json.loads("[" * 500 + "]" * 500)}}), "'options' nests more than 64"),
    ],
    ids=lambda value: value[:30] if isinstance(value, str) and value.startswith("'") else None,
)
def test_a_malformed_record_is_a_value_error_naming_the_key(text: str, message: str) -> None:
    start = time.perf_counter()
    with pytest.raises(ValueError, match=message.replace("(", r"\(")) as refused:
        Game.from_json(text)
    assert type(refused.value) in (ValueError, IllegalAction) and len(str(refused.value)) < 300
    assert time.perf_counter() - start < 1.0


@pytest.mark.parametrize("seed", [float("nan"), "abc", True, 1.5])
def test_a_seed_that_is_not_a_whole_number_is_refused(seed: Any) -> None:
    with pytest.raises(TypeError, match="seed is a whole number"):
        rummykit.load_variant("gin").new_game(seed=seed)


def test_replay_of_a_malformed_record_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "game.json"
    saved.write_text(record_of(actions=[[1, 2]]))
    assert main(["replay", str(saved)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"rummykit: {saved}: not a valid rummykit record: 'actions'")


# -- 8. plugins that lose cards, fail halfway, or return values out of range --------------------------------


def gin_with(tmp_path: Path, name: str, body: str) -> rummykit.Variant:
    return rummykit.load_variant("gin", plugins=[plugin(tmp_path, name, body)])


def play_until_error(game: Game) -> tuple[str, BaseException]:
    """Greedy play until an action fails; the game's state just before it, and the error."""
    bots = [rummykit.bots.make_bot("greedy", seat) for seat in range(game.num_players)]
    for _ in range(5000):
        before = state(game)
        action = bots[game.deal.current].choose(game)
        try:
            game.apply(action)
        except PluginError as exc:
            return before, exc
    raise AssertionError("no action failed")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (  # loses a card from the stock after the sixth turn
            """
            @rummykit.hookimpl
            def rummykit_turn_ended(deal, seat):
                if deal.turn == 5 and deal.stock:
                    deal.stock.pop()
            """,
            "plugin 'gin, loser' failed in hook rummykit_apply_action: AssertionError: after discard",
        ),
        (  # fails halfway: the card is already discarded when it raises
            """
            @rummykit.hookimpl
            def rummykit_turn_ended(deal, seat):
                if deal.turn == 5:
                    raise RuntimeError("halfway")
            """,
            "plugin 'loser' failed in hook rummykit_turn_ended: RuntimeError: halfway",
        ),
        (
            """
            @rummykit.hookimpl(tryfirst=True)
            def rummykit_next_dealer(game, result):
                return 99
            """,
            "plugin 'loser' failed in hook rummykit_next_dealer: ValueError: returned the dealer 99, but the seats",
        ),
        (
            """
            import dataclasses

            @rummykit.hookimpl(wrapper=True)
            def rummykit_score_hand(deal, kind):
                result = yield
                return dataclasses.replace(result, scores=("12", 0))
            """,
            "plugin 'loser' failed in hook rummykit_score_hand: ValueError: returned a HandResult with scores",
        ),
    ],
    ids=["loses-a-card", "fails-halfway", "dealer-99", "score-text"],
)
def test_a_failing_plugin_is_blamed_and_the_game_is_left_as_it_was(tmp_path: Path, body: str, message: str) -> None:
    game = gin_with(tmp_path, "loser", body).new_game(seed=4)
    before, error = play_until_error(game)
    assert str(error).startswith(message), str(error)
    assert state(game) == before
    game.check_cards()


def test_a_rolled_back_game_plays_on_exactly_as_if_nothing_failed(tmp_path: Path) -> None:
    """A plugin that fails once: the game goes on from where it was, to the same end as without it."""
    flaky = gin_with(
        tmp_path,
        "flaky",
        """
        failed = []

        @rummykit.hookimpl
        def rummykit_turn_ended(deal, seat):
            if deal.number == 2 and deal.turn == 7 and not failed:
                failed.append(1)
                raise RuntimeError("once")
        """,
    )
    plain = play_game(rummykit.load_variant("gin"), 11, ("greedy", "greedy"))
    game = flaky.new_game(seed=11)
    bots = [rummykit.bots.make_bot("greedy", rummykit.simulate.bot_seed(11, seat)) for seat in (0, 1)]
    failures = 0
    while not game.is_over:
        action = bots[game.deal.current].choose(game)
        try:
            game.apply(action)
        except PluginError:
            failures += 1
            game.apply(action)  # the same action again, now that the plugin lets it through
    assert failures == 1 and game.history == plain.history and game.scores == plain.scores


def test_validate_with_a_plugin_plays_it_and_finds_lost_cards(tmp_path: Path) -> None:
    loser = plugin(
        tmp_path,
        "loser",
        """
        @rummykit.hookimpl
        def rummykit_turn_ended(deal, seat):
            if deal.turn == 2:
                deal.hands[seat][0] = deal.hands[seat][1]  # one card twice, one lost: the count is right
        """,
    )
    problems = rummykit.validate("gin", plugins=[loser])
    assert len(problems) == 1 and problems[0].file == str(loser), problems
    assert "loses or creates cards" in problems[0].message


def test_validate_tells_a_hook_value_out_of_range_at_the_hook(tmp_path: Path) -> None:
    dealer = plugin(
        tmp_path,
        "dealer",
        """
        @rummykit.hookimpl
        def rummykit_next_dealer(game, result):
            return 5
        """,
    )
    (problem,) = rummykit.validate("gin", plugins=[dealer])
    assert (problem.file, problem.line, problem.path) == (str(dealer), 5, "rummykit_next_dealer")
    assert "returned the dealer 5, but the seats are 0 to 1" in problem.message


def test_validate_with_a_plugin_plays_each_house_rule_it_offers(tmp_path: Path) -> None:
    # The plugin is in force only where its house rule is selected: the trial games select it too.
    halves = plugin(
        tmp_path,
        "halves",
        """
        import dataclasses

        @rummykit.hookimpl
        def rummykit_house_rules():
            return {
                "halves": {"summary": "Half scores.", "variants": ["gin"]},
                "other": {"summary": "Half scores too.", "variants": ["500-rum"]},
            }

        @rummykit.hookimpl(wrapper=True)
        def rummykit_score_hand(deal, kind):
            result = yield
            return dataclasses.replace(result, scores=tuple(s / 2 for s in result.scores))
        """,
    )
    problems = rummykit.validate("gin", plugins=[halves])
    assert len(problems) == 1 and problems[0].file == str(halves), problems
    assert "whole numbers" in problems[0].message and "with house rule 'halves'" in problems[0].message
    problems = rummykit.validate("500-rum", plugins=[halves])  # the house rule offered for it, not Gin's
    assert len(problems) == 1 and "with house rule 'other'" in problems[0].message, problems


# -- a --plugin file and an installed plugin of the same name --------------------------------

SAME_NAME = """
import rummykit


@rummykit.hookimpl
def rummykit_house_rules():
    return {{"shadowed": {{"summary": "{summary}", "variants": ["gin"]}}}}


@rummykit.hookimpl
def rummykit_game_over(game):
    {body}
"""


def test_a_plugin_file_is_used_by_every_worker_even_when_an_installed_plugin_has_its_name(tmp_path: Path) -> None:
    installed = tmp_path / "site"
    (installed / "same_name-1.0.dist-info").mkdir(parents=True)
    (installed / "same_name-1.0.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: same-name\nVersion: 1.0\n"
    )
    (installed / "same_name-1.0.dist-info" / "entry_points.txt").write_text("[rummykit]\nsame-name = same_name\n")
    (installed / "same_name.py").write_text(SAME_NAME.format(summary="installed", body="return None"))
    local = tmp_path / "local" / "same_name.py"
    local.parent.mkdir()
    local.write_text(SAME_NAME.format(summary="local", body="raise RuntimeError('the local file ran')"))
    env = {**__import__("os").environ, "PYTHONPATH": str(installed)}
    outputs = []
    for jobs in ("1", "2"):
        result = subprocess.run(
            [sys.executable, "-m", "rummykit.cli", "simulate", "gin", "--games", "4", "--jobs", jobs, "--quiet",
             "--plugin", str(local), "--house-rule", "shadowed"],
            capture_output=True, text=True, env=env, timeout=120,
        )  # fmt: skip
        outputs.append((result.returncode, result.stderr.strip()))
    assert (
        outputs
        == [(1, "rummykit: plugin 'same-name' failed in hook rummykit_game_over: RuntimeError: the local file ran")] * 2
    )


# -- 4. validation is linear in the number of house rules ---------------------------------------------------


def test_validating_many_house_rules_reads_and_checks_each_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rummykit.catalogue as catalogue_module
    import rummykit.variant as variant_module

    count = 120
    ruleset = tmp_path / "many.yaml"
    rules = [f"  rule-{i}: {{summary: 'rule {i}', set: {{target: {100 + i}}}}}" for i in range(count)]
    ruleset.write_text("\n".join(["name: many", "title: Many", "extends: gin", "house_rules:", *rules]) + "\n")
    reads: list[str] = []
    checked: list[int] = []
    load, check = catalogue_module.load_document, variant_module.schema_problems
    catalogue_module._document_cached.cache_clear()
    monkeypatch.setattr(catalogue_module, "load_document", lambda path, *a: reads.append(str(path)) or load(path, *a))
    monkeypatch.setattr(
        variant_module,
        "schema_problems",
        lambda data, *a: checked.append(len(data.get("house_rules", {}))) or check(data, *a),
    )
    assert rummykit.validate(ruleset) == []
    assert reads.count(str(ruleset)) == 1
    assert sum(checked) <= 2 * count  # the house rules block is checked once, not once per house rule


# -- 9. simulate: ^C and a killed worker are one line each ---------------------------------------------------

KILLER = """
import multiprocessing
import os
import signal

import rummykit


@rummykit.hookimpl
def rummykit_start_hand(deal):
    if multiprocessing.parent_process() is not None:  # in a worker process: die as if killed
        os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_killed_worker_is_one_line_and_exit_1(tmp_path: Path) -> None:
    killer = tmp_path / "killer.py"
    killer.write_text(KILLER)
    result = subprocess.run(
        [sys.executable, "-m", "rummykit.cli", "simulate", "gin", "--games", "20", "--jobs", "2", "--quiet",
         "--plugin", str(killer)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert (result.returncode, result.stderr) == (
        1,
        "rummykit: a worker process stopped before finishing its games (killed, or out of memory)\n",
    )


def test_ctrl_c_while_starting_up_is_one_line_and_exit_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import rummykit.cli as cli

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "load_variant", interrupted)
    assert main(["simulate", "gin", "--games", "10", "--jobs", "2"]) == 130
    assert capsys.readouterr().err == "rummykit: interrupted\n"


def test_workers_start_with_interrupts_blocked_and_ignore_them_once_started() -> None:
    import signal

    import rummykit.simulate as simulate_module

    assert simulate_module._blocking_interrupts(True)
    try:
        assert signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())
    finally:
        simulate_module._blocking_interrupts(False)
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())


# -- the fuzzing that found these: random and garbage actions against every variant ------------------------

GARBAGE_WORDS = ["draw", "stock", "discard", "knock", "meld", "layoff", "pass", "done", "gin", "big", "on", "x", ""]


def garbage(game: Game, rng: Any) -> Any:
    """Something that is rarely a legal action: text, Actions with odd cards or targets, other types."""
    cards = [str(c) for c in rng.sample(game.deck, rng.randint(0, 4))]
    roll = rng.random()
    if roll < 0.4:
        words = rng.sample(GARBAGE_WORDS, rng.randint(1, 3)) + cards
        if rng.random() < 0.3:
            words += ["on", str(rng.randint(-2, 12))]
        rng.shuffle(words)
        return " ".join(words)
    if roll < 0.8:
        legal = game.legal_actions()
        kind = rng.choice(legal).kind if legal else "discard"
        target = rng.choice([None, None, -1, 0, 1, 7, 99])
        return Action(kind, tuple(rummykit.cards.parse_card(c) for c in cards), target)
    return rng.choice([None, 7, 3.5, b"discard 7H", ("discard", "7H"), Action("discard", ("7H",))])  # type: ignore[arg-type]


@pytest.mark.slow
@pytest.mark.parametrize("name", [info.name for info in rummykit.list_variants() if info.package == "rummykit"])
def test_fuzz_random_and_garbage_actions_never_change_the_state_nor_lose_a_card(name: str) -> None:
    import random

    variant = rummykit.load_variant(name)
    refused = accepted = 0
    for seed in range(40):  # about a minute for every variant together, on one core
        rng = random.Random(seed)
        game = variant.new_game(seed=seed)
        bots = [rummykit.bots.make_bot("random", seed * 10 + seat) for seat in range(game.num_players)]
        steps = 0
        # A few hands, and at most 300 moves a game: random play of the table games runs to hundreds of moves a
        # hand, and each refusal compares the whole record.
        while not game.is_over and len(game.results) < 4 and steps < 300:
            steps += 1
            if rng.random() < 0.35:
                before = state(game)
                try:
                    game.apply(garbage(game, rng))
                except (IllegalAction, TypeError):
                    refused += 1
                    assert state(game) == before
                    continue
            else:
                game.apply(bots[game.deal.current].choose(game))
            accepted += 1
            game.check_cards()
    assert refused > 100 and accepted > 100


def test_a_record_whose_results_were_changed_is_refused() -> None:
    game = rummykit.load_variant("gin").new_game(seed=3, max_hands=2)
    bots = [GreedyBot(1), GreedyBot(2)]
    while not game.is_over:
        game.apply(bots[game.deal.actor].choose(game))
    record = json.loads(game.to_json())
    assert Game.from_json(json.dumps(record)).results == game.results  # as saved: it replays

    def refused(change: Callable[[dict[str, Any]], None], message: str) -> None:
        tampered = json.loads(json.dumps(record))
        change(tampered)
        with pytest.raises(ValueError, match=message):
            Game.from_json(json.dumps(tampered))

    winner = record["results"][0]["winner"]
    refused(lambda r: r["results"][0]["scores"].__setitem__(winner, 99),
            r"hand 1's result differs: its scores is \[")  # fmt: skip
    refused(lambda r: r["results"].append(r["results"][0]), "it holds 3 hand results, its actions make 2")
    refused(lambda r: r.__setitem__("end_reason", "target"), "the game ends by 'max-hands', the record says 'target'")
