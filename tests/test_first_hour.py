"""What a newcomer meets first: games that end, simulate for any player count, the terminal
game's short forms, suggestions, pause, rules and resume, checked output paths, and the small things."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import rummykit
from rummykit.bots import GreedyBot
from rummykit.cli import TurnPrinter, _legal_lines, describe_position, main, play_interactive
from rummykit.engine import DEFAULT_MAX_HANDS, Game
from rummykit.simulate import make_bots, play_game, simulate

SCRIPT = Path(sys.executable).with_name("rummykit")


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPT), *args], input=stdin, capture_output=True, text=True, timeout=300)


def first_action(game: Game) -> None:
    game.apply(game.legal_actions()[0])


# -- 1. a guard against games that cannot end ------------------------------------------------------------


def test_a_policy_that_never_knocks_ends_at_the_hand_limit() -> None:
    game = rummykit.load_variant("gin").new_game(seed=7, max_hands=25)
    assert game.max_hands == 25
    while not game.is_over:
        first_action(game)  # never knocks: every hand is a dead hand, dealt again
    assert game.end_reason == "max-hands"
    assert len(game.results) == 25 and {hand.kind for hand in game.results} == {"dead"}
    assert game.winner is None and game.bonuses == [] and game.scores == [0, 0]
    assert game.current_player is None and game.legal_actions() == []


def test_the_default_hand_limit_ends_the_old_readme_example() -> None:
    gin = rummykit.load_variant("gin", house_rules=["modern"])
    game = gin.new_game(seed=7)
    assert game.max_hands == DEFAULT_MAX_HANDS == 1000
    while not game.is_over:
        first_action(game)
    assert (game.end_reason, len(game.results)) == ("max-hands", DEFAULT_MAX_HANDS)


def test_a_game_ended_by_its_rules_says_target_and_a_ruleset_limit_applies() -> None:
    game = play_game("gin", 3)
    assert game.end_reason == "target" and game.winner is not None
    short = rummykit.load_variant("gin", options={"max_hands": 2}).new_game(seed=3)
    assert short.max_hands == 2
    bots = make_bots(["greedy"], 2, 3)
    while not short.is_over:
        short.apply(bots[short.deal.current].choose(short))
    assert short.end_reason == "max-hands" and len(short.results) == 2
    # Ended early, a race to 100 scores no game bonus; whoever leads alone on hand points wins.
    totals = short.hand_totals()
    assert short.bonuses == [] and short.scores == totals
    assert short.winner == (totals.index(max(totals)) if totals.count(max(totals)) == 1 else None)


@pytest.mark.parametrize("bad", [0, -1, 2.5, True])
def test_a_bad_hand_limit_is_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="max_hands is a whole number of hands, 1 or more"):
        rummykit.load_variant("gin").new_game(seed=1, max_hands=bad)  # type: ignore[arg-type]


def test_the_record_keeps_the_limit_and_the_reason() -> None:
    game = rummykit.load_variant("gin").new_game(seed=7, max_hands=3)
    while not game.is_over:
        first_action(game)
    record = json.loads(game.to_json())
    assert record["max_hands"] == 3 and record["end_reason"] == "max-hands"
    again = Game.from_json(game.to_json())
    assert again.is_over and again.end_reason == "max-hands" and again.history == game.history


def test_the_end_of_a_stopped_game_is_printed() -> None:
    game = rummykit.load_variant("gin").new_game(seed=7, max_hands=2)
    while not game.is_over:
        first_action(game)
    lines: list[str] = []
    TurnPrinter(lines.append).game_end(game)
    assert "The game reached its hand limit (2 hands) before its end." in lines
    assert lines[-1] == "Nobody wins."


def test_simulate_counts_games_stopped_at_the_hand_limit(capsys: pytest.CaptureFixture[str]) -> None:
    short = rummykit.load_variant("gin", options={"max_hands": 1})
    result = simulate(short, games=3, seed=1)
    assert result.max_hands_games == 3 and result.as_dict()["max_hands_games"] == 3
    assert simulate("gin", games=3, seed=1).max_hands_games == 0
    assert main(["simulate", "gin", "--games", "2", "--seed", "1", "--quiet"]) == 0
    assert "Hand limit:" not in capsys.readouterr().out


def test_simulate_prints_the_hand_limit_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ruleset = tmp_path / "gin-one-hand.yaml"
    ruleset.write_text(
        "name: gin-one-hand\ntitle: Gin for one hand\nextends: gin\nplugins: [gin]\n"
        "players: {min: 2, max: 2}\nmax_hands: 1\n",
        encoding="utf-8",
    )
    assert main(["simulate", str(ruleset), "--games", "2", "--seed", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "Hand limit:     2 games ended at the hand limit (max_hands) before their end" in out


# -- 2. simulate fills every seat ----------------------------------------------------------------------


def test_simulate_fills_every_seat_with_the_default_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "500-rum", "--players", "4", "--games", "2", "--seed", "1", "--quiet"]) == 0
    assert "Player 4 (greedy)" in capsys.readouterr().out
    for name, seats in (("gin-3", 3), ("persian", 4), ("gin-partnership", 4)):
        assert main(["simulate", name, "--games", "1", "--seed", "1", "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["players"] == seats and data["bots"] == ["greedy"] * seats and data["games"] == 1
    assert simulate("gin-3", games=1, seed=1).players == 3


# -- 3. one meaning of observation()["table"] --------------------------------------------------------------


@pytest.mark.parametrize("name", [info.name for info in rummykit.list_variants() if info.package == "rummykit"])
def test_table_is_the_table_melds_in_every_variant(name: str) -> None:
    game = rummykit.load_variant(name).new_game(seed=4)
    bots = make_bots(["greedy"], game.num_players, 4)
    for _ in range(60):
        for seat in game.deal.seats:
            table = game.observation(seat)["table"]
            assert isinstance(table, list)
            assert all(set(meld) >= {"cards", "owner"} for meld in table)
            assert len(table) == len(game.deal.table)
        describe_position(game, game.deal.current, TurnPrinter(lambda line: None, viewer=game.deal.current))
        game.apply(bots[game.deal.current].choose(game))


def test_gin_partnership_names_its_seats_table_seats() -> None:
    game = rummykit.load_variant("gin-partnership").new_game(seed=2)
    view = game.observation(game.deal.current)
    assert view["table"] == [] and sorted(view["table_seats"]) == sorted(game.deal.seats)


# -- 4. output paths checked before playing ---------------------------------------------------------------


# /proc and /sys refuse new files, even to root, whom os.access answers yes for any folder.
@pytest.mark.parametrize(
    "where", ["missing/game.json", ".", "/dev/full", "pipe", "", "/proc/game.json", "/sys/game.json"]
)
def test_a_bad_save_path_is_refused_before_the_game(where: str, tmp_path: Path) -> None:
    if where.startswith(("/proc", "/sys")) and not Path(where).parent.is_dir():
        pytest.skip(f"no {Path(where).parent} here")
    target = str(tmp_path / where) if where else ""
    if where == "pipe":
        os.mkfifo(target)  # a write would block until someone reads it
    result = run("play", "gin", "--bots", "greedy", "--seed", "1", "--save", target)
    assert result.returncode == 2
    assert result.stdout == ""  # no game was played
    said = f"rummykit: --save {target}: " if target else "rummykit: --save: the file name is empty; name a file"
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith(said)
    assert "folder" not in result.stderr or where in ("missing/game.json", ".")


def test_checking_a_save_path_leaves_no_file_and_changes_none(tmp_path: Path) -> None:
    from rummykit.cli import check_output_folder, check_output_path

    check_output_path(str(tmp_path / "new.json"))
    check_output_folder(str(tmp_path / "reports"), "--report")
    kept = tmp_path / "kept.json"
    kept.write_text("the game before", encoding="utf-8")
    os.utime(kept, ns=(10**18, 10**18))
    check_output_path(str(kept))
    # A link to a file not made yet is accepted (the game is written through it), and nothing is made.
    (tmp_path / "link.json").symlink_to(tmp_path / "later.json")
    check_output_path(str(tmp_path / "link.json"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.json", "link.json"]
    assert kept.read_text(encoding="utf-8") == "the game before" and kept.stat().st_mtime_ns == 10**18


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="no /proc here")
def test_a_report_folder_the_system_refuses_is_refused_before_any_game() -> None:
    result = run("compare", "gin", "--games", "2", "--report", "/proc/rummykit-reports")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("rummykit: --report /proc/rummykit-reports: cannot write there (")


def test_a_game_resumed_from_a_pipe_is_refused_naming_resume() -> None:
    result = run("play", "--resume", "/dev/stdin", stdin="{}")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (
        "rummykit: --resume /dev/stdin: not a regular file (a device, pipe or socket); "
        "name a file to save the game to with --save\n"
    )


# -- 6. the small things ------------------------------------------------------------------------------------


def test_a_bare_draw_at_the_upcard_offer() -> None:
    game = rummykit.load_variant("gin").new_game(seed=3)
    assert game.deal.phase == "offer"
    with pytest.raises(rummykit.IllegalAction) as info:
        game.apply("draw")
    assert "drawn already" not in str(info.value) and "take it ('draw discard') or 'pass'" in str(info.value)
    out: list[str] = []
    lines = iter(["draw", "quit"])
    play_interactive(game, game.deal.current, [None, None], lambda prompt: next(lines), out.append)
    assert any(re.match(r"  You take \w\w from the discard pile", line) for line in out), out


@pytest.mark.parametrize("typed", ["draw\u00a0discard", "draw\tdiscard"])
def test_a_pasted_space_or_a_tab_is_no_control_character(typed: str) -> None:
    game = rummykit.load_variant("gin").new_game(seed=3)
    out: list[str] = []
    lines = iter([typed, "\x1b[A", "quit"])
    play_interactive(game, game.deal.current, [None, None], lambda prompt: next(lines), out.append)
    assert any(re.match(r"  You take \w\w from the discard pile", line) for line in out), out
    assert sum("control character" in line for line in out) == 1  # the arrow key's line only


@pytest.mark.parametrize("house_rules", [(), ("big-gin",)])
def test_gin_typed_is_not_told_of_big_gin_unless_it_is_played(house_rules: tuple[str, ...]) -> None:
    game = rummykit.load_variant("gin", house_rules).new_game(seed=3)
    out: list[str] = []
    lines = iter(["gin", "quit"])
    play_interactive(game, game.deal.current, [None, None], lambda prompt: next(lines), out.append)
    told = [line for line in out if line.startswith("gin ") or line.startswith("Did you mean")]
    assert len(told) == 1 and told[0].startswith("Did you mean 'big gin'?") == bool(house_rules), told


def test_player_counts_are_checked_and_worded(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "gin", "--players", "0", "--bots", "greedy"]) == 2
    assert capsys.readouterr().err == "rummykit: gin is for 2 players, not 0\n"
    assert main(["play", "gin", "--players", "0"]) == 2
    assert capsys.readouterr().err == "rummykit: gin is for 2 players, not 0\n"
    with pytest.raises(ValueError, match="^500-rum is for 2 to 6 players, not 7$"):
        rummykit.load_variant("500-rum").new_game(players=7)


def test_undercut_names_the_player_who_undercut() -> None:
    game = play_game("gin", 21, max_hands=1)
    result = game.results[0]
    assert result.kind == "undercut" and result.winner != result.details["knocker"]
    head = TurnPrinter(lambda line: None).result_lines(game, None, result)[0]
    assert head.startswith(f"-- Deal 1 ends: undercut by Player {result.winner + 1} (Player 1 knocked).")


def test_layoffs_name_the_meld_not_its_number() -> None:
    game = play_game("gin", 6, max_hands=1)
    lines = TurnPrinter(lambda line: None).result_lines(game, None, game.results[0])
    assert "   Laid off: 4H on [TC TH TS]" not in lines  # the knocker is seat 1 here
    laid = [line for line in lines if line.startswith("   Laid off:")]
    assert laid == ["   Laid off: 4H on [4C 4D 4S]"]  # the meld as the knocker laid it
    knocker = next(line for line in lines if "(knocker" in line)
    assert "[4C 4D 4S]" in knocker and "4H" not in knocker  # the 4H was the other player's


def test_the_legal_list_wraps_between_actions() -> None:
    game = rummykit.load_variant("500-rum").new_game(players=2, seed=12)
    game.apply("draw stock")
    lines = _legal_lines(game)
    legal = {str(action) for action in game.legal_actions()}
    assert len(lines) > 3  # long enough to wrap
    listed = [a.strip() for line in lines[:-2] for a in line.removeprefix("Legal now:").split(",") if a.strip()]
    assert set(listed) == legal


def test_house_rules_as_one_string() -> None:
    assert rummykit.load_variant("gin", house_rules="modern").house_rules == ("modern",)


def test_summary_is_not_inherited_through_extends(tmp_path: Path) -> None:
    child = tmp_path / "gin-to-250.yaml"
    child.write_text(
        "name: gin-to-250\ntitle: Gin to 250\nextends: gin\nplugins: [gin]\nplayers: {min: 2, max: 2}\ntarget: 250\n",
        encoding="utf-8",
    )
    assert rummykit.load_variant("gin").summary
    assert rummykit.load_variant(str(child)).summary == ""


# -- 7. the terminal game ------------------------------------------------------------------------------------


def _human(game: Game, script: list[str]) -> tuple[list[str], list[str]]:
    """Play ``game`` with the person in seat 0 typing ``script`` (then quitting); returns (prompts, output)."""
    prompts: list[str] = []
    out: list[str] = []
    lines = iter(script)

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(lines, "quit")

    bots = list(make_bots(["greedy"], game.num_players, 1))
    play_interactive(game, 0, [None, *bots[1:]], read, out.append)
    return prompts, out


def test_short_forms() -> None:
    game = rummykit.load_variant("gin").new_game(seed=3)  # seat 0 deals: seat 1 is offered the upcard first
    assert game.deal.phase == "offer"
    upcard = game.deal.discard[-1]
    _, out = _human(game, ["p", "draw discard"])
    # at the upcard offer 'p' could mean 'pass' as well as the pile: it is refused, the game unchanged
    assert "'p' could mean 'pass' or the pile ('draw discard'): type the one you mean in full." in out
    assert not any("p (draw discard)" in line for line in out), out
    assert f"  You take {upcard} from the discard pile" in out
    hand = game.deal.hands[0]
    throw = next(c for c in hand if c != upcard)
    _, out = _human(game, [f"d {throw}"])
    assert f"  You discard {throw}" in out
    assert game.deal.current == 0 and game.deal.phase == "draw"
    _, out = _human(game, ["s"])
    assert any(line.startswith("  You draw ") and "from the stock" in line for line in out), out


def test_did_you_mean_and_rules() -> None:
    game = rummykit.load_variant("gin").new_game(seed=3)
    _, out = _human(game, ["dicard 2C", "hlep", "rules"])
    assert any(line.startswith("Did you mean 'discard 2C'?") for line in out), out
    assert any(line.startswith("Did you mean 'help'?") and "not allowed" not in line for line in out), out
    assert "Gin Rummy (gin)" in out and any("knock with 10 or less deadwood" in line for line in out)
    assert game.history == [["pass"]]  # nothing typed changed the game (seat 1 passed before)


def test_a_suggestion_that_is_not_legal_now_says_why() -> None:
    game = rummykit.load_variant("gin").new_game(seed=3)
    _, out = _human(game, ["discard 9Z", "discrd 2C", "knock 2Z"])
    assert not any("Did you mean 'discard'?" in line or "Did you mean 'knock'?" in line for line in out), out
    assert sum(line.startswith("'9Z' is not a card") or line.startswith("'2Z' is not a card") for line in out) == 2
    # a verb of the game, mistyped, in a phase that does not allow it: the reason comes with the suggestion
    assert any(line.startswith("Did you mean 'discard 2C'? discard 2C is not allowed: ") for line in out), out
    assert game.history == [["pass"]]


def test_a_mistyped_word_of_a_longer_verb_is_suggested() -> None:
    from rummykit.actions import position_words
    from rummykit.cli import did_you_mean

    game = rummykit.load_variant("fortune").new_game(seed=2)
    assert "take pile with" in {a.kind for a in game.legal_actions()} | set(
        position_words(game.deal, game.deal.actor).verbs
    )
    assert did_you_mean(game, "take pile wth JS QS") == "take pile with JS QS"
    assert did_you_mean(game, "discard 9Z") is None  # the verb is right; the card is the problem


def test_skarney_says_a_turn_ends_with_an_offer() -> None:
    game = rummykit.load_variant("skarney").new_game(seed=7)
    while game.deal.actor != 0 or game.deal.phase == "draw" or not any(a.kind == "offer" for a in game.legal_actions()):
        game.apply(GreedyBot(1).choose(game))
    card = game.deal.hands[0][0]
    with pytest.raises(rummykit.IllegalAction, match=f"a turn ends with an offer to the other players: 'offer {card}'"):
        game.apply(f"discard {card}")


def _greedy_reader(game: Game, log: list[str]) -> Callable[[str], str]:
    """A person who plays as the greedy bot, for two hands; each prompt goes to ``log`` as ``<prompt>``."""
    me = GreedyBot(seed=0)

    def read(prompt: str) -> str:
        log.append(f"<{prompt}>")
        if len(game.results) >= 2:
            raise EOFError
        return "" if prompt.startswith("(press Enter") else str(me.choose(game))

    return read


def test_a_pause_after_each_settlement_when_asked() -> None:
    bots = list(make_bots(["greedy"], 2, 5))
    game = rummykit.load_variant("gin").new_game(seed=5)
    log: list[str] = []
    play_interactive(game, 0, [None, bots[1]], _greedy_reader(game, log), log.append, pause=True)
    ends = next(i for i, line in enumerate(log) if line.startswith("-- Deal 1 ends"))
    pause = log.index("<(press Enter for the next deal) >")
    header = next(i for i, line in enumerate(log) if line.startswith("== Deal 2:"))
    assert ends < pause < header
    # Without the pause nothing waits between the deals.
    game = rummykit.load_variant("gin").new_game(seed=5)
    log = []
    play_interactive(game, 0, [None, bots[1]], _greedy_reader(game, log), log.append)
    assert len(game.results) >= 1 and not any("press Enter" in line for line in log)


@pytest.mark.parametrize("answer", ["quit", "q", None])  # None: the end of input (Ctrl-D)
def test_quit_at_the_pause_leaves_the_game(answer: str | None) -> None:
    bots = list(make_bots(["greedy"], 2, 5))
    game = rummykit.load_variant("gin").new_game(seed=5)
    log: list[str] = []
    greedy = _greedy_reader(game, log)

    def read(prompt: str) -> str:
        if prompt.startswith("(press Enter"):
            log.append(f"<{prompt}>")
            if answer is None:
                raise EOFError
            return answer
        return greedy(prompt)

    assert play_interactive(game, 0, [None, bots[1]], read, log.append, pause=True) is False
    pause = log.index("<(press Enter for the next deal) >")
    assert log[pause + 1 :] == ["You leave the game."]  # no next deal shown, no second question
    assert len(game.results) == 1


def test_max_hands_stops_before_the_next_deal_is_shown() -> None:
    bots = list(make_bots(["greedy"], 2, 5))
    game = rummykit.load_variant("gin").new_game(seed=5)
    log: list[str] = []
    printer = TurnPrinter(log.append, viewer=0, show_hands=False)
    printer.stop_after = 1
    assert play_interactive(game, 0, [None, bots[1]], _greedy_reader(game, log), log.append, printer) is False
    assert len(game.results) == 1 and any(line.startswith("-- Deal 1 ends") for line in log)
    assert not any(line.startswith("== Deal 2") for line in log)
    after = log[next(i for i, line in enumerate(log) if line.startswith("-- Deal 1 ends")) :]
    assert not [line for line in after if line.startswith("  ") and not line.startswith("   ")]  # no bot's move


def _first_deal_moves(seed: int) -> list[str]:
    """What a greedy person in seat 0 types through the first deal of ``rummykit play gin --seed SEED``."""
    game = rummykit.load_variant("gin").new_game(players=2, seed=seed)
    bots = make_bots(["greedy"], 2, seed)
    me = GreedyBot(seed=0)
    moves = []
    while len(game.results) < 1:
        if game.deal.current == 0:
            action = me.choose(game)
            moves.append(str(action))
        else:
            action = bots[1].choose(game)
        game.apply(action)
    return moves


def test_no_pause_without_a_terminal() -> None:
    moves = _first_deal_moves(5)
    result = run("play", "gin", "--seed", "5", stdin="\n".join(moves) + "\nquit\n")
    assert result.returncode == 0, result.stderr
    assert "-- Deal 1 ends" in result.stdout and "== Deal 2" in result.stdout
    assert "press Enter" not in result.stdout


def test_bots_only_never_wait_for_input() -> None:
    process = subprocess.Popen(
        [str(SCRIPT), "play", "gin", "--bots", "greedy", "--seed", "5"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    out, err = process.communicate(timeout=120)  # stdin stays open until the game is over
    assert process.returncode == 0 and "== Game over" in out and err == ""


def test_resume_a_saved_game(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    moves = _first_deal_moves(5)
    first = run("play", "gin", "--seed", "5", "--save", str(record), stdin="\n".join(moves[:2]) + "\nquit\n")
    assert first.returncode == 0 and f"Saved the game to {record}" in first.stdout
    saved = Game.from_json(record.read_text(encoding="utf-8"))
    again = run("play", "--resume", str(record), stdin="\n".join(moves[2:4]) + "\nquit\n")
    assert again.returncode == 0, again.stderr
    assert f"Saved the game to {record}" in again.stdout  # saved again, to the same file
    resumed = Game.from_json(record.read_text(encoding="utf-8"))
    assert resumed.seed == saved.seed == 5
    assert resumed.history[0][: len(saved.history[0])] == saved.history[0]
    assert sum(map(len, resumed.history)) > sum(map(len, saved.history))
    finished = tmp_path / "over.json"
    finished.write_text(play_game("gin", 5).to_json(), encoding="utf-8")
    over = run("play", "--resume", str(finished))
    assert over.returncode == 2 and "that game is over" in over.stderr
    assert run("play").returncode == 2


def test_replay_shows_a_game_stopped_at_its_hand_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = rummykit.load_variant("gin").new_game(seed=7, max_hands=2)
    while not game.is_over:
        first_action(game)
    record = tmp_path / "stuck.json"
    record.write_text(game.to_json(), encoding="utf-8")
    assert main(["replay", str(record)]) == 0
    out = capsys.readouterr().out
    assert "== Game over after 2 deals ==" in out and "reached its hand limit (2 hands)" in out


def test_a_game_of_a_fixed_number_of_hands_ends_by_its_rules_not_the_guard() -> None:
    variant = rummykit.load_variant("gin", options={"target": None, "max_hands": 2})
    game = variant.new_game(seed=1)
    bot = GreedyBot(1)
    while not game.is_over:
        game.apply(bot.choose(game))
    assert (game.end_reason, len(game.results)) == ("hands", 2)
    stopped = variant.new_game(seed=1, max_hands=1)
    while not stopped.is_over:
        stopped.apply(bot.choose(stopped))
    assert (stopped.end_reason, len(stopped.results)) == ("max-hands", 1)


def test_the_turn_view_shows_who_laid_off_and_what_wild_cards_stand_for() -> None:
    game = rummykit.load_variant("500-rum").new_game(seed=3)
    bots = [GreedyBot(1), GreedyBot(2)]

    def laid_off_by_another() -> bool:
        return any(tm.credits.get(c.id, tm.owner) != tm.owner for tm in game.deal.table for c in tm.meld.cards)

    while not (laid_off_by_another() and game.deal.actor == 0):
        game.apply(bots[game.deal.actor].choose(game))
    lines = describe_position(game, 0, TurnPrinter(lambda line: None, viewer=0))
    for tm, line in zip(game.deal.table, [line for line in lines if line.startswith("   Table meld")]):
        others = [c for c in tm.meld.cards if tm.credits.get(c.id, tm.owner) != tm.owner]
        credited = line.split(";", 1)[1] if ";" in line else ""
        assert all(str(c) in credited.split() for c in others) and bool(credited) == bool(others), line
    game = rummykit.load_variant("fortune").new_game(seed=2)
    while True:
        seat = game.deal.actor
        best = game.variant.arrange(game.deal.hands[seat])
        if any(game.variant.meld_search.is_wild(c) for m in best.melds for c in m.cards):
            break
        game.apply(bots[seat % 2].choose(game))
    shown = next(line for line in describe_position(game, seat, TurnPrinter(lambda line: None, viewer=seat))
                 if line.startswith("   Best arrangement"))  # fmt: skip
    assert "=" in shown.split("deadwood")[0], shown  # a wild card in a meld: "2H=9H"
