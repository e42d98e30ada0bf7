"""No response of the web table lets anyone learn a card they may not see while a game is in progress.

Every variant is played through the API with every seat a person (each with its token); after each move the
table is read as each seat and as a stranger, and each answer is checked three ways:

- it is what the server would answer if every card hidden from that reader lay elsewhere: the hidden cards
  (other hands but what the reader knows of them, the stock, hidden zones) are shuffled among their places
  in a copy of the game, and the copy's state must be the same answer (so nothing in it depends on them);
- every card it names is one the reader has seen at some point of the game (its own hand, the pile, the
  table, cards taken from the pile, cards shown to it);
- it holds no seed, and the record, another seat's view and a bot's seat are refused.
"""

from __future__ import annotations

import json
import random
import re
import warnings
from typing import Any

import pytest

pytest.importorskip("starlette")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from rummykit.plugins.gin import GinState  # noqa: E402

import rummykit  # noqa: E402
from rummykit.engine import Deal, Game  # noqa: E402
from rummykit.web.app import Table, create_app, state  # noqa: E402

pytestmark = pytest.mark.xdist_group("web")

CARD = re.compile(r"(?<![0-9A-Za-z])(?:[2-9TJQKA][CDHS]|JK)(?![0-9A-Za-z])")
MOVES = 80
"""Moves checked per game (each read as every seat and a stranger)."""


def hidden_places(deal: Deal, viewer: int | None) -> list[tuple[list[Any], int]]:
    """(list, index) of every card ``viewer`` cannot see: in other hands, the stock, zones hidden from it."""
    places: list[tuple[list[Any], int]] = [(deal.stock, i) for i in range(len(deal.stock))]
    public = set()
    if deal.phase in ("knocker-melds", "opponent-melds"):  # Gin: a knocker's hand is spread face up
        public.add(deal.state_of(GinState).knocker)
    for holder in deal.seats:
        if holder == viewer or holder in public:
            continue
        hand = deal.hands[holder]
        places += [(hand, i) for i, card in enumerate(hand) if not deal.sees(viewer, card, holder)]
    for zone in deal.zones.values():
        for owner, held in enumerate(zone.cards):
            shown = {c.id for c in deal.zone_seen(viewer, zone, owner)}
            places += [(held, i) for i, card in enumerate(held) if card.id not in shown]
    return places


def seen_now(deal: Deal, viewer: int | None) -> set[str]:
    """The card texts ``viewer`` sees at this moment (by the kernel's own rules of who sees what)."""
    hidden = {id(where[index]) for where, index in hidden_places(deal, viewer)}
    cards = [*deal.stock, *deal.discard, *(c for h in deal.hands for c in h)]
    cards += [c for tm in deal.table for c in tm.meld.cards]
    cards += [c for zone in deal.zones.values() for held in zone.cards for c in held]
    face_down = deal.face_down
    return {str(c) for c in cards if id(c) not in hidden and c.id not in face_down}


def twin_state(table: Table, viewer: int | None, rng: random.Random) -> dict[str, Any]:
    """The state ``viewer`` would get if the cards hidden from it were shuffled among their places."""
    game = table.game.clone()
    places = hidden_places(game.deal, viewer)
    cards = [where[index] for where, index in places]
    rng.shuffle(cards)
    for (where, index), card in zip(places, cards):
        where[index] = card
    game.seed = rng.randrange(2**62)  # the seed deals every card: it must not show either
    twin = Table(id=table.id, game=game, bots=table.bots, players=table.players, log=table.log,
                 settlements=table.settlements, replay=None, owner_digest=table.owner_digest, seats=table.seats)  # fmt: skip
    return json.loads(json.dumps(state(twin, viewer)))  # type: ignore[no-any-return]


def without_stands_for(data: Any) -> Any:
    """``data`` less what wild cards stand for (``stands_for``, ``2H=TS``): those name no card anyone holds."""
    if isinstance(data, dict):
        return {key: without_stands_for(value) for key, value in data.items() if key != "stands_for"}
    if isinstance(data, list):
        return [without_stands_for(value) for value in data]
    if isinstance(data, str):
        return re.sub(r"=(?:[2-9TJQKA][CDHS])", "", data)
    return data


def check_log(table: Table, deals: list[Deal]) -> None:
    """Every line of the table's move list is a move the engine made, under the seat it was made for."""
    made = {(deal.number, seat, str(action)) for deal in deals for seat, action in deal.log}
    for entry in table.log:
        assert (entry["deal"], entry["seat"], entry["action"]) in made, f"{entry} is no move of that seat"


def check_reader(
    client: TestClient, table: Table, created: dict[str, Any], viewer: int | None, seen: set[str], rng: random.Random
) -> None:
    url = f"/api/tables/{created['id']}"
    headers = {} if viewer is None else {"Authorization": f"Bearer {created['tokens'][str(viewer)]}"}
    response = client.get(url, headers=headers)
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["seat"] == viewer and answer["seed"] is None
    assert answer == twin_state(table, viewer, rng), f"the answer to {viewer} depends on cards hidden from it"
    seen |= seen_now(table.game.deal, viewer)
    # The reader's own moves may name any card it handled (a card passed to it and passed on between reads).
    others = {**answer, "log": [entry for entry in answer["log"] if entry["seat"] != viewer]}
    text = json.dumps(without_stands_for(others))
    unseen = {m.group(): text[m.start() - 120 : m.end() + 20] for m in CARD.finditer(text)}
    unseen = {card: where for card, where in unseen.items() if card not in seen}
    assert not unseen, f"seat {viewer} is shown cards it never saw: {unseen}"
    assert str(table.game.seed) not in response.text
    # Another seat's view, with this reader's token or none, is refused.
    for other in range(table.game.num_players):
        if other != viewer:
            assert client.get(f"{url}?seat={other}", headers=headers).status_code == 403


@pytest.mark.parametrize("variant", [info.name for info in rummykit.list_variants() if info.package == "rummykit"])
def test_no_answer_shows_a_card_its_reader_may_not_see(variant: str) -> None:
    info = rummykit.load_variant(variant)
    players = min(info.max_players, 4)
    app = create_app(moves_per_second=None)
    with TestClient(app) as client:
        response = client.post(
            "/api/tables", json={"variant": variant, "players": players, "bots": [None] * players, "max_hands": 1}
        )
        assert response.status_code == 201, response.text
        created = response.json()
        assert created["seed"] is None and str(created["observation"]["seat"]) == "0"
        table = app.state.tables.get(created["id"])
        game: Game = table.game
        rng = random.Random(variant)
        seen: dict[int | None, set[str]] = {seat: set() for seat in [None, *range(players)]}
        deals: list[Deal] = []
        for _ in range(MOVES):
            if game.deal not in deals:
                deals.append(game.deal)
            check_log(table, deals)
            if game.is_over:
                break
            assert client.get(f"/api/tables/{created['id']}/record").status_code == 409
            for viewer in seen:
                check_reader(client, table, created, viewer, seen[viewer], rng)
            actor = game.current_player
            assert actor is not None
            action = rng.choice(game.legal_actions())
            if actor != 0:  # a seat's token plays only that seat
                wrong = {"Authorization": f"Bearer {created['tokens']['0']}"}
                refused = client.post(f"/api/tables/{created['id']}/moves", json={"seat": actor, "action": str(action)},
                                      headers=wrong)  # fmt: skip
                assert refused.status_code == 403
            moved = client.post(
                f"/api/tables/{created['id']}/moves",
                json={"action": str(action)},
                headers={"Authorization": f"Bearer {created['tokens'][str(actor)]}"},
            )
            assert moved.status_code == 200, moved.text
            assert moved.json()["seat"] == actor
        else:  # the last move is checked too (it may have ended the game)
            if game.deal not in deals:
                deals.append(game.deal)
            check_log(table, deals)
        if game.is_over:  # then the record and the seed are everyone's
            assert client.get(f"/api/tables/{created['id']}").json()["seed"] == game.seed
            assert client.get(f"/api/tables/{created['id']}/record").status_code == 200


def test_a_bot_seat_is_never_shown_and_a_stranger_sees_no_hand() -> None:
    app = create_app()
    with TestClient(app) as client:
        created = client.post("/api/tables", json={"variant": "iceberg", "players": 3, "seed": 4}).json()
        url = f"/api/tables/{created['id']}"
        assert set(created["tokens"]) == {"0"}
        for seat in (1, 2):
            assert client.get(f"{url}?seat={seat}").status_code == 403
            assert (
                client.get(f"{url}?seat={seat}", headers={"Authorization": f"Bearer {created['owner']}"}).status_code
                == 403
            )
        stranger = client.get(url).json()
        assert "hand" not in stranger["observation"] and stranger["legal_actions"] == [] and stranger["seed"] is None
        assert client.get(url, headers={"Authorization": "Bearer not-a-token"}).status_code == 403
        assert client.get(url, headers={"Authorization": "Bearer tøken".encode("latin-1")}).status_code == 403
        assert client.delete(url, headers={"Authorization": f"Bearer {created['tokens']['0']}"}).status_code == 403
        listing = client.get("/api/tables").json()
        assert created["id"] not in json.dumps(listing) and listing["tables"] == 1
