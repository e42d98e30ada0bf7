"""The ``rummykit`` command line: run in-process through ``main`` and as the installed script."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import rummykit
from rummykit.bots import GreedyBot, SearchBot
from rummykit.cli import TurnPrinter, main, play_interactive
from rummykit.engine import Game
from rummykit.simulate import TIMING_FIELDS, bot_seed, make_bots, play_game

SCRIPT = Path(sys.executable).with_name("rummykit")

GOOD = """\
name: gin-to-250
title: Gin Rummy to 250
extends: gin
plugins: [gin]
players: {min: 2, max: 2}
target: 250
"""

TYPO = """\
name: gin-typo
title: Gin with a typo
extends: gin
plugins: [gin]
players: {min: 2, max: 2}
targett: 250
"""


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The installed script, with no terminal: stdin is empty unless given."""
    return subprocess.run(
        [str(SCRIPT), *args],
        input=stdin if stdin is not None else "",
        capture_output=True,
        text=True,
        timeout=300,
    )


def final_scores(output: str) -> list[int]:
    line = next(line for line in output.splitlines() if line.startswith("Final scores:"))
    return [int(n) for n in re.findall(r"Player \d+ (-?\d+)", line)]


CARD = re.compile(r"\b(?:[A2-9TJQK][CDHS]|JK)\b")


# -- list and show --------------------------------------------------------------------------------------


def test_list_names_every_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^gin\s+Gin Rummy \(2 players; aliases: gin-rummy\)", out, re.M)
    for info in rummykit.list_variants():
        assert re.search(rf"^{re.escape(info.name)}\s", out, re.M)


def test_show_prints_the_ruleset_and_house_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "gin"]) == 0
    out = capsys.readouterr().out
    assert "knock_limit: 10" in out
    assert "gin_bonus: 20" in out
    assert re.search(r"^\s+modern\s+Gin, undercut and box bonuses are all 25", out, re.M)
    assert re.search(r"^\s+big-gin\s", out, re.M)
    # The ruleset part is YAML that reads back to the variant's ruleset (house rules listed apart).
    ruleset_text = out.split("\n\n")[0]
    import yaml

    data = yaml.safe_load(ruleset_text)
    expected = {k: v for k, v in rummykit.load_variant("gin").ruleset.items() if k != "house_rules"}
    assert data == expected
    assert list(data)[:3] == ["name", "title", "aliases"]


def test_show_with_a_house_rule_shows_its_values(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "gin-rummy", "--house-rule", "modern"]) == 0
    out = capsys.readouterr().out
    assert "gin_bonus: 25" in out and "undercut_bonus: 25" in out
    assert re.search(r"^\* modern\s", out, re.M)


# -- validate ----------------------------------------------------------------------------------------------


def test_validate_a_good_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "gin-to-250.yaml"
    path.write_text(GOOD)
    assert main(["validate", str(path)]) == 0
    assert capsys.readouterr().out.strip() == f"{path}: OK"


def test_validate_a_typo_names_file_line_and_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.yaml"
    good.write_text(GOOD)
    bad = tmp_path / "typo.yaml"
    bad.write_text(TYPO)
    assert main(["validate", str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"{good}: OK" in out
    problem = next(line for line in out.splitlines() if line.startswith(str(bad)))
    # file:line:col: path: message, at the line of the misspelt key (line 6)
    assert re.match(rf"{re.escape(str(bad))}:6:\d+: targett: unknown key 'targett'", problem)
    assert "did you mean 'target'" in problem


def test_validate_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.yaml"
    good.write_text(GOOD)
    bad = tmp_path / "typo.yaml"
    bad.write_text(TYPO)
    missing = tmp_path / "missing.yaml"
    assert main(["validate", "--json", str(good), str(bad), str(missing)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert [item["valid"] for item in report] == [True, False, False]
    assert report[0]["problems"] == []
    typo = report[1]["problems"][0]
    assert typo["file"] == str(bad) and typo["line"] == 6 and typo["path"] == "targett"
    assert "targett" in typo["message"]
    assert report[2]["problems"][0]["file"] == str(missing)
    assert main(["validate", "--json", str(good)]) == 0
    assert json.loads(capsys.readouterr().out)[0]["valid"] is True


def test_validate_broken_yaml_exits_1_without_traceback(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("name: gin\nplayers: {min: 2, max: 2\n")
    result = run("validate", str(path))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr + result.stdout
    assert re.search(rf"{re.escape(str(path))}:\d+:\d+: .*not valid YAML", result.stdout)


# -- play with bots only --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bot_game_output() -> str:
    result = run("play", "gin", "--bots", "greedy,greedy", "--seed", "3")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    return result.stdout


def test_bot_game_runs_to_the_end_without_stdin(bot_game_output: str) -> None:
    expected = play_game("gin", 3, ("greedy", "greedy"))
    assert expected.is_over
    assert final_scores(bot_game_output) == expected.scores
    assert f"== Game over after {len(expected.results)} deals ==" in bot_game_output
    for seat, name, points in expected.bonuses:
        assert f"  Player {seat + 1}: {name} {points:+d}" in bot_game_output
    winner = expected.winner
    assert winner is not None
    assert bot_game_output.rstrip().endswith(f"Player {winner + 1} wins.")


def test_bot_game_prints_every_action_readably(bot_game_output: str) -> None:
    game = play_game("gin", 3, ("greedy", "greedy"))
    turn_lines = [line.strip() for line in bot_game_output.splitlines() if re.match(r"  Player \d [a-z]", line)]
    assert len(turn_lines) == sum(len(deal) for deal in game.history)
    assert any(re.fullmatch(r"Player \d draws from the stock", line) for line in turn_lines)
    assert any(re.fullmatch(r"Player \d knocks, discarding a card face down", line) for line in turn_lines)
    assert any(re.fullmatch(r"Player \d discards [2-9TJQKA][CDHS]", line) for line in turn_lines)
    for line in turn_lines:
        if "draws from the stock" in line:
            assert not CARD.search(line), line  # a card drawn from the stock stays hidden


def test_bot_game_shows_each_deal_and_result(bot_game_output: str) -> None:
    game = play_game("gin", 3, ("greedy", "greedy"))
    for result in game.results:
        assert f"== Deal {result.number}: " in bot_game_output
        assert f"-- Deal {result.number} ends: " in bot_game_output
    first = game.results[0]
    knocker = first.details["knocker"]
    melds = " ".join(f"[{m}]" for m in first.details["melds"][str(knocker)])
    assert f"Player {knocker + 1} (knocker, deadwood {first.details['deadwood'][knocker]}): {melds}" in bot_game_output


def test_bot_game_in_process_with_house_rule_and_save(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.json"
    args = ["play", "gin", "--bots", "random,greedy", "--seed", "8", "--house-rule", "modern", "--save", str(record)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out.startswith("Gin Rummy (gin) with modern, seed 8: Player 1 (random) vs Player 2 (greedy)")
    saved = Game.from_json(record.read_text())
    assert saved.variant.house_rules == ("modern",)
    assert final_scores(out) == saved.scores
    assert saved.history == play_game(rummykit.load_variant("gin", ["modern"]), 8, ("random", "greedy")).history


def test_bot_game_max_hands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "gin", "--bots", "greedy,greedy", "--seed", "3", "--max-hands", "2"]) == 0
    out = capsys.readouterr().out
    assert "== Stopped after 2 deals: the game is not over ==" in out
    assert "-- Deal 3 ends" not in out
    assert "== Deal 3:" not in out  # the deal dealt when play stops is not shown


def test_think_caps_the_search_bots_and_changes_nothing_below_the_cap(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["play", "gin", "--bots", "search,greedy", "--seed", "3", "--max-hands", "1"]
    assert main(args) == 0
    plain = capsys.readouterr().out
    assert main([*args, "--think", "1e6"]) == 0  # a cap no move reaches: the same game
    assert capsys.readouterr().out == plain

    caps: set[object] = set()
    choose = SearchBot.choose

    def seen(bot: SearchBot, game: Game) -> Any:
        caps.add(bot.max_seconds)
        return choose(bot, game)

    monkeypatch.setattr(SearchBot, "choose", seen)
    assert main([*args, "--think", "2.5"]) == 0
    assert caps == {2.5}
    handed: list[Any] = []  # the bots a person plays against
    monkeypatch.setattr("rummykit.cli.play_interactive", lambda game, seat, bots, *rest, **options: handed.extend(bots))
    assert main(["play", "gin-3", "--opponent", "search", "--seed", "3", "--think", "0.5"]) == 0
    assert handed[0] is None and [bot.max_seconds for bot in handed[1:]] == [0.5, 0.5]


# -- replay ---------------------------------------------------------------------------------------------------


def test_replay_reproduces_the_game_turn_by_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.json"
    assert main(["play", "gin", "--bots", "greedy,random", "--seed", "12", "--save", str(record)]) == 0
    played = capsys.readouterr().out
    assert main(["replay", str(record)]) == 0
    replayed = capsys.readouterr().out
    assert final_scores(replayed) == final_scores(played) == Game.from_json(record.read_text()).scores
    # The same printer: everything after the title line is identical (minus the play command's save note).
    body = played.splitlines()[1:]
    assert body[-1].startswith("Saved the game to")
    assert replayed.splitlines()[1:] == body[:-1]


def test_replay_of_a_bad_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "none.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    junk = tmp_path / "junk.json"
    junk.write_text('{"format": "something else"}')
    assert main(["replay", str(junk)]) == 2
    assert "not a rummykit record" in capsys.readouterr().err


# -- simulate -------------------------------------------------------------------------------------------------


def simulate_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["simulate", "gin", "--games", "3", "--json", *args]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def without_timing(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in TIMING_FIELDS}


def test_simulate_json_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    one = simulate_json(capsys, "--seed", "4")
    two = simulate_json(capsys, "--seed", "4")
    other = simulate_json(capsys, "--seed", "5")
    for field in TIMING_FIELDS:
        assert field in one
    assert without_timing(one) == without_timing(two)
    assert without_timing(one) != without_timing(other)
    assert one["games"] == 3 and sum(one["wins"]) == 3
    assert one["bots"] == ["greedy", "greedy"]


def test_simulate_text(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "gin", "--games", "2", "--seed", "1", "--bots", "random,greedy", "--house-rule", "big-gin"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 games of Gin Rummy (gin) with big-gin, seed 1: Player 1 (random) vs Player 2 (greedy)")
    for label in ("Wins:", "Hands played:", "Average score:", "Actions:", "Speed:"):
        assert label in out
    assert re.search(r"games/s, .* hands/s, .* actions/s", out)


# -- errors ---------------------------------------------------------------------------------------------------


def test_unknown_variant_exits_2_with_a_hint() -> None:
    result = run("play", "gni", "--bots", "greedy,greedy")
    assert result.returncode == 2
    assert "no variant named 'gni'" in result.stderr and "did you mean 'gin'" in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["show", "gin", "--house-rule", "modrn"], "did you mean 'modern'"),
        (["play", "gin", "--bots", "greedy,greedy", "--house-rule", "modern", "--house-rule", "norwegian"], "conflict"),
        (["play", "gin", "--bots", "greedy,clever"], "unknown bot 'clever'"),
        (["play", "gin", "--bots", "greedy,greedy,greedy"], "--bots names 3 bots, one per seat, but gin is for 2"),
        (["play", "gin", "--bots", " , "], "--bots names no bot"),
        (["play", "gin", "--bots", ",greedy"], "has an empty name between its commas"),
        (["play", "gin", "--resume", "g.json"], "--resume goes on with the saved game's variant: leave out"),
        (["play", ".", "--bots", "greedy"], "'.' is a folder; a ruleset is a YAML file in it"),
        (["play", "/dev/null", "--bots", "greedy"], "'/dev/null' is not a regular file (a device, pipe or socket)"),
        (["play", "nogame", "--bots", "greedy"], "no variant named 'nogame'. Known variants: "),
        (["simulate", "gim", "--games", "1"], "did you mean 'gin'"),
        (["simulate", "gin", "--games", "-1"], "--games"),
        (["play", "gin", "--think", "0"], "--think is a number of seconds above 0, not '0'"),
        (["play", "gin", "--bots", "search,greedy", "--think", "inf"], "--think is a number of seconds above 0"),
        (["play", "gin", "--bots", "search,greedy", "--think", "abc"], "--think is a number of seconds above 0"),
        (["play", "gin", "--bots", "greedy", "--think", "1"], "no search bot plays here (--opponent search)"),
        (["play", "gin", "--think", "1"], "no search bot plays here"),
        (["play", "gin", "--bots", "search,greedy", "--players", "3", "--think", "1"], "gin is for 2 players, not 3"),
        (["play", "gin", "--bots", "greedy", "--opponent", "random"], "with --bots every seat is a bot"),
        (["play", "gin", "--bots", "greedy", "--max-hands", "10001"], "--max-hands is from 1 to 10,000, not 10001"),
        (["simulate", "gin", "--games", "1", "--max-hands", "99999999999999999999"], "--max-hands is from 1 to"),
    ],
)
def test_mistakes_exit_2_with_a_message(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.startswith("rummykit: ")


def test_playing_an_invalid_ruleset_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "typo.yaml"
    bad.write_text(TYPO)
    assert main(["play", str(bad), "--bots", "greedy,greedy"]) == 2
    err = capsys.readouterr().err
    assert "typo.yaml:6:" in err and "targett" in err


def test_a_ruleset_file_can_be_played(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "gin-to-250.yaml"
    path.write_text(GOOD)
    assert main(["play", str(path), "--bots", "greedy,greedy", "--seed", "1", "--max-hands", "1"]) == 0
    assert "Gin Rummy to 250 (gin-to-250), seed 1" in capsys.readouterr().out


# -- the person at the terminal ---------------------------------------------------------------------------------


def snapshot(game: Game) -> tuple[object, ...]:
    deal = game.deal
    return (deal.number, deal.phase, deal.current, tuple(game.history[-1]), tuple(map(str, deal.hands[0])))


def scripted_greedy(game: Game, first: list[str]) -> Iterator[str]:
    """Lines a person types: ``first`` as given, then what a greedy player would choose."""
    me = GreedyBot(1)
    yield from first
    while True:
        yield str(me.choose(game))


def test_interactive_play_reprompts_on_bad_input_and_plays_to_the_end() -> None:
    variant = rummykit.load_variant("gin")
    game = variant.new_game(seed=3)
    bots = make_bots(["greedy"], 2, 3)
    lines: list[str] = []
    states: list[tuple[object, ...]] = []
    typed: list[str] = []
    bad = ["help", "?", "discard ZZ", "knock 7X", "", "hand", "layoff 8C on 2", "\x1b[A"]
    script = scripted_greedy(game, bad)

    def read(prompt: str) -> str:
        assert prompt == "> "
        states.append(snapshot(game))
        typed.append(next(script))
        return typed[-1]

    finished = play_interactive(game, 0, [None, bots[1]], read, lines.append)
    assert finished and game.is_over
    out = "\n".join(lines)
    # Before anything legal was typed the game did not move: every bad line was answered and asked again.
    assert len(set(states[:9])) == 1
    assert typed[8] not in bad
    assert out.count("Legal now:") >= 2
    assert "'ZZ' is not a card" in out and "'7X' is not a card" in out
    assert "layoff 8C on 2 is not allowed" in out
    assert "Type an action" in out
    assert "That line holds a control character (an arrow key?)" in out and "\x1b" not in out.lower()
    # The turn display: the pile, the stock, the knock limit, the sorted hand and its best arrangement.
    assert "Upcard: TC   Stock: 31 cards   Knock limit: 10" in out
    assert "Your hand: KC JD KD 5H 9H TH 8S 9S QS KS" in out
    assert "Best arrangement: [KC KD KS] deadwood" in out
    assert "-- Deal 1 ends:" in out and "Scores: You " in out
    # The person played greedy with bot seed 1 against the same opponent: compare with a bot game.
    expected = play_game(variant, 3, [GreedyBot(1), GreedyBot(bot_seed(3, 1))])
    assert game.scores == expected.scores
    assert game.history == expected.history


def test_interactive_play_never_shows_the_opponents_hidden_cards() -> None:
    game = rummykit.load_variant("gin").new_game(seed=5)
    lines: list[str] = []
    script = scripted_greedy(game, [])
    opponent_draws: list[str] = []

    def write(line: str) -> None:
        lines.append(line)
        if "Player 2 draws" in line:
            opponent_draws.append(line)

    play_interactive(game, 0, [None, GreedyBot(2)], lambda _prompt: next(script), write)
    assert opponent_draws and all(line.strip() == "Player 2 draws from the stock" for line in opponent_draws)
    assert any(re.fullmatch(r"  You draw [2-9TJQKA][CDHS] from the stock", line) for line in lines)
    # A hand's cards are printed only in the player's own hand and at the end of a hand.
    assert not any(
        line.startswith("  Player 2 ")
        and CARD.search(line)
        and "discards" not in line
        and "knocks" not in line
        and "takes" not in line
        and "declines" not in line
        for line in lines
    )


def test_interactive_quit_and_end_of_input() -> None:
    game = rummykit.load_variant("gin").new_game(seed=3)
    lines: list[str] = []
    assert play_interactive(game, 0, [None, GreedyBot(1)], lambda _prompt: "quit", lines.append) is False
    assert lines[-1] == "You leave the game."

    def eof(_prompt: str) -> str:
        raise EOFError

    game = rummykit.load_variant("gin").new_game(seed=3)
    assert play_interactive(game, 0, [None, GreedyBot(1)], eof, lines.append) is False
    assert not game.is_over


def test_interactive_play_through_piped_stdin() -> None:
    result = run("play", "gin", "--seed", "3", stdin="help\ndiscard ZZ\ndraw discard\ndiscard KC\nquit\n")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    out = result.stdout
    assert "Legal now: draw discard, pass" in out
    assert "'ZZ' is not a card" in out
    assert "You take TC from the discard pile" in out
    assert "You discard KC" in out
    assert "You leave the game." in out


def test_interactive_play_with_no_input_at_all_stops_cleanly() -> None:
    result = run("play", "gin", "--seed", "3")
    assert result.returncode == 0
    assert "You leave the game." in result.stdout
    assert result.stderr == ""


def test_turn_printer_is_usable_on_its_own() -> None:
    lines: list[str] = []
    printer = TurnPrinter(lines.append, show_hands=False, labels=["greedy", "greedy"])
    game = play_game("gin", 3, ("greedy", "greedy"), on_action=printer, on_start=printer.start, max_hands=1)
    printer.game_end(game)
    assert lines[0] == "Gin Rummy (gin), seed 3: Player 1 (greedy) vs Player 2 (greedy)"
    assert lines[-1].startswith("Scores so far: ")
    assert not any(re.match(r"  Player \d  ", line) for line in lines)  # no hands at the deal's start


def test_the_banner_shows_partners_together(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "gin-partnership", "--bots", "greedy", "--seed", "1", "--max-hands", "1"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.endswith(": Player 1 (greedy) & Player 3 (greedy) vs Player 2 (greedy) & Player 4 (greedy)")


def test_replay_of_a_stopped_game_shows_what_play_showed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "g.json"
    assert main(["play", "gin", "--bots", "greedy", "--seed", "3", "--max-hands", "1", "--save", str(saved)]) == 0
    played = capsys.readouterr().out
    assert main(["replay", str(saved)]) == 0
    replayed = capsys.readouterr().out
    assert "== Deal 2" not in replayed and "== Stopped after 1 deal" in replayed
    assert replayed.splitlines()[1:] == [line for line in played.splitlines()[1:] if not line.startswith("Saved")]


def test_a_partnership_simulation_counts_wins_by_side(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "500-partnership", "--games", "3", "--seed", "1", "--jobs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("Player 1 (greedy) & Player 3 (greedy) vs Player 2 (greedy) & Player 4 (greedy)")
    wins = re.fullmatch(
        r"Wins: +Player 1 \(greedy\) & Player 3 \(greedy\) (\d+), Player 2 \(greedy\) & Player 4 \(greedy\) (\d+)",
        lines[1],
    )
    assert wins is not None and int(wins[1]) + int(wins[2]) == 3, lines[1]


def test_a_record_naming_a_bad_variant_is_refused_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "g.json"
    assert main(["play", "gin", "--bots", "greedy", "--seed", "3", "--max-hands", "1", "--save", str(saved)]) == 0
    record = json.loads(saved.read_text(encoding="utf-8"))
    for key, value, message in (
        ("options", {"target": "x"}, "options: target: expected a whole number"),
        ("house_rules", ["nope"], "house rule 'nope': gin has no house rule 'nope'"),
        ("variant", "nogame", "no variant named 'nogame'"),
    ):
        bad = tmp_path / f"bad-{key}.json"
        bad.write_text(json.dumps({**record, key: value}), encoding="utf-8")
        for command in (["replay", str(bad)], ["play", "--resume", str(bad)]):
            capsys.readouterr()
            assert main(command) == 2
            err = capsys.readouterr().err
            assert err.startswith(f"rummykit: {bad}: {message}") and "(document)" not in err, err


def test_short_forms_are_the_declared_verbs() -> None:
    """Each game's short forms are its verbs' (``rummykit_verbs``): the plain turn's everywhere, Gin's ``k``
    only in the Gin games, the mechanics' where a game uses them."""
    from rummykit.cli import short_forms

    plain = {"s": "draw stock", "p": "draw discard", "d": "discard"}
    table = {**plain, "m": "meld", "l": "layoff"}
    assert short_forms(rummykit.load_variant("gin")) == {**plain, "k": "knock", "m": "meld", "l": "layoff"}
    assert short_forms(rummykit.load_variant("500-rum")) == table
    assert short_forms(rummykit.load_variant("fortune")) == {**table, "t": "take pile"}
    assert short_forms(rummykit.load_variant("skarney")) == {**table, "o": "offer", "e": "end turn"}


def _a_plugin_verb(tmp_path: Path) -> Path:
    plugin = tmp_path / "shout.py"
    plugin.write_text(
        "from rummykit import hookimpl\n"
        "from rummykit.actions import Action, Verb\n"
        "@hookimpl\n"
        "def rummykit_verbs(variant):\n"
        "    return [Verb('shout', short='x')]\n"
        "@hookimpl\n"
        "def rummykit_legal_actions(deal, actions):\n"
        "    if deal.phase == 'draw':\n"
        "        actions.append(Action('shout'))\n"
        "@hookimpl\n"
        "def rummykit_apply_action(deal, action):\n"
        "    return True if action.kind == 'shout' else None\n"
    )
    return plugin


def test_a_plugins_short_form_is_typed_and_listed(tmp_path: Path) -> None:
    """A verb a plugin declares with a short form: the terminal expands it and ``help`` lists it; ``k`` is no
    short form outside the games that declare it."""
    from rummykit.cli import expand_short_form, short_forms

    variant = rummykit.load_variant("500-rum", plugins=[_a_plugin_verb(tmp_path)])
    assert short_forms(variant)["x"] == "shout"
    game = variant.new_game(seed=1)
    while game.deal.phase != "draw":
        game.apply(game.legal_actions()[0])
    assert expand_short_form(game, "x") == "shout"
    assert expand_short_form(game, "k 9S") == "k 9S"
    lines: list[str] = []
    seat = game.deal.actor
    typed = iter(["help", "x", "quit"])
    play_interactive(game, seat, [None] * game.num_players, lambda _prompt: next(typed), lines.append)
    assert any(line.startswith("Short forms: ") and "x (shout)" in line for line in lines), lines
    assert game.history[-1][-1] == "shout"


def test_a_lone_short_form_meaning_two_legal_actions_is_refused() -> None:
    """``p`` while Gin's ``pass`` is legal too at the upcard offer: neither is taken, and ``help`` leaves
    the ambiguous form out. Once the offer is past, ``p`` is the pile again."""
    from rummykit.cli import short_form_clash

    game = rummykit.load_variant("gin").new_game(seed=3)
    assert game.deal.phase == "offer"
    assert (
        short_form_clash(game, "p")
        == "'p' could mean 'pass' or the pile ('draw discard'): type the one you mean in full."
    )
    assert short_form_clash(game, "s") is None and short_form_clash(game, "p 7H") is None
    game.apply("pass")
    game.apply("pass")
    assert game.deal.phase == "draw" and short_form_clash(game, "p") is None


def test_python_dash_m_rummykit_is_the_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "rummykit", "validate", "gin", "/dev/null"], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 1 and result.stderr == ""
    assert result.stdout.splitlines() == ["gin: OK", "/dev/null: '/dev/null' is not a regular file (a device, pipe "
                                          "or socket); a ruleset is a YAML file"]  # fmt: skip
