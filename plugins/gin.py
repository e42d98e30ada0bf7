"""Gin Rummy: the behaviour that the ``gin`` ruleset's data does not express.

The first-turn upcard offer, knocking (face down) and gin, settlement with the opponent's lay-offs,
the dead hand, Gin scoring and the end-of-game bonuses. Values come from the ruleset's ``rules`` block;
see ``variants/gin.yaml``. Other Gin variants reuse these functions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rummykit import hookimpl
from rummykit.actions import ActionWords, PositionWords, Verb
from rummykit.cards import Card
from rummykit.engine import Action, Deal, Game, HandResult
from rummykit.melds import Arrangement, Meld, MeldSearch
from rummykit.results import ResultWords, SeatResult
from rummykit.standard import cards_text, distinct_cards, lay_meld, lay_off

PASS = Action("pass")
DRAW_DISCARD = Action("draw discard")
DONE = Action("done")
BIG_GIN = Action("big gin")

RULES_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "knock_limit": {"type": "integer", "minimum": 0, "maximum": 100},
        "gin_only": {"type": "boolean"},
        "gin_bonus": {"type": "integer", "minimum": 0},
        "big_gin_bonus": {"type": ["integer", "null"], "minimum": 0},
        "undercut_bonus": {"type": "integer", "minimum": 0},
        "box_bonus": {"type": "integer", "minimum": 0},
        "game_bonus": {"type": "integer", "minimum": 0},
        "shutout": {"enum": ["bonus", "double"]},
        "shutout_game_bonus": {"type": "integer", "minimum": 0},
        "next_dealer": {"enum": ["loser", "winner", "alternate"]},
        "eleven_card_start": {"type": "boolean"},
        "retake_discard": {"enum": ["forbidden", "gra", "fiftieth-card"]},
        "last_chance": {"type": "boolean"},
        "dead_hand_stock": {"type": "integer", "minimum": 0, "maximum": 20},
        "settlement": {"enum": ["auto", "manual"]},
    },
    "required": ["knock_limit", "gin_bonus", "undercut_bonus", "box_bonus", "game_bonus"],
}


@hookimpl
def rummykit_rules_schema() -> dict[str, Any]:
    return RULES_SCHEMA


# -- the deal and the first turn ---------------------------------------------------------------------


def non_dealer(deal: Deal) -> int:
    """The seat that plays first: the one after the dealer among the seats in play."""
    return deal.next_seat(deal.dealer)


def second_player(deal: Deal) -> int:
    """The other seat in play: the dealer in a two-player game; with three, where the dealer sits out,
    the player who has the dealer's part (second refusal of the upcard, ten cards at an 11-card start)."""
    return deal.next_seat(non_dealer(deal))


@hookimpl
def rummykit_deal(deal: Deal, deck: list[Card]) -> bool | None:
    if not deal.variant.rules.get("eleven_card_start"):
        return None
    first = non_dealer(deal)
    for _ in range(10):
        for seat in (first, second_player(deal)):
            deal.hands[seat].append(deck.pop())
    deal.hands[first].append(deck.pop())
    deal.stock = deck
    return True


@hookimpl
def rummykit_start_hand(deal: Deal) -> None:
    rules = deal.variant.rules
    deal.state.setdefault("knock_limit", 0 if rules.get("gin_only") else rules["knock_limit"])
    deal.current = non_dealer(deal)
    if len(deal.hands[deal.current]) > len(deal.hands[second_player(deal)]):
        deal.phase = "discard"  # 11-card start: the first turn is only a discard
    elif deal.discard:
        deal.phase = "offer"
        deal.state["passes"] = 0


def knock_limit(deal: Deal) -> int:
    limit: int = deal.state["knock_limit"]
    return limit


# -- legal actions ----------------------------------------------------------------------------------


@hookimpl
def rummykit_legal_actions(deal: Deal, actions: list[Action]) -> None:
    phase = deal.phase
    state = deal.state
    if phase == "offer":
        actions[:] = [DRAW_DISCARD, PASS]
        return
    if phase == "draw" and state.get("last_chance"):
        # The last discard may be taken only to knock (or go gin) with it; otherwise the hand is dead.
        actions[:] = [DRAW_DISCARD, PASS] if _can_knock_after_taking(deal) else [PASS]
        return
    if phase == "draw":
        if state.get("stock_only"):
            actions[:] = [a for a in actions if a.kind == "draw stock"]
        block = state.get("gra_block")
        if block and block[0] == deal.current and deal.discard and deal.discard[-1].id == block[1]:
            if not _can_knock_after_taking(deal):
                actions[:] = [a for a in actions if a.kind != "draw discard"]
        return
    if phase == "discard":
        hand = deal.hands[deal.current]
        search = deal.variant.meld_search
        retake = deal.variant.rules.get("retake_discard", "forbidden")
        forbidden = deal.taken if deal.taken is not None and retake != "gra" else None
        knock_only = state.get("last_chance") or _blocked_retake(deal)
        if forbidden is not None and state.get("last_chance") and retake == "fiftieth-card":
            forbidden = None  # Game Colony: the 50th card may be turned over to knock
        limit = knock_limit(deal)
        distinct = distinct_cards(deal, hand)
        after = search.discard_deadwoods_within(distinct, limit)
        if knock_only:
            del actions[:]
        elif forbidden is not None:
            actions[:] = [a for a in actions if a.kind != "discard" or a.cards[0] is not forbidden]
        for card, deadwood in zip(distinct, after or ()):
            if deadwood <= limit and card is not forbidden:
                actions.append(Action.of("knock", card))
        big = deal.variant.rules.get("big_gin_bonus")
        if big is not None and len(hand) == 11 and search.deadwood(hand) == 0:
            actions.append(BIG_GIN)
        return
    if phase == "knocker-melds":
        actions[:] = _settlement_actions(deal, knocker=True)
    elif phase == "opponent-melds":
        actions[:] = _settlement_actions(deal, knocker=False)


def _blocked_retake(deal: Deal) -> bool:
    block = deal.state.get("gra_block")
    return bool(block and block[0] == deal.current and deal.taken is not None and deal.taken.id == block[1])


def _can_knock_after_taking(deal: Deal) -> bool:
    """Whether the current player, taking the top discard, could knock (or go gin) at once: discarding
    another card, or the same one where the retake rule allows (GRA, and the 50th card at the last chance)."""
    hand = deal.hands[deal.current] + [deal.discard[-1]]
    search = deal.variant.meld_search
    after = search.discard_deadwoods(hand)
    retake = deal.variant.rules.get("retake_discard", "forbidden")
    same_card_ok = retake == "gra" or (retake == "fiftieth-card" and bool(deal.state.get("last_chance")))
    if not same_card_ok:
        after = after[:-1]
    if min(after, default=knock_limit(deal) + 1) <= knock_limit(deal):
        return True
    big = deal.variant.rules.get("big_gin_bonus")
    return big is not None and len(hand) == 11 and search.deadwood(hand) == 0


def _settlement_actions(deal: Deal, knocker: bool) -> list[Action]:
    search = deal.variant.meld_search
    seat = deal.current
    hand = deal.hands[seat]
    result: list[Action] = []
    limit = knock_limit(deal)
    for meld in search.candidate_melds(hand):
        rest = list(hand)
        for card in meld.cards:
            rest.remove(card)
        # The knocker may only spread so that the knock stays within the limit.
        if not knocker or search.deadwood(rest) <= limit:
            result.append(Action("meld", meld.cards))
    if not knocker and not deal.state.get("gin"):
        for index, table_meld in enumerate(deal.table):
            if table_meld.owner != deal.state["knocker"]:
                continue
            for card in distinct_cards(deal, hand):
                if search.extend(table_meld.meld, [card]) is not None:
                    result.append(Action("layoff", (card,), index))
    if not knocker or sum(deal.variant.value(c) for c in hand) <= limit:
        result.append(DONE)
    return result


@hookimpl
def rummykit_explain_illegal(deal: Deal, action: Action) -> str | None:
    if deal.phase == "offer" and action.kind in ("draw", "draw stock", "discard", "knock"):
        return "the first turn starts with the upcard: take it ('draw discard') or 'pass'"
    if (
        action.kind in ("discard", "knock")
        and deal.taken is not None
        and action.cards
        and action.cards[0].face == deal.taken.face
        and deal.phase == "discard"
    ):
        return f"{deal.taken} was just taken from the discard pile and may not be discarded this turn"
    if action.kind == "knock" and deal.phase == "discard" and not action.cards:
        legal = deal.legal_actions()
        discardable = {a.cards[0].id for a in legal if a.kind == "discard"}  # not the card just taken
        if discardable and not any(a.kind == "knock" for a in legal):
            hand = deal.hands[deal.current]
            after = deal.variant.meld_search.discard_deadwoods(hand)
            least = min(d for card, d in zip(hand, after) if card.id in discardable)
            return f"after your best discard your deadwood is {least}; knocking needs {knock_limit(deal)} or less"
    if action.kind == "knock" and deal.phase == "discard":
        hand = [c for c in deal.hands[deal.current] if c.face != (action.cards[0].face if action.cards else -1)]
        if len(hand) < len(deal.hands[deal.current]):
            deadwood = deal.variant.meld_search.deadwood(hand)
            return f"after that discard your deadwood is {deadwood}; knocking needs {knock_limit(deal)} or less"
    if action.kind == "draw discard" and deal.phase == "draw" and deal.state.get("last_chance"):
        return "the stock is down to its last cards: the last discard may be taken only to knock or go gin with it"
    block = deal.state.get("gra_block")
    if action.kind == "draw discard" and deal.phase == "draw" and block and block[0] == deal.current:
        return "you discarded that card yourself: you may take it back only to knock this turn"
    if action.kind == "draw discard" and deal.state.get("stock_only"):
        return "both players refused the upcard: the non-dealer draws from the stock"
    if action.kind == "done" and deal.phase == "knocker-melds":
        return f"your unmelded cards count more than the knock limit {knock_limit(deal)}: meld more"
    return None


# -- carrying out actions ---------------------------------------------------------------------------


@hookimpl
def rummykit_apply_action(deal: Deal, action: Action) -> bool | None:
    kind = action.kind
    state = deal.state
    seat = deal.current
    if kind == "pass":
        if state.get("last_chance"):
            deal.finish("dead")
        elif deal.phase == "offer" and state["passes"] == 0 and seat != second_player(deal):
            state["passes"] = 1
            deal.current = second_player(deal)
        else:
            deal.current = non_dealer(deal)
            deal.phase = "draw"
            state["stock_only"] = True
        return True
    if kind in ("knock", "big gin"):
        state.pop("gra_block", None)
        if kind == "knock":
            card = action.cards[0]
            deal.take_from_hand(seat, [card])
            deal.discard.append(card)
            deal.face_down.add(card.id)
        else:
            state["big_gin"] = True
        state["knocker"] = seat
        opponent = deal.opponents(seat)[0]
        state["opponent"] = opponent
        state["gin"] = deal.variant.meld_search.deadwood(deal.hands[seat]) == 0
        if deal.variant.rules.get("settlement", "auto") == "manual":
            deal.phase = "knocker-melds"
        else:
            settle_automatically(deal, seat, opponent)
            deal.finish("knock")
        return True
    if deal.phase in ("knocker-melds", "opponent-melds"):
        if kind == "meld":
            meld = deal.variant.meld_search.meld(action.cards)
            assert meld is not None
            lay_meld(deal, seat, meld)
        elif kind == "layoff":
            assert action.target is not None
            lay_off(deal, seat, action.target, action.cards)
            state.setdefault("layoffs", []).append((action.cards[0], action.target))
        elif kind == "done":
            if deal.phase == "knocker-melds":
                state["gin"] = not deal.hands[seat]
                deal.phase = "opponent-melds"
                deal.current = state["opponent"]
            else:
                deal.finish("knock")
        return True
    return None


@hookimpl
def rummykit_action_applied(deal: Deal, seat: int, action: Action) -> None:
    if action.kind in ("draw stock", "draw discard"):
        deal.state.pop("stock_only", None)


@hookimpl
def rummykit_turn_ended(deal: Deal, seat: int) -> None:
    rules = deal.variant.rules
    # The turn ends with a discard (a knock ends the hand). Under GRA a card taken and thrown back at
    # once may be taken again by the next player only to knock with it.
    deal.state.pop("gra_block", None)
    if rules.get("retake_discard") == "gra" and deal.taken is not None and deal.discard[-1] is deal.taken:
        deal.state["gra_block"] = (deal.next_seat(seat), deal.taken.id)
    if deal.state.get("last_chance"):
        return
    if len(deal.stock) <= rules.get("dead_hand_stock", 2):
        if rules.get("retake_discard") == "fiftieth-card" or rules.get("last_chance"):
            deal.state["last_chance"] = True
        else:
            deal.finish("dead")


# -- settlement -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reply:
    """The opponent's answer to a knock: its own melds, lay-offs and what is left."""

    melds: tuple[Meld, ...]
    layoffs: tuple[tuple[Card, int], ...]
    """(card, index of the knocker's meld it goes on), in the order they are laid."""
    deadwood_value: int


def best_reply(search: MeldSearch, cards: list[Card], knocker_melds: tuple[Meld, ...], layoffs: bool) -> Reply:
    """The opponent's best answer: the melds and lay-offs that leave the least deadwood.

    Lay-offs may break the opponent's own melds and may chain (``TS`` then ``9S`` onto ``JS QS KS``).
    """
    if not layoffs or not knocker_melds:
        arrangement = search.arrange(cards)
        return Reply(arrangement.melds, (), arrangement.deadwood_value)
    memo: dict[tuple[frozenset[int], tuple[frozenset[int], ...]], tuple[int, tuple[tuple[Card, int], ...]]] = {}

    def walk(rest: list[Card], melds: list[Meld]) -> tuple[int, tuple[tuple[Card, int], ...]]:
        key = (frozenset(c.id for c in rest), tuple(frozenset(c.id for c in m.cards) for m in melds))
        if key in memo:
            return memo[key]
        best: tuple[int, tuple[tuple[Card, int], ...]] = (search.deadwood(rest), ())
        for card in rest:
            for index, meld in enumerate(melds):
                grown = search.extend(meld, [card])
                if grown is None:
                    continue
                remaining = [c for c in rest if c is not card]
                value, chain = walk(remaining, melds[:index] + [grown] + melds[index + 1 :])
                if value < best[0]:
                    best = (value, ((card, index),) + chain)
        memo[key] = best
        return best

    value, chain = walk(list(cards), list(knocker_melds))
    laid = {card.id for card, _ in chain}
    arrangement = search.arrange([c for c in cards if c.id not in laid])
    assert arrangement.deadwood_value == value
    return Reply(arrangement.melds, chain, value)


def knock_points(deal: Deal, knocker_deadwood: int, opponent_deadwood: int, gin: bool) -> tuple[str, int, bool]:
    """(kind, points, knocker_wins) for a knock settled with these deadwood counts."""
    rules = deal.variant.rules
    if gin:
        points = rules["gin_bonus"] + opponent_deadwood
        if deal.state.get("big_gin"):
            return "big-gin", points + (rules.get("big_gin_bonus") or 0), True
        return "gin", points, True
    if knocker_deadwood < opponent_deadwood:
        return "knock", opponent_deadwood - knocker_deadwood, True
    return "undercut", knocker_deadwood - opponent_deadwood + rules["undercut_bonus"], False


def settle_automatically(deal: Deal, knocker: int, opponent: int) -> None:
    """Spread both hands as strong players would and lay the result out on the table.

    The knocker picks, among arrangements within the knock limit, the one with the best result against
    the opponent's best reply (least deadwood breaking ties); the opponent then replies."""
    search = deal.variant.meld_search
    knocker_cards = deal.hands[knocker]
    opponent_cards = deal.hands[opponent]
    limit = knock_limit(deal)
    best: tuple[tuple[int, int], Arrangement, Reply] | None = None
    if deal.state["gin"]:
        candidates = [search.arrange(knocker_cards)]
    else:
        candidates = search.arrangements(knocker_cards, limit)
    for arrangement in candidates:
        gin = arrangement.deadwood_value == 0
        reply = best_reply(search, opponent_cards, arrangement.melds, layoffs=not gin)
        _kind, points, knocker_wins = knock_points(deal, arrangement.deadwood_value, reply.deadwood_value, gin)
        key = (points if knocker_wins else -points, -arrangement.deadwood_value)
        if best is None or key > best[0]:
            best = (key, arrangement, reply)
    assert best is not None, "a knock is only legal when an arrangement within the limit exists"
    _, arrangement, reply = best
    for meld in arrangement.melds:
        lay_meld(deal, knocker, meld)
    for meld in reply.melds:
        lay_meld(deal, opponent, meld)
    for card, index in reply.layoffs:
        lay_off(deal, opponent, index, (card,))
    deal.state["layoffs"] = list(reply.layoffs)


# -- scoring ------------------------------------------------------------------------------------------


def deadwood_in_hand(deal: Deal, seat: int) -> int:
    return sum(deal.variant.value(c) for c in deal.hands[seat])


@hookimpl
def rummykit_score_hand(deal: Deal, kind: str) -> HandResult | None:
    n = deal.game.num_players
    if kind == "dead":
        return HandResult(deal.number, "dead", (0,) * n, None, deal.dealer, {"stock": len(deal.stock)}, (0,) * n)
    if kind != "knock":
        return None
    return score_knock(deal)


def score_knock(deal: Deal, multiplier: int = 1, extra_boxes: dict[str, int] | None = None) -> HandResult:
    """Score a settled knock (``multiplier`` and extra boxes serve variants such as Oklahoma Gin)."""
    n = deal.game.num_players
    state = deal.state
    knocker, opponent = state["knocker"], state["opponent"]
    knocker_dw = deadwood_in_hand(deal, knocker)
    opponent_dw = deadwood_in_hand(deal, opponent)
    kind, points, knocker_wins = knock_points(deal, knocker_dw, opponent_dw, knocker_dw == 0)
    winner = knocker if knocker_wins else opponent
    scores = [0] * n
    scores[winner] = points * multiplier
    boxes = [0] * n
    boxes[winner] = 1 + (extra_boxes or {}).get(kind, 0)
    deadwood = [0] * n
    deadwood[knocker], deadwood[opponent] = knocker_dw, opponent_dw
    details = {
        "knocker": knocker,
        "deadwood": deadwood,
        "knock_limit": knock_limit(deal),
        "melds": {str(seat): [str(tm.meld) for tm in deal.table if tm.owner == seat] for seat in (knocker, opponent)},
        "unmatched": {str(seat): [str(c) for c in sorted(deal.hands[seat])] for seat in (knocker, opponent)},
        "layoffs": [f"{card} on {index}" for card, index in state.get("layoffs", [])],
        "multiplier": multiplier,
    }
    return HandResult(deal.number, kind, tuple(scores), winner, deal.dealer, details, tuple(boxes))


@hookimpl
def rummykit_next_dealer(game: Game, result: HandResult) -> int | None:
    if result.winner is None:
        return result.dealer  # a dead hand is dealt again by the same dealer
    rule = game.variant.rules.get("next_dealer", "loser")
    if rule == "winner":
        return result.winner
    if rule == "alternate":
        return game.deal.next_seat(result.dealer)
    losers = [seat for seat in game.deal.seats if seat != result.winner]
    return losers[0] if len(losers) == 1 else None


@hookimpl
def rummykit_score_game(game: Game) -> list[tuple[int, str, int]]:
    rules = game.variant.rules
    totals = game.hand_totals()
    winner = max(range(game.num_players), key=lambda s: totals[s])
    hands_won = [sum(1 for r in game.results if r.winner == seat) for seat in range(game.num_players)]
    shutout = all(hands_won[seat] == 0 for seat in range(game.num_players) if seat != winner)
    bonuses: list[tuple[int, str, int]] = []
    if shutout and rules.get("shutout", "bonus") == "bonus":
        bonuses.append((winner, "game (shutout)", rules.get("shutout_game_bonus", 2 * rules["game_bonus"])))
    else:
        bonuses.append((winner, "game", rules["game_bonus"]))
        if shutout:
            bonuses.append((winner, "shutout (score doubled)", totals[winner] + rules["game_bonus"]))
    for seat in range(game.num_players):
        boxes = sum(r.boxes[seat] for r in game.results if r.boxes)
        if boxes:
            bonuses.append((seat, f"boxes ({boxes})", boxes * rules["box_bonus"]))
    return bonuses


# -- words for people and bots -----------------------------------------------------------------------

PHASE_HINTS = {
    "offer": "take the upcard (draw discard) or pass",
    "knocker-melds": "spread your melds, then done",
    "opponent-melds": "spread your melds and lay off, then done",
}


@hookimpl
def rummykit_describe_action(deal: Deal, seat: int, action: Action, viewer: int | None) -> ActionWords | None:
    kind = action.kind
    if kind == "pass":
        if deal.result is None and deal.turn == 0 and deal.discard:
            upcard = deal.discard[-1]
            return ActionWords(f"decline the upcard {upcard}", f"declines the upcard {upcard}")
        return ActionWords("pass", "passes")
    if kind == "knock":
        # The knock card goes face down: only the knocker knows it (it plays no part in the settlement).
        card = cards_text(action.cards)
        return ActionWords(f"knock with {card} face down", "knocks, discarding a card face down", ends_hand=True)
    if kind == "big gin":
        return ActionWords("declare big gin", "declares big gin", ends_hand=True)
    if kind == "done":
        return ActionWords("are done", "is done")
    return None


ENDINGS = {"knock": "knock", "gin": "gin", "big-gin": "big gin", "undercut": "undercut", "dead": "dead hand"}


def _as_laid(melds: dict[str, Any], knocker: Any, layoffs: list[str]) -> dict[str, Any]:
    """The settled melds with the knocker's as the knocker laid them: the result's melds hold the cards the
    other player laid off on them (``4H on 0``), which are shown apart (``Laid off: 4H on [4C 4D 4S]``)."""
    spread = melds.get(str(knocker)) if isinstance(knocker, int) else None
    if not isinstance(spread, list) or not layoffs:
        return melds
    laid = [str(meld).split() for meld in spread]
    for entry in layoffs:
        card, _, index = entry.partition(" on ")
        if index.isdigit() and int(index) < len(laid) and card in laid[int(index)]:
            laid[int(index)].remove(card)
    return {**melds, str(knocker): [" ".join(cards) for cards in laid]}


def _layoff_text(entry: str, melds: dict[str, Any], knocker: Any) -> str:
    """``4C on 0`` (a lay-off on the knocker's meld number 0) as ``4C on [5C 6C 7C]``: the melds as the
    knocker laid them, not their numbers (``4C on 1``, counted from 1, if the meld is not known)."""
    card, _, index = entry.partition(" on ")
    spread = melds.get(str(knocker)) if isinstance(knocker, int) else None
    if index.isdigit() and isinstance(spread, list) and int(index) < len(spread):
        return f"{card} on [{spread[int(index)]}]"
    return f"{card} on {int(index) + 1}" if index.isdigit() else entry


@hookimpl
def rummykit_describe_result(game: Game, deal: Deal | None, result: HandResult, words: ResultWords) -> None:
    kind, details = result.kind, result.details
    if kind not in ENDINGS:
        return
    knocker = details.get("knocker")
    words.ending = ENDINGS[kind]
    if kind == "undercut" and isinstance(result.winner, int) and isinstance(knocker, int):
        words.ending += f" by {words.name(result.winner)} ({words.name(knocker)} knocked)"
    elif isinstance(knocker, int) and kind != "dead":
        words.ending += f" by {words.name(knocker)}"
    if kind == "dead":
        words.seats = []
        if "stock" in details:
            count = details["stock"]
            words.remarks.append(f"({count} card{'' if count == 1 else 's'} left in the stock)")
        return
    melds, unmatched = details.get("melds"), details.get("unmatched")
    if not (isinstance(melds, dict) and isinstance(unmatched, dict)):
        return
    layoffs = [str(x) for x in details.get("layoffs") or ()]
    melds = _as_laid(melds, knocker, layoffs)
    deadwood = details.get("deadwood", [])
    words.seats = []
    for key in melds:
        seat = int(key)
        line = SeatResult(seat, laid=list(melds[key]), held=list(unmatched.get(key, [])), held_as="unmatched")
        if seat == knocker:
            line.notes.append("knocker")
        if isinstance(deadwood, list) and seat < len(deadwood):
            line.notes.append(f"deadwood {deadwood[seat]}")
        words.seats.append(line)
    if layoffs:
        words.lines.insert(0, "Laid off: " + ", ".join(_layoff_text(x, melds, knocker) for x in layoffs))
    if kind in ("knock", "undercut") and isinstance(knocker, int) and isinstance(deadwood, list):
        words.figures["knock deadwood"] = [deadwood[knocker] if s == knocker else None for s in range(len(deadwood))]


@hookimpl
def rummykit_describe_position(deal: Deal, seat: int, words: PositionWords) -> None:
    phase = deal.phase
    if phase in PHASE_HINTS:
        words.hint = PHASE_HINTS[phase]
    elif phase == "draw" and deal.state.get("last_chance"):
        words.hint = (
            "the stock is down to its last cards: take the discard to knock or go gin with it (draw discard), "
            "or pass and the hand is dead"
            if any(a.kind == "draw discard" for a in deal.legal_actions())
            else "the stock is down to its last cards and the discard would not let you knock: pass (the hand is dead)"
        )
    elif phase == "discard" and seat == deal.actor and any(a.kind == "knock" for a in deal.legal_actions()):
        words.hint = "discard a card, or knock"
    words.facts.append(f"Knock limit: {knock_limit(deal)}")
    words.verbs.extend(("pass", "knock", "big gin", "meld", "layoff", "done"))


@hookimpl
def rummykit_verbs(variant: Any) -> list[Verb]:
    """Passing on the upcard, knocking with the card discarded face down, big gin, and after a knock the
    other seat's melds, lay-offs and ``done``."""
    return [
        Verb("pass"),
        Verb("knock", frozenset({"card"}), short="k"),
        Verb("big gin"),
        Verb("meld", frozenset({"melds"}), short="m"),
        Verb("layoff", frozenset({"card on meld"}), short="l"),
        Verb("done"),
    ]


@hookimpl
def rummykit_observe(deal: Deal, seat: int | None, view: dict[str, Any]) -> None:
    view["knock_limit"] = knock_limit(deal)
    if deal.phase in ("knocker-melds", "opponent-melds"):
        knocker = deal.state["knocker"]
        view["knocker"] = knocker
        if seat != knocker:
            view["knocker_unmatched"] = (
                [str(c) for c in sorted(deal.hands[knocker])] if deal.phase == "opponent-melds" else None
            )
