"""What people read: refusals that give the engine's reason, partnership Gin's tables and rounds, the rules of
the deal in Oklahoma Gin, simulations and comparisons of partnership games and of different games, counts in
the singular, legal moves in a card player's order, table melds numbered from 1 at the terminal and on the
page (records and the Python API keep their 0-based texts), and prearranged deals checked against the pack
the house rules make."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import rummykit
from rummykit import Game
from rummykit.bots import GreedyBot
from rummykit.cards import parse_card
from rummykit.cli import TurnPrinter, build_parser, describe_position, main, play_interactive, rules_lines
from rummykit.engine import IllegalAction
from rummykit.simulate import play_game, replay_record, simulate

# Skarney: seats 1-3 hold cards that make no meld.
FILLER = [
    "3C 5C 7C 9C JC KC 4D 6D 8D TD QD",
    "3H 5H 7H 9H JH KH 4S 6S 8S TS QS",
    "4C 6C 8C TC QC 3D 5D 7D 9D JD KD",
]
CONTRACT = "7H 7S 7D 8C 8D 8S 9H 9C JK"

# 500 Rum: seat 0 draws KH, melds three sevens and may lay the fourth off.
RUM_LAYOUT: dict[str, Any] = {
    "dealer": 1,
    "hands": [
        ["7H", "7S", "7D", "7C", "2C", "4D", "9S", "JH", "KC", "3S", "5D", "QD", "8H"],
        ["AS", "3C", "5C", "9D", "TH", "JC", "KD", "4S", "6H", "8S", "TC", "QS", "2H"],
    ],
    "discard": ["6C"],
    "stock": ["KH"],
}


def interactive(game: Game, typed: list[str], human: int = 0) -> str:
    """Play ``game`` with a person in seat ``human`` who types ``typed`` (then leaves), greedy bots elsewhere;
    everything the terminal showed."""
    script = iter([*typed, "quit"])
    lines: list[str] = []
    bots = [None if seat == human else GreedyBot(seat) for seat in range(game.num_players)]
    play_interactive(game, human, bots, lambda _prompt: next(script), lines.append)
    return "\n".join(lines)


def skarney(hand: str, stock: str = "4H", name: str = "skarney", house_rules: tuple[str, ...] = ()) -> Game:
    variant = rummykit.load_variant(name, house_rules=house_rules)
    layout = {"dealer": 3, "hands": [hand.split(), *[h.split() for h in FILLER]], "stock": stock.split()}
    return variant.new_game(players=4, seed=1, layout=layout)


# -- (a) a contract typed with '|' -----------------------------------------------------------------------------


def test_a_refused_contract_gets_the_engines_reason_not_a_complaint_about_the_bar() -> None:
    typed = "meld 8D 2C TD | 2D=TH JH QH | QS KS KS"
    game = skarney("8D 2C TD 2D JH QH QS KS KS 5H 6S")
    game.apply("draw stock")
    with pytest.raises(IllegalAction) as refused:
        game.resolve(typed)
    reason = str(refused.value).split(" is not allowed: ", 1)[1].split(". Legal now:")[0]
    out = interactive(game, [typed])
    assert "is not a card" not in out
    assert reason in out
    # A card that is no card is still named, whatever the bars around it.
    out = interactive(skarney("8D 2C TD 2D JH QH QS KS KS 5H 6S"), ["draw stock", "meld 8D 2C TZ | 2D=TH JH QH"])
    assert "'TZ' is not a card" in out
    out = interactive(skarney("8D 2C TD 2D JH QH QS KS KS 5H 6S"), ["draw stock", "meld 8D 2C TD|2D=TH JH QH|QS KS KS"])
    assert "is not a card" not in out and reason in out


def test_a_verb_typed_without_its_cards_gets_the_games_reason_not_a_complaint_about_a_word() -> None:
    game = rummykit.load_variant("fortune").new_game(seed=3)
    with pytest.raises(IllegalAction) as refused:
        game.resolve("take pile with")
    assert "the top card, 7D, must be melded with at least two cards from your hand" in str(refused.value)
    out = interactive(rummykit.load_variant("fortune").new_game(seed=3), ["take pile with"])
    assert "is not a card" not in out and "must be melded with at least two cards from your hand" in out


def test_draw_typed_after_the_draw_says_the_draw_is_done_not_which_pile() -> None:
    game = rummykit.load_variant("gin").new_game(seed=3)
    game.apply("pass")
    game.apply("pass")
    game.apply("draw stock")
    with pytest.raises(IllegalAction, match="draw is not allowed: you have drawn already this turn"):
        game.resolve("draw")
    before = rummykit.load_variant("gin").new_game(seed=3)
    before.apply("pass")
    before.apply("pass")
    with pytest.raises(IllegalAction, match="say which pile|say 'draw stock'"):
        before.resolve("draw")


# -- (b) Partnership Gin: two tables a round --------------------------------------------------------------------


def partnership_output(hands: int) -> str:
    lines: list[str] = []
    printer = TurnPrinter(lines.append, show_hands=True)
    game = play_game("gin-partnership", 1, ("greedy",), on_action=printer, on_start=printer.start, max_hands=hands)
    printer.game_end(game)
    return "\n".join(lines)


def test_partnership_gin_shows_the_two_tables_of_a_round_and_how_the_round_scores() -> None:
    game = play_game("gin-partnership", 1, ("greedy",), max_hands=2)
    first, second = game.results
    assert (first.winner, second.winner) == (1, 3)  # this seed: Player 2 and Player 4, partners, win both tables
    first_points = first.details["table_points"][1]
    second_points = second.details["table_points"][3]
    out = partnership_output(2)
    assert "Deal 1" not in out and "Deal 2" not in out
    assert "== Round 1, table 1 (Player 1 vs Player 2): Player 2 deals ==" in out
    assert "== Round 1, table 2 (Player 3 vs Player 4): Player 4 deals ==" in out
    assert (
        f"-- Round 1, table 1 (Player 1 vs Player 2) ends: knock by Player 2. Player 2 wins the table: "
        f"{first_points} points." in out
    )
    assert (
        f"-- Round 1, table 2 (Player 3 vs Player 4) ends: knock by Player 4. Player 4 wins the table: "
        f"{second_points} points." in out
    )
    assert "Nobody scores" not in out  # each table was won by someone
    total = first_points + second_points
    assert (
        f"   Round 1: Player 2 won table 1 ({first_points} points), Player 4 won table 2 ({second_points} points): "
        f"Player 2 & Player 4 won both tables and score {first_points} + {second_points} = {total}." in out
    )
    assert f"Sides: Player 1 & Player 3 0, Player 2 & Player 4 {total}" in out
    assert "   Round 1 is scored when its other table ends." in out
    assert "== Stopped after 1 round (2 deals): the game is not over ==" in out


def test_partnership_gin_one_table_each_scores_the_difference() -> None:
    game = play_game("gin-partnership", 1, ("greedy",), max_hands=40)
    split = next(
        r
        for r in game.results
        if r.details.get("round_done") and len({w % 2 for w, _ in r.details["round_games"]}) == 2
    )
    (w1, p1), (w2, p2) = split.details["round_games"]
    out = partnership_output(split.number)
    names = {0: "Player 1 & Player 3", 1: "Player 2 & Player 4"}
    if p1 == p2:
        assert "one table each, with equal points, so nobody scores." in out
    else:
        high, low, side = (p1, p2, w1 % 2) if p1 > p2 else (p2, p1, w2 % 2)
        assert f"one table each, so {names[side]} score the difference, {high} - {low} = {high - low}." in out
    # The person playing sees their own table named for them.
    seen = interactive(rummykit.load_variant("gin-partnership").new_game(seed=1), [])
    assert "== Round 1, table 1 (You vs Player 2): Player 2 deals ==" in seen
    assert "-- Your turn (round 1, table 1: You vs Player 2)" in seen


# -- (c) Oklahoma Gin's rules ---------------------------------------------------------------------------------


def test_oklahoma_rules_say_the_upcard_sets_the_knock_limit_and_give_this_deals() -> None:
    layout = {
        "dealer": 1,
        "hands": ["7S 7H 7D 9C TC JC 3H 4H 5H 8D", "2S 3S 4S QD QH QC 8C KH 5D TS"],
        "discard": ["6D"],
    }
    game = rummykit.load_variant("oklahoma-gin").new_game(seed=1, layout=layout)
    text = "\n".join(rules_lines(game.variant, game))
    assert "Knock limit: 10" not in text
    assert "This deal: Knock limit: 6 (the upcard's value)" in text, text
    out = interactive(game, ["rules"])
    assert "This deal: Knock limit: 6 (the upcard's value)" in out and "Knock limit: 10" not in out
    # Plain Gin: the limit is the ruleset's.
    gin = rummykit.load_variant("gin").new_game(seed=1)
    assert "This deal: Knock limit: 10" in "\n".join(rules_lines(gin.variant, gin))


# -- (d) simulate and compare -----------------------------------------------------------------------------------


def test_a_partnership_simulation_reports_per_side(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "gin-partnership", "--games", "3", "--seed", "1", "--max-hands", "6"]) == 0
    lines = capsys.readouterr().out.splitlines()
    teams = "Player 1 (greedy) & Player 3 (greedy) {}, Player 2 (greedy) & Player 4 (greedy) {}"
    average = next(line for line in lines if line.startswith("Average score:"))
    assert re.fullmatch(r"Average score: +" + re.escape(teams).replace(r"\{\}", r"-?\d+\.\d"), average), average
    assert main(["simulate", "gin-partnership", "--games", "3", "--seed", "1", "--max-hands", "6", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sides"] == [[0, 2], [1, 3]]
    assert len(data["wins"]) == 2 and len(data["average_scores"]) == 2
    result = simulate("gin-partnership", 3, 1, max_hands=6)
    assert data["wins"] == result.side_wins and sum(result.side_wins) == sum(result.wins)
    assert data["average_scores"] == [round(a, 3) for a in result.side_average_scores]
    assert result.side_average_scores == [
        (result.total_scores[0] + result.total_scores[2]) / 3,
        (result.total_scores[1] + result.total_scores[3]) / 3,
    ]
    # Without partners the numbers stay per seat.
    assert main(["simulate", "gin", "--games", "2", "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert "sides" not in plain and len(plain["wins"]) == 2


def test_simulate_max_hands_ends_each_game_at_that_hand(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "gin", "--games", "3", "--seed", "2", "--max-hands", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hands"] == 3 and data["max_hands_games"] == 3 and data["max_hands"] == 1
    assert main(["simulate", "gin", "--games", "3", "--seed", "2", "--max-hands", "1"]) == 0
    assert "Hand limit:     3 games ended at their hand limit (1 hand) before their end" in capsys.readouterr().out
    assert main(["simulate", "gin", "--games", "3", "--max-hands", "0"]) == 2
    assert "--max-hands is from 1 to 10,000, not 0" in capsys.readouterr().err


def test_simulate_refuses_zero_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "gin", "--games", "0"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "--games is 1 or more" in captured.err


def test_compare_help_shows_percent_once(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    out = capsys.readouterr().out
    assert "%%" not in " ".join(out.split()) and "95 %" in " ".join(out.split())
    assert "--backend" in out and "--ray-address" in out


def test_comparing_different_games_says_so_and_tests_unpaired(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "gin", "500-rum", "--games", "6", "--seed", "1", "--quiet"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "500-rum does not deal the games as gin does (a different game" in out, out
    assert "tested unpaired" in out
    assert main(["compare", "gin", "500-rum", "--games", "6", "--seed", "1", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["same_deals"] == [True, False]
    assert {row["configs"][1]["difference"]["test"] for row in summary["measures"]} == {"unpaired"}
    # Oklahoma Gin deals as Gin does: the same deals, a paired test.
    assert main(["compare", "gin", "oklahoma-gin", "gin+modern", "--games", "6", "--seed", "1", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["same_deals"] == [True, True, True]
    assert main(["compare", "gin", "gin+modern", "--games", "6", "--seed", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "unpaired" not in out and "(paired test, 5 %)" in out


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="the Ray backend needs ray")
@pytest.mark.timeout(600)
def test_compare_on_ray_gives_the_numbers_of_the_process_backend(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["compare", "gin", "gin+modern", "--games", "4", "--seed", "3", "--json"]
    assert main(args) == 0
    local = json.loads(capsys.readouterr().out)
    assert main([*args, "--backend", "ray", "--jobs", "2"]) == 0
    assert json.loads(capsys.readouterr().out) == local


def test_compare_refuses_a_ray_address_without_ray(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "gin", "gin+modern", "--games", "4", "--ray-address", "auto"]) == 2
    assert "--ray-address goes with --backend ray" in capsys.readouterr().err


# -- (e) counts, order, wild cards, singles, meld numbers, --help ------------------------------------------------


def test_a_hand_of_one_card_is_one_card() -> None:
    layout = {**RUM_LAYOUT, "hands": [RUM_LAYOUT["hands"][0], ["KD"]]}
    game = rummykit.load_variant("500-rum").new_game(seed=1, layout=layout)
    lines = describe_position(game, 0, TurnPrinter(lambda line: None, viewer=0))
    assert "   Player 2 holds 1 card" in lines
    assert "1 cards" not in "\n".join(lines)


def test_legal_moves_are_listed_by_suit_then_rank_within_each_verb() -> None:
    game = rummykit.load_variant("gin").new_game(seed=3)
    game.apply("pass")
    game.apply(game.legal_actions()[0])
    out = interactive(game, ["help"], human=game.current_player or 0)
    listed = " ".join(line for line in out.splitlines() if line.startswith(("Legal now:", "   ")))
    discards = re.findall(r"discard (\w\w)", listed.split("Legal now:", 1)[1])
    assert discards == sorted(discards, key=lambda c: parse_card(c).face) and len(discards) >= 10, discards


def test_a_refused_lay_off_names_what_the_wild_card_stands_for() -> None:
    game = skarney(CONTRACT + " 2C 4H", stock="KH 5S 5D 6H TH")
    game.apply("draw stock")
    game.apply("meld 7H 7S 7D | 8C 8D 8S | 9H 9C JK")
    game.apply("offer 4H")
    while game.current_player != 0 or game.deal.phase != "draw":
        legal = game.legal_actions()
        game.apply(next((a for a in legal if a.kind in ("decline", "draw stock")), None) or legal[-1])
    game.apply("draw stock")
    nines = next(i for i, tm in enumerate(game.deal.table) if "9C" in [str(c) for c in tm.meld.cards])
    sevens = next(i for i, tm in enumerate(game.deal.table) if "7D" in [str(c) for c in tm.meld.cards])
    for target in (nines, sevens):
        with pytest.raises(IllegalAction) as refused:
            game.resolve(f"layoff 2C=TD on {target}")
        reason = str(refused.value).split(" is not allowed: ", 1)[1].split(". Legal now:")[0]
        assert "2C=TD" in reason, reason


def test_skarney_singles_speaks_of_your_contract_not_your_sides() -> None:
    game = skarney("8D 2C TD 2D JH QH QS KS KS 5H 6S", name="skarney-singles")
    out = interactive(game, ["draw stock", "meld 8D 2C TD", "layoff 5H on 1"])
    assert "side" not in out.replace("sides", ""), out
    assert "Your contract: not yet" in out and "before your contract" in out
    partners = interactive(skarney("8D 2C TD 2D JH QH QS KS KS 5H 6S"), ["draw stock", "meld 8D 2C TD"])
    assert "Your side's contract: not yet" in partners and "before your side's contract" in partners


def test_table_melds_are_numbered_from_1_at_the_terminal_and_from_0_in_records() -> None:
    game = rummykit.load_variant("500-rum").new_game(seed=1, layout=RUM_LAYOUT)
    out = interactive(game, ["draw stock", "meld 7H 7S 7D", "help", "layoff 7C on 0", "layoff 7C on 2", "l 7C on 1"])
    assert "Table meld 1: 7D 7H 7S" in out and "Table meld 0" not in out
    assert "layoff 7C on 1" in out.split("Legal now:", 1)[1]
    assert "l 7C on 1 (layoff 7C on 1)" in out
    assert "melds are numbered from 1" in out  # 'on 0' names no meld at the terminal
    refused = next(line for line in out.splitlines() if line.startswith("layoff 7C on 2 is not allowed"))
    # The engine's 'meld 1', numbered for people; the legal actions as 'help' lists them.
    assert refused.startswith("layoff 7C on 2 is not allowed: there is no table meld 2. Legal now: layoff 7C on 1, ")
    assert "discard 2C, discard 7C, discard KC, discard 4D" in refused
    assert "You lay off 7C on meld 1" in out
    # What was played is the record's 0-based action, as the Python API writes it.
    assert game.history[0][-1] == "layoff 7C on 0"
    record = json.loads(game.to_json())
    assert record["actions"][0][-1] == "layoff 7C on 0"
    # A replay or a bot game shows lay-offs for people too.
    replay: list[str] = []
    printer = TurnPrinter(replay.append)
    replay_record(game.to_json(), on_start=printer.start, on_action=printer)
    assert any("lays off 7C on meld 1" in line for line in replay), replay


def test_the_command_describes_the_whole_family(capsys: pytest.CaptureFixture[str]) -> None:
    description = build_parser().description or ""
    assert "Gin Rummy and its family" not in description
    for game in ("Gin", "500 Rum", "Skarney", "Iceberg"):
        assert game in description, description


# -- (f) a prearranged deal against the pack the house rules make -----------------------------------------------


@pytest.mark.parametrize("where", ["hand", "stock"])
def test_a_layout_naming_a_card_the_house_rules_set_aside_is_refused(where: str) -> None:
    hands = [CONTRACT.split(), *[h.split() for h in FILLER]]
    layout: dict[str, Any] = {"dealer": 3, "hands": hands}
    if where == "stock":
        layout = {"dealer": 3, "hands": [CONTRACT.replace("JK", "9S").split(), *hands[1:]], "stock": ["JK"]}
    plain = rummykit.load_variant("skarney")
    plain.new_game(players=4, seed=1, layout=layout)  # with jokers, a joker is dealt as named
    without = rummykit.load_variant("skarney", house_rules=["no-jokers"])
    named = "hand 0" if where == "hand" else "stock"
    with pytest.raises(ValueError, match=rf"deal: {named} names JK, but .*no-jokers.*holds no JK"):
        without.new_game(players=4, seed=1, layout=layout)


# -- the web page ------------------------------------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@contextmanager
def _served() -> Iterator[str]:
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    from test_web import running  # the one helper that serves an app on 127.0.0.1 in a thread

    from rummykit.web.app import create_app

    with running(create_app()) as base:
        yield base


@pytest.fixture(scope="module")
def web_page() -> Iterator[tuple[Any, str]]:
    if CHROMIUM is None:
        pytest.skip("no chromium on this machine")
    sync_api = pytest.importorskip("playwright.sync_api")
    with _served() as base, sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 820})
        page.set_default_timeout(20_000)
        yield page, base
        browser.close()


def _open(page: Any, base: str, body: dict[str, Any]) -> None:
    from urllib.request import Request, urlopen

    request = Request(
        base + "/api/tables",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urlopen(request, timeout=60) as response:
        state = json.loads(response.read())
    seats = "".join(f"&seat{seat}={token}" for seat, token in state["tokens"].items())
    page.goto("about:blank")  # (a new address that differs only after '#' would not load the page again)
    page.goto(f"{base}/#t={state['id']}&owner={state['owner']}{seats}")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#hand .card")


@pytest.mark.xdist_group("web")
def test_the_page_sorts_moves_numbers_melds_from_1_and_counts_one_card(web_page: tuple[Any, str]) -> None:
    page, base = web_page
    layout = {**RUM_LAYOUT, "hands": [RUM_LAYOUT["hands"][0], ["KD"]]}
    _open(page, base, {"variant": "500-rum", "layout": layout, "seed": 1})
    assert "1 card" in page.inner_text("#opponents") and "1 cards" not in page.inner_text("#opponents")
    page.click("#actions button[data-action='draw stock']")
    page.wait_for_selector("#meld:not([hidden])")
    for card in ("7H", "7S", "7D"):
        page.click(f"#hand .card[data-card='{card}']")
    page.click("#meld")
    page.wait_for_selector("#melds .table-meld[data-meld='0']")
    assert page.inner_text("#melds .table-meld[data-meld='0'] .index") == "meld 1"
    button = page.locator("#actions button[data-action='layoff 7C on 0']")
    assert button.inner_text() == "layoff 7C on 1"
    sent = page.locator("#actions button").evaluate_all("nodes => nodes.map(n => n.dataset.action)")
    discards = [text.split()[1] for text in sent if text.startswith("discard ")]
    assert discards == sorted(discards, key=lambda c: parse_card(c).face) and len(discards) > 5, discards
    verbs = [text.split()[0] for text in sent]
    assert verbs == sorted(verbs, key=verbs.index), verbs  # each verb's moves together
    button.click()
    page.wait_for_function("() => document.querySelectorAll(\"#melds .table-meld[data-meld='0'] .card\").length == 4")
    assert "on meld 1" in page.inner_text("#log")


@pytest.mark.xdist_group("web")
def test_the_page_names_a_partnership_gin_deal_by_its_round_and_table(web_page: tuple[Any, str]) -> None:
    page, base = web_page
    _open(
        page,
        base,
        {"variant": "gin-partnership", "seed": 1, "players": 4, "bots": [None, "greedy", "greedy", "greedy"]},
    )
    assert "round 1, table 1" in page.inner_text("#title")
