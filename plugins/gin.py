"""Gin Rummy: the behaviour that the ``gin`` ruleset's data does not express.

The first-turn upcard offer, knocking (face down) and gin, settlement with the opponent's lay-offs,
the dead hand, Gin scoring and the end-of-game bonuses. Values come from the ruleset's ``rules`` block;
see ``variants/gin.yaml``. Other Gin variants reuse these functions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rummykit import hookimpl
from rummykit.actions import ActionWords, PositionWords, Verb
from rummykit.cards import Card
from rummykit.engine import Action, Deal, Game, HandResult
from rummykit.melds import Arrangement, Meld, MeldSearch
from rummykit.results import ResultWords, SeatResult
from rummykit.standard import Legality, any_time, cards_text, distinct_cards, lay_meld, lay_off, refuse
from rummykit.typed import rules_as, state_key, state_of

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


@hookimpl
def rummykit_ruleset_problems(ruleset: dict[str, Any]) -> list[tuple[str, str]]:
    """What Gin's own rules leave no room for: the hand is dead at ``dead_hand_stock`` stock cards, or when the
    stock runs out, so a new stock made from the pile would never be used; melds stay in hand until the knock,
    and the lay-offs are the settlement's, so nothing is melded or laid off on the table during play."""
    problems = []
    empty_stock = ruleset.get("draw", {}).get("empty_stock", "end")
    if empty_stock != "end":
        message = (
            f"a hand of Gin is dead when its stock is down to rules.dead_hand_stock cards (at 0, when it runs "
            f"out), so {empty_stock!r} would never take effect: expected end"
        )
        problems.append(("draw.empty_stock", message))
    table = ruleset.get("table", {})
    if table.get("melds", False):
        problems.append(("table.melds", "in Gin melds stay in hand until the knock: expected false"))
    if table.get("layoff", "any") != "none":
        message = "in Gin cards are laid off only at the settlement after a knock, as Gin's rules say: expected none"
        problems.append(("table.layoff", message))
    return problems


@dataclass(frozen=True)
class GinRules:
    """Gin's ``rules`` block (:data:`RULES_SCHEMA`), read once per variant; a key left out has its default."""

    knock_limit: int
    gin_bonus: int
    undercut_bonus: int
    box_bonus: int
    game_bonus: int
    gin_only: bool = False
    big_gin_bonus: int | None = None
    """None: no big gin."""
    shutout: str = "bonus"
    shutout_game_bonus: int | None = None
    """None: twice ``game_bonus``."""
    next_dealer: str = "loser"
    eleven_card_start: bool = False
    retake_discard: str = "forbidden"
    last_chance: bool = False
    dead_hand_stock: int = 2
    settlement: str = "auto"


def gin_rules(variant: Any) -> GinRules:
    """``variant``'s Gin rules (built once per variant)."""
    return rules_as(variant, GinRules)


@dataclass
class GinState:
    """What a deal of Gin keeps (``deal.state_of(GinState)``)."""

    knock_limit: int = 0
    """The most deadwood one may knock with this deal (Oklahoma Gin sets it from the upcard)."""
    passes: int = 0
    """Refusals of the upcard so far, on the first turn."""
    stock_only: bool = False
    """Both players refused the upcard: the first draw is from the stock."""
    gra_block: tuple[int, int] | None = None
    """Under GRA: (seat, card id) of a card taken and thrown back at once, which that seat may take only to knock."""
    last_chance: bool = False
    """The stock is down to its last cards: the last discard may be taken only to knock with it."""
    knocker: int | None = None
    opponent: int | None = None
    """The knocker's opponent, who settles second."""
    gin: bool = False
    """The knocker's hand melds whole."""
    big_gin: bool = False
    layoffs: list[tuple[Card, int]] = field(default_factory=list)
    """The opponent's lay-offs: (card, index of the knocker's table meld it went on), in order."""


_GIN_STATE = state_key(GinState)


def gin_state(deal: Deal) -> GinState:
    """The deal's Gin state."""
    state = deal.state.get(_GIN_STATE)  # read a few times per turn: one lookup
    return state if state is not None else state_of(deal, GinState)


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
    if not gin_rules(deal.variant).eleven_card_start:
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
    if len(deal.seats) != 2:  # the offer, the knock and the settlement are between two players
        raise ValueError(
            f"a hand of Gin is played by two players, not {len(deal.seats)}: more players need a plugin that "
            "seats two in each deal (rummykit_seats_in_play), as Gin for three and Partnership Gin do"
        )
    rules = gin_rules(deal.variant)
    gin_state(deal).knock_limit = 0 if rules.gin_only else rules.knock_limit
    deal.current = non_dealer(deal)
    if len(deal.hands[deal.current]) > len(deal.hands[second_player(deal)]):
        deal.phase = "discard"  # 11-card start: the first turn is only a discard
    elif deal.discard:
        deal.phase = "offer"


def knock_limit(deal: Deal) -> int:
    """The most deadwood one may knock with in this deal."""
    return gin_state(deal).knock_limit


# -- what is legal: each of Gin's verbs checked once ---------------------------------------------------
#
# Each verb's checks (rummykit.standard.Legality: ``now`` for the position, ``cards`` for what an action names)
# answer None when Gin's rules allow it, else why not ("" when there is nothing particular to say). The
# listing builds by construction what they pass (Gin lists every legal action of its verbs, so a typed one is
# always found among them); rummykit_explain_illegal answers with their reason (standard.refuse).

NO_REASON = ""
SETTLEMENT = ("knocker-melds", "opponent-melds")
UPCARD_FIRST = "the first turn starts with the upcard: take it ('draw discard') or 'pass'"


def forbidden_discard(deal: Deal) -> Card | None:
    """The card the player to act may not discard or knock with this turn: the one just taken from the pile,
    unless ``rules.retake_discard`` lets it go back (GRA; the 50th card at the last chance)."""
    return _forbidden(deal, gin_state(deal), gin_rules(deal.variant))


def _forbidden(deal: Deal, state: GinState, rules: GinRules) -> Card | None:
    taken = deal.taken
    retake = rules.retake_discard
    if taken is None or retake == "gra" or (retake == "fiftieth-card" and state.last_chance):
        return None
    return taken


def knock_only(deal: Deal) -> bool:
    """Whether the discard the player took may only be used to knock (or go gin) this turn: at the last
    chance, or under GRA when it was their own discard."""
    return _knock_only(deal, gin_state(deal))


def _knock_only(deal: Deal, state: GinState) -> bool:
    return state.last_chance or _blocked_retake(deal, state)


def _blocked_retake(deal: Deal, state: GinState) -> bool:
    block = state.gra_block
    return bool(block and block[0] == deal.current and deal.taken is not None and deal.taken.id == block[1])


def pass_problem(deal: Deal) -> str | None:
    """``pass``: refusing the upcard on the first turn, or the last discard at the last chance."""
    if deal.phase == "offer" or (deal.phase == "draw" and gin_state(deal).last_chance):
        return None
    return NO_REASON


def draw_stock_problem(deal: Deal) -> str | None:
    """Gin's own rule for drawing from the stock (besides the kernel's own check): not on the first turn's
    upcard offer, nor at the last chance (the stock's last cards are never drawn)."""
    if deal.phase == "offer":
        return UPCARD_FIRST
    if deal.phase == "draw" and gin_state(deal).last_chance:
        return "the stock is down to its last cards: take the last discard to knock or go gin with it, or pass"
    return None


def draw_discard_problem(deal: Deal) -> str | None:
    """Gin's own rules for taking the pile's top card at the draw (besides the kernel's own check): at the
    last chance, or under GRA your own discard, only to knock with it; after both refused the upcard, never."""
    return _draw_discard_problem(deal, gin_state(deal))


def _draw_discard_problem(deal: Deal, state: GinState) -> str | None:
    if deal.phase != "draw" or not deal.discard:
        return None
    if state.last_chance:
        if _can_knock_after_taking(deal):
            return None
        return "the stock is down to its last cards: the last discard may be taken only to knock or go gin with it"
    block = state.gra_block
    if block and block[0] == deal.current and deal.discard[-1].id == block[1] and not _can_knock_after_taking(deal):
        return "you discarded that card yourself: you may take it back only to knock this turn"
    if state.stock_only:
        return "both players refused the upcard: the non-dealer draws from the stock"
    return None


def discard_now(deal: Deal) -> str | None:
    """Gin's own rules for ``discard`` in this position (besides the kernel's own check): not on the first turn's
    upcard offer, none when the card taken may only be knocked with."""
    if deal.phase == "offer":
        return UPCARD_FIRST
    if deal.phase != "discard":
        return None
    state = gin_state(deal)
    if state.last_chance:
        return "the stock is down to its last cards: the discard you took may be used only to knock or go gin"
    if _blocked_retake(deal, state):
        return "you took back the card you discarded: this turn you may only knock with it"
    return None


def taken_back(deal: Deal, action: Action) -> str | None:
    """A ``discard`` or ``knock`` naming the card that may not be discarded this turn (:func:`forbidden_discard`)."""
    forbidden = forbidden_discard(deal) if deal.phase == "discard" and action.cards else None
    if forbidden is not None and action.cards[0].face == forbidden.face:
        return f"{forbidden} was just taken from the discard pile and may not be discarded this turn"
    return None


def knock_now(deal: Deal) -> str | None:
    """``knock``: after the draw (a discard follows it), not on the first turn's upcard offer."""
    if deal.phase == "offer":
        return UPCARD_FIRST
    if deal.phase == "draw":
        return "draw a card first"
    return None if deal.phase == "discard" else NO_REASON


def knock_cards(deal: Deal, action: Action) -> str | None:
    """``knock C``: ``C`` may be discarded now and discarding it leaves deadwood within the knock limit. A
    bare ``knock`` with no card to knock with is told the least deadwood a discard leaves."""
    limit = knock_limit(deal)
    hand = deal.hands[deal.current]
    if not action.cards:
        forbidden = forbidden_discard(deal)
        after = deal.variant.meld_search.discard_deadwoods(hand)
        allowed = [d for card, d in zip(hand, after) if forbidden is None or card.face != forbidden.face]
        if not allowed or min(allowed) <= limit:
            return NO_REASON  # knocking is legal: only the card is missing
        return f"after your best discard your deadwood is {min(allowed)}; knocking needs {limit} or less"
    if len(action.cards) != 1 or action.target is not None or action.groups:
        return NO_REASON
    reason = taken_back(deal, action)
    if reason is not None:
        return reason
    card = action.cards[0]
    deadwood = deal.variant.meld_search.deadwood([c for c in hand if c.face != card.face])
    if deadwood > limit:
        return f"after that discard your deadwood is {deadwood}; knocking needs {limit} or less"
    return None


def knock_problem(deal: Deal, action: Action) -> str | None:
    """``knock C``'s check (:data:`LEGALITY`): None when it is legal, else why not."""
    return KNOCK_RULE.problem(deal, action)


def big_gin_problem(deal: Deal) -> str | None:
    """``big gin``: where the rules score it, after the draw, all eleven cards of the hand melded."""
    return _big_gin_problem(deal, gin_rules(deal.variant))


def _big_gin_problem(deal: Deal, rules: GinRules) -> str | None:
    if deal.phase != "discard" or rules.big_gin_bonus is None:
        return NO_REASON
    hand = deal.hands[deal.current]
    if len(hand) != 11 or deal.variant.meld_search.deadwood(hand) != 0:
        return "big gin needs all eleven cards of your hand in melds"
    return None


def done_problem(deal: Deal) -> str | None:
    """``done`` after a knock: the knocker's unmelded cards count no more than the knock limit; the
    other player may always be done."""
    if deal.phase == "knocker-melds":
        limit = knock_limit(deal)
        if deadwood_in_hand(deal, deal.current) > limit:
            return f"your unmelded cards count more than the knock limit {limit}: meld more"
        return None
    return None if deal.phase == "opponent-melds" else NO_REASON


def settlement_meld_cards(deal: Deal, action: Action) -> str | None:
    """``meld`` after a knock: a valid meld from the hand; the knocker's leaving deadwood within the limit."""
    if not action.cards:
        return "your hand makes no meld to spread"
    if action.target is not None or action.groups:
        return NO_REASON
    search = deal.variant.meld_search
    if search.meld(action.cards) is None:
        return f"{action.cards_text()} is not a valid meld"
    if deal.phase == "knocker-melds":
        faces = {c.face for c in action.cards}
        rest = search.deadwood([c for c in deal.hands[deal.current] if c.face not in faces])
        limit = knock_limit(deal)
        if rest > limit:
            return f"after that meld your deadwood would be {rest}, more than the knock limit {limit}"
    return None


def settlement_layoff_now(deal: Deal) -> str | None:
    """``layoff`` after a knock: by the knocker's opponent, after the knocker's spread, unless it was gin."""
    if deal.phase != "opponent-melds":
        return "only the knocker's opponent lays off, after the knocker has spread"
    if gin_state(deal).gin:
        return "nothing is laid off on a gin hand"
    return None


def settlement_layoff_cards(deal: Deal, action: Action) -> str | None:
    """``layoff C on N`` after a knock: one card of the hand that fits one of the knocker's melds."""
    target = action.target
    if not action.cards or target is None:
        return "no card of your hand fits the knocker's melds"
    if len(action.cards) != 1 or action.groups:
        return "lay off one card at a time"
    if not 0 <= target < len(deal.table):
        return f"there is no table meld {target}"
    table_meld = deal.table[target]
    if table_meld.owner != gin_state(deal).knocker:
        return "cards are laid off only on the knocker's melds"
    if deal.variant.meld_search.extend(table_meld.meld, list(action.cards)) is None:
        return f"{action.cards_text()} does not fit table meld {target} ({table_meld.meld})"
    return None


def _upcard_first(deal: Deal) -> str | None:
    return UPCARD_FIRST if deal.phase == "offer" else None


KNOCK_RULE = Legality("knock", knock_now, knock_cards, "name the card you discard", True)
LEGALITY: dict[str, Legality] = {
    "pass": Legality("pass", pass_problem),
    "knock": KNOCK_RULE,
    "big gin": Legality("big gin", big_gin_problem),
    "done": Legality("done", done_problem),
    # Gin's own rules on the plain turn's verbs: when they have nothing to say, the kernel's check does.
    "draw": Legality("draw", _upcard_first),
    "draw stock": Legality("draw stock", draw_stock_problem),
    "draw discard": Legality("draw discard", draw_discard_problem),
    "discard": Legality("discard", discard_now, taken_back),
}
"""Gin's verbs, and its rules on the plain turn's, each with its one check (:class:`~rummykit.standard.Legality`)."""
SETTLEMENT_LEGALITY: dict[str, Legality] = {
    **LEGALITY,
    # after a knock both players spread, each in turn: the phase decides, and this dict is the phase's
    "meld": Legality("meld", any_time, settlement_meld_cards, "name its cards", True),
    "layoff": Legality(
        "layoff", settlement_layoff_now, settlement_layoff_cards, "name the card and the table meld", True
    ),
}
"""After a knock (phases ``knocker-melds`` and ``opponent-melds``), melds and lay-offs are Gin's own too."""


def legality(deal: Deal) -> dict[str, Legality]:
    """The checks of the verbs Gin states in this position (:data:`LEGALITY` or :data:`SETTLEMENT_LEGALITY`)."""
    return SETTLEMENT_LEGALITY if deal.phase in SETTLEMENT else LEGALITY


@hookimpl
def rummykit_legal_actions(deal: Deal, actions: list[Action]) -> None:
    """Gin's verbs, each listed as its check allows it, and the plain turn's draws and discards filtered by
    Gin's rules for them."""
    phase = deal.phase
    if phase == "offer":
        actions[:] = [DRAW_DISCARD, PASS]
    elif phase == "draw":
        state = gin_state(deal)
        take = _draw_discard_problem(deal, state) is None
        if state.last_chance:  # no stock draw: the last discard is taken to knock with it, or the hand is dead
            actions[:] = [DRAW_DISCARD, PASS] if take else [PASS]
        elif not take:
            actions[:] = [a for a in actions if a.kind != "draw discard"]
    elif phase == "discard":
        state = gin_state(deal)
        rules = gin_rules(deal.variant)
        hand = deal.hands[deal.current]
        forbidden = _forbidden(deal, state, rules)
        if _knock_only(deal, state):
            del actions[:]
        elif forbidden is not None:
            actions[:] = [a for a in actions if a.kind != "discard" or a.cards[0] is not forbidden]
        # The knocks knock_problem passes: a card that may be discarded leaving the deadwood within the limit.
        limit = state.knock_limit
        distinct = distinct_cards(deal, hand)
        # The deadwood after each discard is the whole hand's less that card (with two decks, its copy stays).
        after = deal.variant.meld_search.discard_deadwoods_within(hand, limit)
        if after is not None and len(distinct) < len(hand):
            by_card = {card.id: deadwood for card, deadwood in zip(hand, after)}
            after = [by_card[card.id] for card in distinct]
        for card, deadwood in zip(distinct, after or ()):
            if deadwood <= limit and card is not forbidden:
                actions.append(Action.of("knock", card))
        if _big_gin_problem(deal, rules) is None:
            actions.append(BIG_GIN)
    elif phase in SETTLEMENT:
        actions[:] = _settlement_actions(deal, knocker=phase == "knocker-melds")


def _can_knock_after_taking(deal: Deal) -> bool:
    """Whether the current player, taking the top discard, could knock (or go gin) at once: discarding
    another card, or the same one where the retake rule allows (GRA, and the 50th card at the last chance)."""
    hand = deal.hands[deal.current] + [deal.discard[-1]]
    search = deal.variant.meld_search
    after = search.discard_deadwoods(hand)
    rules = gin_rules(deal.variant)
    state = gin_state(deal)
    retake = rules.retake_discard
    same_card_ok = retake == "gra" or (retake == "fiftieth-card" and state.last_chance)
    if not same_card_ok:
        after = after[:-1]
    if min(after, default=state.knock_limit + 1) <= state.knock_limit:
        return True
    return rules.big_gin_bonus is not None and len(hand) == 11 and search.deadwood(hand) == 0


def _settlement_actions(deal: Deal, knocker: bool) -> list[Action]:
    """After a knock, what :func:`settlement_meld_problem`, :func:`settlement_layoff_problem` and
    :func:`done_problem` pass: the melds of the hand (the knocker's within the limit), the opponent's
    one-card lay-offs on the knocker's melds (none on gin), and ``done``."""
    search = deal.variant.meld_search
    seat = deal.current
    hand = deal.hands[seat]
    result: list[Action] = []
    state = gin_state(deal)
    limit = state.knock_limit
    for meld in search.candidate_melds(hand):
        rest = list(hand)
        for card in meld.cards:
            rest.remove(card)
        # The knocker may only spread so that the knock stays within the limit.
        if not knocker or search.deadwood(rest) <= limit:
            result.append(Action("meld", meld.cards))
    if not knocker and not state.gin:
        for index, table_meld in enumerate(deal.table):
            if table_meld.owner != state.knocker:
                continue
            for card in distinct_cards(deal, hand):
                if search.extend(table_meld.meld, [card]) is not None:
                    result.append(Action("layoff", (card,), index))
    if not knocker or sum(deal.variant.value(c) for c in hand) <= limit:
        result.append(DONE)
    return result


@hookimpl
def rummykit_explain_illegal(deal: Deal, action: Action) -> str | None:
    return refuse(legality(deal), deal, action)


# -- carrying out actions ---------------------------------------------------------------------------


_PLAIN_VERBS = frozenset({"draw stock", "draw discard", "discard"})


@hookimpl
def rummykit_apply_action(deal: Deal, action: Action) -> bool | None:
    kind = action.kind
    if kind in _PLAIN_VERBS and deal.phase not in SETTLEMENT:
        return None  # the plain turn's draws and discards: the kernel carries them out
    state = gin_state(deal)
    seat = deal.current
    if kind == "pass":
        if state.last_chance:
            deal.finish("dead")
        elif deal.phase == "offer" and state.passes == 0 and seat != second_player(deal):
            state.passes = 1
            deal.current = second_player(deal)
        else:
            deal.current = non_dealer(deal)
            deal.phase = "draw"
            state.stock_only = True
        return True
    if kind in ("knock", "big gin"):
        state.gra_block = None
        if kind == "knock":
            card = action.cards[0]
            deal.take_from_hand(seat, [card])
            deal.discard.append(card)
            deal.face_down.add(card.id)
        else:
            state.big_gin = True
        state.knocker = seat
        opponent = deal.opponents(seat)[0]
        state.opponent = opponent
        state.gin = deal.variant.meld_search.deadwood(deal.hands[seat]) == 0
        if gin_rules(deal.variant).settlement == "manual":
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
            state.layoffs.append((action.cards[0], action.target))
        elif kind == "done":
            if deal.phase == "knocker-melds":
                state.gin = not deal.hands[seat]
                assert state.opponent is not None
                deal.phase = "opponent-melds"
                deal.current = state.opponent
            else:
                deal.finish("knock")
        return True
    return None


@hookimpl
def rummykit_turn_ended(deal: Deal, seat: int) -> None:
    rules = gin_rules(deal.variant)
    state = gin_state(deal)
    # The turn ends with a discard (a knock ends the hand). Under GRA a card taken and thrown back at
    # once may be taken again by the next player only to knock with it.
    state.gra_block = None
    # After both refused the upcard, the non-dealer's first draw was from the stock: that rule is spent.
    # (Every plugin's turn_ended runs, whichever plugin carried out the draw.)
    state.stock_only = False
    if rules.retake_discard == "gra" and deal.taken is not None and deal.discard[-1] is deal.taken:
        state.gra_block = (deal.next_seat(seat), deal.taken.id)
    if state.last_chance:
        return
    if len(deal.stock) <= rules.dead_hand_stock:
        if _last_chance_rule(rules):
            state.last_chance = True
        else:
            deal.finish("dead")


def _last_chance_rule(rules: GinRules) -> bool:
    """When the stock is down to its last cards, the last discard may still be taken to knock with it."""
    return rules.retake_discard == "fiftieth-card" or rules.last_chance


@hookimpl
def rummykit_stock_exhausted(deal: Deal) -> str:
    """The stock ran out (``dead_hand_stock: 0``; the kernel asks before Gin's turn end above): the hand is
    dead as at any other stock count, or plays on for the last chance to take the discard."""
    if _last_chance_rule(gin_rules(deal.variant)) and not gin_state(deal).last_chance:
        return ""
    return "dead"


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

    try:
        value, chain = walk(list(cards), list(knocker_melds))
    finally:
        walk = None  # type: ignore[assignment]  # (the function refers to itself: no cycle left behind)
    laid = {card.id for card, _ in chain}
    arrangement = search.arrange([c for c in cards if c.id not in laid])
    assert arrangement.deadwood_value == value
    return Reply(arrangement.melds, chain, value)


def knock_points(deal: Deal, knocker_deadwood: int, opponent_deadwood: int, gin: bool) -> tuple[str, int, bool]:
    """(kind, points, knocker_wins) for a knock settled with these deadwood counts."""
    rules = gin_rules(deal.variant)
    if gin:
        points = rules.gin_bonus + opponent_deadwood
        if gin_state(deal).big_gin:
            return "big-gin", points + (rules.big_gin_bonus or 0), True
        return "gin", points, True
    if knocker_deadwood < opponent_deadwood:
        return "knock", opponent_deadwood - knocker_deadwood, True
    return "undercut", knocker_deadwood - opponent_deadwood + rules.undercut_bonus, False


def settle_automatically(deal: Deal, knocker: int, opponent: int) -> None:
    """Spread both hands as strong players would and lay the result out on the table.

    The knocker picks, among arrangements within the knock limit, the one with the best result against
    the opponent's best reply (least deadwood breaking ties); the opponent then replies."""
    search = deal.variant.meld_search
    knocker_cards = deal.hands[knocker]
    opponent_cards = deal.hands[opponent]
    state = gin_state(deal)
    limit = state.knock_limit
    best: tuple[tuple[int, int], Arrangement, Reply] | None = None
    if state.gin:
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
    state.layoffs = list(reply.layoffs)


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
    state = gin_state(deal)
    knocker, opponent = state.knocker, state.opponent
    assert knocker is not None and opponent is not None
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
        "knock_limit": state.knock_limit,
        "melds": {str(seat): [str(tm.meld) for tm in deal.table if tm.owner == seat] for seat in (knocker, opponent)},
        "unmatched": {str(seat): [str(c) for c in sorted(deal.hands[seat])] for seat in (knocker, opponent)},
        "layoffs": [f"{card} on {index}" for card, index in state.layoffs],
        "multiplier": multiplier,
    }
    return HandResult(deal.number, kind, tuple(scores), winner, deal.dealer, details, tuple(boxes))


@hookimpl
def rummykit_next_dealer(game: Game, result: HandResult) -> int | None:
    if result.winner is None:
        return result.dealer  # a dead hand is dealt again by the same dealer
    rule = gin_rules(game.variant).next_dealer
    if rule == "winner":
        return result.winner
    if rule == "alternate":
        return game.deal.next_seat(result.dealer)
    losers = [seat for seat in game.deal.seats if seat != result.winner]
    return losers[0] if len(losers) == 1 else None


@hookimpl
def rummykit_score_game(game: Game) -> list[tuple[int, str, int]]:
    rules = gin_rules(game.variant)
    totals = game.hand_totals()
    winner = max(range(game.num_players), key=lambda s: totals[s])
    hands_won = [sum(1 for r in game.results if r.winner == seat) for seat in range(game.num_players)]
    shutout = all(hands_won[seat] == 0 for seat in range(game.num_players) if seat != winner)
    bonuses: list[tuple[int, str, int]] = []
    if shutout and rules.shutout == "bonus":
        game_bonus = rules.shutout_game_bonus if rules.shutout_game_bonus is not None else 2 * rules.game_bonus
        bonuses.append((winner, "game (shutout)", game_bonus))
    else:
        bonuses.append((winner, "game", rules.game_bonus))
        if shutout:
            bonuses.append((winner, "shutout (score doubled)", totals[winner] + rules.game_bonus))
    for seat in range(game.num_players):
        boxes = sum(r.boxes[seat] for r in game.results if r.boxes)
        if boxes:
            bonuses.append((seat, f"boxes ({boxes})", boxes * rules.box_bonus))
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
    elif phase == "draw" and gin_state(deal).last_chance:
        words.hint = (
            "the stock is down to its last cards: take the discard to knock or go gin with it (draw discard), "
            "or pass and the hand is dead"
            if any(a.kind == "draw discard" for a in deal.legal_actions())
            else "the stock is down to its last cards and the discard would not let you knock: pass (the hand is dead)"
        )
    elif phase == "discard" and seat == deal.actor and any(a.kind == "knock" for a in deal.legal_actions()):
        words.hint = "discard a card, or knock"
    words.facts.append(f"Knock limit: {knock_limit(deal)}")
    big_gin = ("big gin",) if gin_rules(deal.variant).big_gin_bonus is not None else ()  # named where it is played
    words.verbs.extend(("pass", "knock", *big_gin, "meld", "layoff", "done"))


@hookimpl
def rummykit_verbs(variant: Any) -> list[Verb]:
    """Passing on the upcard, knocking with the card discarded face down, big gin (declared whether or not the
    ruleset pays it: the environments' action space is the same with the house rule or without), and after a
    knock the other seat's melds, lay-offs and ``done``."""
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
        knocker = gin_state(deal).knocker
        assert knocker is not None
        view["knocker"] = knocker
        if seat != knocker:
            unmatched = [str(c) for c in sorted(deal.hands[knocker])] if deal.phase == "opponent-melds" else None
            view["knocker_unmatched"] = unmatched
            if unmatched:
                view["shown"] = [*view.get("shown", ()), {"label": "Knocker's unmatched cards", "cards": unmatched}]
