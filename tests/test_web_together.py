"""Playing together in the browser: people in separate browser contexts (as on separate machines) at one
table of `rummykit serve`, through join links and the lobby, each page kept up to date by the table's live
view (server-sent events). Playwright drives Debian's chromium; skipped without it. The server keeps its
default rate limit on moves."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from test_web import running  # noqa: E402

from rummykit.web.app import create_app  # noqa: E402

pytestmark = pytest.mark.xdist_group("web")

# The cards a page shows outside the other seats' boxes (where cards they picked up from the pile are shown).
SHOWN_CARDS = """() => [...document.querySelectorAll('[data-card]')]
    .filter((node) => !node.closest('#opponents')).map((node) => node.dataset.card)"""
FACE = re.compile(r"\b(?:[2-9TJQKA][CDHS]|JK)\b")
HAND = "() => [...document.querySelectorAll('#hand .card')].map((node) => node.dataset.card).sort()"
# The page shows its seat's turn, with the given hand, and no request is under way.
READY_TO_ACT = """(hand) => !document.body.dataset.busy
    && (document.querySelectorAll('#actions button').length > 0 || !document.querySelector('#meld').hidden)
    && JSON.stringify([...document.querySelectorAll('#hand .card')].map((n) => n.dataset.card).sort())
       === JSON.stringify(hand)"""


@pytest.fixture(scope="module")
def app() -> Any:
    return create_app()  # the default rate limit on moves


@pytest.fixture(scope="module")
def server(app: Any) -> Iterator[str]:
    with running(app) as base:
        yield base


@pytest.fixture
def person(browser: Any, server: str) -> Iterator[Callable[[], Any]]:
    """Makes a page in a browser context of its own (a person on another machine); at the end, no page had a
    script error or fetched anything from elsewhere."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make() -> Any:
        context = browser.new_context(viewport={"width": 1280, "height": 820})
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("request", lambda r: errors.append(r.url) if not r.url.startswith((server, "about:")) else None)
        page.set_default_timeout(20_000)
        return page

    yield make
    for context in contexts:
        context.close()
    assert errors == []


def cards(hand: Any) -> list[str]:
    return sorted(str(card) for card in hand)


def create_in_page(
    page: Any, server: str, variant: str, seats: list[str], name: str, seed: int, listed: bool = False
) -> str:
    """The table made with the page's setup (``seats``: "" for a person, else a bot's name); its id."""
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#your-name", name)
    page.select_option("#variant", variant)
    page.fill("#seed", str(seed))
    page.fill("#players", str(len(seats)))
    page.press("#players", "Tab")  # its change event lays out the seats
    for seat, who in enumerate(seats):
        page.select_option(f"#seat-{seat}", who)
    if listed:
        page.check("#listed")
    page.click("#start")
    page.wait_for_selector("#hand .card")
    page.wait_for_selector("#invite .invite-row[data-onlooker]")
    page.evaluate("window.notReloaded = true")
    return str(page.evaluate("new URLSearchParams(location.hash.slice(1)).get('t')"))


def join_by_link(page: Any, link: str, name: str) -> None:
    page.goto(link)
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#join-box:not([hidden])")
    seat = int(link.rsplit("&seat", 1)[1].split("=")[0])
    assert page.inner_text("#join-text").startswith(f"Join seat {seat + 1} of ")
    page.fill("#join-name", name)
    page.click("#join-go")
    page.wait_for_selector("#hand .card")
    page.evaluate("window.notReloaded = true")
    token = link.rsplit("=", 1)[1]
    hash_now = page.evaluate("location.hash")
    assert f"seat{seat}=" in hash_now and token not in hash_now  # the page's address holds the new token


def invite_link(page: Any, seat: int) -> str:
    return str(page.input_value(f"#invite .invite-row[data-seat='{seat}'] input"))


def choose(page: Any, texts: list[str], rng: random.Random) -> str:
    """A move among the buttons shown, that brings the hand to its end: going out first, then lay-offs, then
    drawing from the stock and discarding."""
    for start in ("gin", "knock", "go out"):
        ender = next((t for t in texts if t.startswith(start)), None)
        if ender:
            return ender
    layoffs = [t for t in texts if t.startswith("layoff")]
    if layoffs:
        return layoffs[0]
    if "draw stock" in texts:
        return "draw stock"
    discards = [t for t in texts if t.startswith("discard")]
    return rng.choice(discards or texts)


def play_hand(
    app: Any,
    table_id: str,
    pages: dict[int, Any],
    onlookers: tuple[Any, ...] = (),
    max_clicks: int = 400,
    seed: int = 1,
    away: frozenset[int] = frozenset(),
) -> int:
    """The people of ``pages`` (seat -> page) click the moves their pages offer, each when its page shows its
    turn, until the first hand ends (or ``max_clicks``); the clicks made. Before every click, each page is
    checked against the server: its hand is its seat's, and no card of another hand is anywhere in it (the
    pages of the seats ``away`` are not: they are offline or elsewhere)."""
    table = app.state.tables.tables[table_id]
    rng = random.Random(seed)
    clicks = 0
    while clicks < max_clicks and not table.game.results and not table.game.is_over:
        game = table.game
        actor = game.current_player
        if actor not in pages:  # a bot's turn: it moves on the server
            time.sleep(0.05)
            continue
        page = pages[actor]
        hand = cards(game.deal.hands[actor])
        page.wait_for_function(READY_TO_ACT, arg=hand)
        here = {seat: other for seat, other in pages.items() if seat not in away}
        for seat, other in here.items():  # nobody else moves now: every page shows its seat's hand
            other.wait_for_function(f"(hand) => JSON.stringify(({HAND})()) === JSON.stringify(hand)",
                                    arg=cards(game.deal.hands[seat]))  # fmt: skip
        one_deck = len({str(c) for h in game.deal.hands for c in h}) == sum(len(h) for h in game.deal.hands)
        for seat, other in [*here.items(), *((None, o) for o in onlookers)]:
            shown = {card.split("=")[0] for card in other.evaluate(SHOWN_CARDS)}
            view = game.observation(seat)
            if seat is None:
                view.pop("hand", None)
            assert shown <= set(FACE.findall(json.dumps(view))), seat  # nothing the seat may not see
            for holder in range(game.num_players):
                if holder != seat and one_deck:  # (two decks: a card of another hand may be seen by its twin)
                    assert not shown & set(cards(game.deal.hands[holder])), (seat, holder)
        texts = page.eval_on_selector_all("#actions button", "(nodes) => nodes.map((n) => n.dataset.action)")
        if texts:
            page.click(f"#actions button[data-action='{choose(page, texts, rng)}']")
        else:  # only a meld may be made: select its cards, then Meld
            meld = next(str(a) for a in game.legal_actions() if str(a).startswith("meld "))
            for card in meld.split()[1:]:
                page.click(f"#hand .card[data-card='{card.split('=')[0]}']")
            page.click("#meld")
        page.wait_for_selector("body:not([data-busy])", state="attached")
        assert page.locator("#error").is_hidden(), page.inner_text("#error")
        clicks += 1
    return clicks


def settled(pages: list[Any]) -> None:
    """Every page shows the settlement of the first hand, and was never reloaded (it was kept up live)."""
    for page in pages:
        page.wait_for_selector("#settlement", state="visible")
        assert "Deal 1 ends" in page.inner_text("#settlement-lines")
        assert page.evaluate("window.notReloaded") is True


def test_two_people_play_a_whole_gin_hand_through_a_join_link(person: Callable[[], Any], server: str, app: Any) -> None:
    ann, bea = person(), person()
    table_id = create_in_page(ann, server, "gin", ["", ""], "Ann", seed=11)
    link = invite_link(ann, 1)
    # The page was opened at 127.0.0.1: the panel says such links reach this machine only.
    assert "only this machine reaches" in ann.inner_text("#invite .invite-warning")
    assert link.startswith(f"{server}/#t={table_id}&seat1=")
    assert ann.locator("#invite .invite-row[data-seat='0']").count() == 0  # Ann took seat 1 herself
    join_by_link(bea, link, "Bea")
    # Ann's page sees Bea arrive, and no longer offers (nor holds) seat 2's link: it was used.
    ann.wait_for_function(
        "() => document.querySelector(\"#opponents .seat[data-seat='1']\")?.textContent.includes('Bea')"
    )
    ann.wait_for_function("() => !document.querySelector(\"#invite .invite-row[data-seat='1']\")")
    assert "seat1=" not in ann.evaluate("location.hash")
    assert "Ann" in bea.inner_text("#opponents")
    # The link served once: opened again, it says so and offers to watch.
    late = person()
    late.goto(link)
    late.wait_for_selector("#join-box:not([hidden])")
    assert "no longer works" in late.inner_text("#join-text") and late.locator("#join-error").is_visible()
    late.click("#join-watch")
    late.wait_for_selector("#table:not([hidden])")
    assert late.locator("#hand .card").count() == 0
    late.close()
    clicks = play_hand(app, table_id, {0: ann, 1: bea})
    assert clicks > 4
    settled([ann, bea])


def test_two_people_play_a_500_rum_hand_while_an_onlooker_watches(
    person: Callable[[], Any], server: str, app: Any
) -> None:
    ann, bea, onlooker = person(), person(), person()
    table_id = create_in_page(ann, server, "500-rum", ["", ""], "Ann", seed=3)
    watch_link = ann.input_value("#invite .invite-row[data-onlooker] input")
    assert watch_link == f"{server}/#t={table_id}"
    join_by_link(bea, invite_link(ann, 1), "Bea")
    onlooker.goto(watch_link)
    onlooker.wait_for_selector("#table:not([hidden])")
    onlooker.evaluate("window.notReloaded = true")
    table = app.state.tables.tables[table_id]
    done = 0
    for _ in range(40):  # a few moves at a time; the onlooker's list of moves follows each time
        done += play_hand(app, table_id, {0: ann, 1: bea}, (onlooker,), max_clicks=5, seed=done)
        moves = min(len(table.log), 60)
        onlooker.wait_for_function(f"() => document.querySelectorAll('#log li').length === {moves}")
        assert onlooker.locator("#hand .card").count() == 0  # an onlooker sees no hand
        if table.game.results:
            break
    assert table.game.results and done > 4
    settled([ann, bea, onlooker])


def test_two_people_and_a_bot_play_fortune(person: Callable[[], Any], server: str, app: Any) -> None:
    ann, bea = person(), person()
    table_id = create_in_page(ann, server, "fortune", ["", "", "greedy"], "Ann", seed=5)
    join_by_link(bea, invite_link(ann, 1), "Bea")
    assert ann.locator("#invite .invite-row[data-seat='2']").count() == 0  # the bot's seat is nobody's to join
    clicks = play_hand(app, table_id, {0: ann, 1: bea}, max_clicks=400)
    table = app.state.tables.tables[table_id]
    assert clicks >= 4 and (table.game.results or clicks == 400)
    people = {entry["seat"] for entry in table.log if not entry["action"].startswith("auto")}
    assert {0, 1, 2} <= people  # both people and the bot moved
    if table.game.results:
        settled([ann, bea])


def test_the_lobby_lists_a_table_and_a_stranger_joins_a_free_seat(
    person: Callable[[], Any], server: str, app: Any
) -> None:
    ann, bob = person(), person()
    table_id = create_in_page(ann, server, "gin", ["", ""], "Ann", seed=21, listed=True)
    bob.goto(server + "/")
    bob.wait_for_selector("body[data-ready='1']")
    bob.fill("#your-name", "Bob")
    entry = f".lobby-table[data-table='{table_id}']"
    bob.wait_for_selector(entry)
    assert "Gin" in bob.inner_text(f"{entry} .lobby-title") and "1 free seat" in bob.inner_text(entry)
    assert "Ann" in bob.inner_text(f"{entry} li[data-seat='0']")
    assert bob.locator(f"{entry} li[data-seat='0'] .lobby-join").count() == 0
    bob.click(f"{entry} li[data-seat='1'] .lobby-join")
    bob.wait_for_selector("#hand .card")
    assert table_id in bob.evaluate("location.hash") and "seat1=" in bob.evaluate("location.hash")
    ann.wait_for_function(
        "() => document.querySelector(\"#opponents .seat[data-seat='1']\")?.textContent.includes('Bob')"
    )
    ann.wait_for_function("() => !document.querySelector(\"#invite .invite-row[data-seat='1']\")")
    assert app.state.tables.tables[table_id].seats[1].name == "Bob"
    # A table with no free seat left is no longer offered a join.
    bob.click("#new-game")
    bob.wait_for_function(f'() => !document.querySelector("{entry}") || !document.querySelector("{entry} .lobby-join")')


def test_a_page_whose_live_view_drops_catches_up(person: Callable[[], Any], server: str, app: Any) -> None:
    ann, bea = person(), person()
    table_id = create_in_page(ann, server, "gin", ["", ""], "Ann", seed=31)
    join_by_link(bea, invite_link(ann, 1), "Bea")
    table = app.state.tables.tables[table_id]
    streams: list[str] = []
    bea.on("request", lambda r: streams.append(r.url) if r.url.endswith("/events") else None)
    pages = {0: ann, 1: bea}

    def moves_until(seat: int, away: frozenset[int] = frozenset()) -> None:  # until ``seat``'s turn, a move made
        before = len(table.log)
        while table.game.current_player != seat or len(table.log) == before:
            assert not table.game.results
            play_hand(app, table_id, pages, max_clicks=1, seed=len(table.log), away=away)

    # Offline: Ann moves meanwhile; back online, Bea's page shows those moves (its live view opened again).
    moves_until(0)
    bea.context.set_offline(True)
    moves_until(1, away=frozenset({1}))
    bea.context.set_offline(False)
    bea.wait_for_function(READY_TO_ACT, arg=cards(table.game.deal.hands[1]))
    bea.wait_for_function(f"() => document.querySelectorAll('#log li').length === {min(len(table.log), 60)}")
    assert len(streams) >= 1
    # The connection drops (cut from the page's side, as a network would): it is opened again and catches up.
    moves_until(0)
    bea.wait_for_selector("body[data-live='1']")
    opened = len(streams)
    bea.evaluate("liveAbort.abort()")
    moves_until(1, away=frozenset({1}))
    bea.wait_for_function(READY_TO_ACT, arg=cards(table.game.deal.hands[1]))
    bea.wait_for_function(f"() => document.querySelectorAll('#log li').length === {min(len(table.log), 60)}")
    assert len(streams) > opened
    # Away from the page: it comes back from its own address (with the seat's token) and catches up.
    moves_until(0)
    bea.goto("about:blank")
    moves_until(1, away=frozenset({1}))
    bea.go_back()
    bea.wait_for_selector("body[data-ready='1']")
    assert bea.locator("#join-box").is_hidden()  # its own seat, not a join link
    bea.wait_for_function(READY_TO_ACT, arg=cards(table.game.deal.hands[1]))
    bea.wait_for_function(f"() => document.querySelectorAll('#log li').length === {min(len(table.log), 60)}")
    assert "Bea" in app.state.tables.tables[table_id].game.names


def test_the_creator_gives_a_seat_nobody_took_to_a_bot_and_never_sees_its_hand(
    person: Callable[[], Any], server: str, app: Any
) -> None:
    ann = person()
    table_id = create_in_page(ann, server, "gin", ["", ""], "Ann", seed=11)
    game = app.state.tables.tables[table_id].game
    # The invited seat is not played at this screen: its hand is never in the page, even on its turn.
    assert int(ann.evaluate("document.body.dataset.seat")) == 0
    hidden = set(cards(game.deal.hands[1]))
    assert not hidden & set(ann.locator("#hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)"))
    link = invite_link(ann, 1)
    ann.click("#invite .invite-row[data-seat='1'] .give-to-bot")
    ann.wait_for_function("() => !document.querySelector(\"#invite .invite-row[data-seat='1']\")")
    assert app.state.tables.tables[table_id].bots == [None, "greedy"]
    assert "seat1=" not in ann.evaluate("location.hash") and "invite1=" not in ann.evaluate("location.hash")
    # The bot plays its turns: Ann is to act whenever the page settles.
    ann.wait_for_function("() => document.querySelectorAll('#actions button').length > 0")
    late = person()
    late.goto(link)
    late.wait_for_selector("body[data-ready='1']")
    late.wait_for_selector("#join-box:not([hidden])")
    assert "no longer works" in late.inner_text("#join-text")
