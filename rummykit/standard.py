"""The kernel's own hook implementations: the standard rummy turn.

Registered first for every game, so every plugin overrides these. A turn is: draw (from the stock, or
from the discard pile as the ruleset's ``draw.from_pile`` allows), then, in games whose melds go on the
table, any number of melds and lay-offs, then a discard. A deal ends when a player goes out or the stock
runs out.
"""

from __future__ import annotations

from typing import Any

from . import hookimpl
from .engine import Action, Deal, Game, HandResult, TableMeld
from .melds import Meld

MELD_ACTION_LIMIT = 60
"""At most this many ``meld`` actions are listed at once, largest first, so that legal_actions stays
bounded on a large hand; any valid meld is still accepted when named."""

DRAW_STOCK = Action("draw stock")
DRAW_DISCARD = Action("draw discard")


@hookimpl
def rummykit_deal(deal: Deal, deck: list[Any]) -> bool:
    variant = deal.variant
    size = variant.hand_size(deal.game.num_players)
    for _ in range(size):
        for seat in _from_left_of_dealer(deal):
            deal.hands[seat].append(deck.pop())
    if variant.ruleset.get("deal", {}).get("upcard", True) and deck:
        deal.discard.append(deck.pop())
    deal.stock = deck
    return True


def _from_left_of_dealer(deal: Deal) -> list[int]:
    seats = []
    seat = deal.dealer
    for _ in deal.seats:
        seat = deal.next_seat(seat)
        seats.append(seat)
    return seats


@hookimpl
def rummykit_seats_in_play(game: Game, dealer: int) -> list[int]:
    return list(range(game.num_players))


@hookimpl(tryfirst=True)
def rummykit_legal_actions(deal: Deal, actions: list[Action]) -> None:
    phase = deal.phase
    hand = deal.hands[deal.current]
    if phase == "draw":
        if deal.stock:
            actions.append(DRAW_STOCK)
        mode = deal.variant.draw_from_pile
        if deal.discard and deal.discard[-1].id not in deal.face_down:
            if mode == "top":
                actions.append(DRAW_DISCARD)
            elif mode == "any":
                for card in deal.discard:
                    actions.append(Action("draw discard", (card,)))
    elif phase == "play":
        search = deal.variant.meld_search
        for meld in search.candidate_melds(hand, limit=MELD_ACTION_LIMIT):
            actions.append(Action("meld", meld.cards))
        for index in layoff_targets(deal, deal.current):
            table_meld = deal.table[index]
            for card in {c.face: c for c in hand}.values():
                if search.extend(table_meld.meld, [card]) is not None:
                    actions.append(Action("layoff", (card,), index))
        actions.extend(_discards(deal, hand))
    elif phase == "discard":
        actions.extend(_discards(deal, hand))


def _discards(deal: Deal, hand: list[Any]) -> list[Action]:
    return [Action("discard", (card,)) for card in {c.face: c for c in hand}.values()]


def layoff_targets(deal: Deal, seat: int) -> list[int]:
    """Indexes of table melds ``seat`` may lay off on, by the ruleset's ``table.layoff``."""
    mode = deal.variant.ruleset.get("table", {}).get("layoff", "any")
    if mode == "none":
        return []
    game = deal.game
    return [i for i, tm in enumerate(deal.table)
            if mode == "any" or game.side_of(tm.owner) == game.side_of(seat)]


@hookimpl
def rummykit_explain_illegal(deal: Deal, action: Action) -> str | None:
    hand = deal.hands[deal.current]
    faces = {c.face for c in hand}
    missing = [c for c in action.cards if c.face not in faces]
    if action.kind in ("discard", "knock", "meld", "layoff") and missing:
        return f"{' '.join(map(str, missing))} is not in your hand"
    if action.kind.startswith("draw") and deal.phase != "draw":
        return "you have drawn already this turn"
    if action.kind in ("discard", "knock") and deal.phase == "draw":
        return "draw a card first"
    if action.kind == "meld" and deal.phase == "play":
        return f"{' '.join(map(str, action.cards))} is not a valid meld"
    if action.kind == "layoff" and action.target is not None and not 0 <= action.target < len(deal.table):
        return f"there is no table meld {action.target}"
    if action.kind == "draw stock" and not deal.stock:
        return "the stock is empty"
    return None


@hookimpl
def rummykit_apply_action(deal: Deal, action: Action) -> bool | None:
    kind = action.kind
    seat = deal.current
    if kind == "draw stock":
        deal.hands[seat].append(deal.stock.pop())
        deal.phase = _after_draw(deal)
    elif kind == "draw discard":
        if action.cards:
            depth = deal.discard.index(action.cards[0])
            taken = deal.discard[depth:]
            del deal.discard[depth:]
        else:
            taken = [deal.discard.pop()]
        deal.hands[seat].extend(taken)
        deal.known[seat].update(c.id for c in taken)
        deal.taken = taken[0]
        deal.phase = _after_draw(deal)
    elif kind == "meld":
        meld = deal.variant.meld_search.meld(action.cards)
        assert meld is not None
        lay_meld(deal, seat, meld)
        _check_out(deal, seat)
    elif kind == "layoff":
        assert action.target is not None
        lay_off(deal, seat, action.target, action.cards)
        _check_out(deal, seat)
    elif kind == "discard":
        deal.take_from_hand(seat, action.cards)
        deal.discard.extend(action.cards)
        if not deal.hands[seat] and deal.variant.melds_on_table:
            deal.finish("out")
        else:
            deal.end_turn()
    else:
        return None
    return True


def _after_draw(deal: Deal) -> str:
    return "play" if deal.variant.melds_on_table else "discard"


def lay_meld(deal: Deal, seat: int, meld: Meld) -> TableMeld:
    """Move ``meld``'s cards from ``seat``'s hand to a new table meld owned by ``seat``."""
    deal.take_from_hand(seat, meld.cards)
    table_meld = TableMeld(meld, seat, {c.id: seat for c in meld.cards}, len(meld.cards))
    deal.table.append(table_meld)
    return table_meld


def lay_off(deal: Deal, seat: int, target: int, cards: tuple[Any, ...]) -> None:
    """Add ``cards`` from ``seat``'s hand to table meld ``target``."""
    table_meld = deal.table[target]
    grown = deal.variant.meld_search.extend(table_meld.meld, cards)
    assert grown is not None
    deal.take_from_hand(seat, cards)
    table_meld.meld = grown
    for card in cards:
        table_meld.credits[card.id] = seat


def _check_out(deal: Deal, seat: int) -> None:
    if deal.hands[seat]:
        return
    if deal.variant.ruleset.get("table", {}).get("discard_to_go_out", "optional") != "required":
        deal.finish("out")


@hookimpl
def rummykit_turn_ended(deal: Deal, seat: int) -> None:
    if not deal.stock and deal.variant.draw_from_pile in ("none", "top"):
        deal.finish("exhausted")


@hookimpl
def rummykit_score_hand(deal: Deal, kind: str) -> HandResult:
    """Default scoring: each seat scores the values of its table cards minus its cards in hand."""
    variant = deal.variant
    scores = [0] * deal.game.num_players
    for table_meld in deal.table:
        for card in table_meld.meld.cards:
            scores[table_meld.credits.get(card.id, table_meld.owner)] += variant.value(card)
    for seat in deal.seats:
        scores[seat] -= sum(variant.value(c) for c in deal.hands[seat])
    winner = deal.current if kind == "out" else None
    return HandResult(deal.number, kind, tuple(scores), winner, deal.dealer)


@hookimpl
def rummykit_next_dealer(game: Game, result: HandResult) -> int:
    return (result.dealer + 1) % game.num_players


@hookimpl
def rummykit_game_over(game: Game) -> bool:
    target = game.variant.ruleset.get("target")
    max_hands = game.variant.ruleset.get("max_hands")
    if max_hands is not None and len(game.hands) >= max_hands:
        return True
    if target is None:
        return False
    totals = game.hand_totals()
    if game.variant.partnerships:
        totals = [totals[s] + totals[(s + 2) % game.num_players] for s in range(game.num_players)]
    return bool(max(totals) >= target)


@hookimpl
def rummykit_score_game(game: Game) -> list[tuple[int, str, int]]:
    return []


@hookimpl
def rummykit_observe(deal: Deal, seat: int, view: dict[str, Any]) -> None:
    return None
