"""Conquian: what its ruleset's data does not express. See the package's README.

A turn, for the player whose turn it is (``deal.current``):

1. If a card lies face up (the opponent's discard, or the card the opponent turned and passed), he may take
   it by melding it at once, or ``pass`` it: it is turned down and he turns the stock's top card face up
   (``turn 5H``, a move the rules make).
2. A card he turned himself he may meld at once, or ``pass``: it stays face up for the opponent, and his
   turn is over.
3. Melding the face-up card (``meld 5H 5C 5D``, ``layoff 5H on 1``) may use cards from his hand and cards
   of his own melds, as long as every group left on his side is valid (``meld 7S 7D 7H`` taking 7H off a
   run 4H-7H). The face-up card never enters the hand. Then he discards a card from his hand, face up.
4. Forcing (``rules.forcing``): when a player passes a face-up card that would extend one of his melds,
   his opponent may ``force`` him to meld it (then he discards), or ``waive``.
5. He who has eleven cards melded (his hand empty after melding the face-up card) wins the hand. When a
   card is passed and the stock is empty, the hand is a tie; the next hand's stake doubles under
   ``rules.after_tie: double``. A win scores the hand's stake; a game is won at ``target`` points.

Cards are moved with the public members of :class:`rummykit.engine.Deal` only.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rummykit import hookimpl
from rummykit.actions import Action, ActionWords, PositionWords, Verb
from rummykit.cards import Card
from rummykit.engine import Deal, Game, HandResult, TableMeld
from rummykit.melds import Meld, MeldRules
from rummykit.standard import NO_REASON, Legality, refuse
from rummykit.variant import Variant

RULES_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "forcing": {
            "type": "boolean",
            "description": "a passed face-up card that would extend the passer's meld may be forced on him",
        },
        "after_tie": {
            "enum": ["double", "same"],
            "description": "double: the hand after a tie (stock exhausted) counts double; same: it counts once",
        },
    },
}

FACE_UP = "face-up"
"""Phase: the current player melds the face-up card or passes it."""
FORCING = "forcing"
"""Phase: the passer's opponent (``deal.responder``) forces the passed card on him, or waives."""
DISCARD = "discard"
"""Phase: after melding the face-up card, a discard from hand (or a rearrangement of one's own melds)."""
TURN = "turn"
"""Phase: the stock's top card is turned face up (a move the rules make)."""

PASS = Action("pass")
FORCE = Action("force")
WAIVE = Action("waive")
TIE = "exhausted"
"""The kind of a hand that ended with the stock exhausted: a tie."""


# -- rules and per-deal state -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ConquianRules:
    """Conquian's ``rules`` block (:data:`RULES_SCHEMA`), read once per variant (``variant.rules_as``); a key
    left out has its default."""

    forcing: bool = True
    after_tie: str = "double"


def conquian_rules(variant: Variant) -> ConquianRules:
    """``variant``'s Conquian rules (built once per variant)."""
    return variant.rules_as(ConquianRules)


@dataclass
class ConquianState:
    """What a hand of Conquian keeps (``deal.state_of(ConquianState)``)."""

    stake: int = 1
    """What the hand scores: 1, or 2 after a tie under ``after_tie: double``."""
    turned_by: int | None = None
    """The seat that turned, passed or discarded the face-up card."""
    forced: bool = False
    """The player on turn was forced to meld the face-up card."""


def conquian_state(deal: Deal) -> ConquianState:
    """The deal's Conquian state."""
    return deal.state_of(ConquianState)


OWN_TURN: dict[str, Any] = {
    "discard_pile": "squared",
    "turn.end": "discard",
    "turn.discard_to": "pile",
    "draw.from_pile": "top",
    "draw.must_use": "none",
    "draw.top_layoff": False,
    "draw.empty_stock": "end",
    "table.melds": True,
    "table.layoff": "own",
    "table.discard_to_go_out": "optional",
    "table.exchange": "none",
}
"""The kernel's turn values as Conquian's own turn (the module's text) plays them. Its phases replace the
kernel's turn, so another value would change nothing: it is refused (:func:`rummykit_ruleset_problems`)."""


@hookimpl
def rummykit_ruleset_problems(ruleset: dict[str, Any]) -> list[tuple[str, str]]:
    """The kernel's turn values other than Conquian's (:data:`OWN_TURN`): its own turn would ignore them."""
    problems = []
    for path, own in OWN_TURN.items():
        block, _, key = path.rpartition(".")
        values = ruleset.get(block, {}) if block else ruleset
        if key in values and values[key] != own:
            message = f"Conquian plays its own turn (turn up, meld or pass, then discard), which {path} does not change"
            shown = str(own).lower() if isinstance(own, bool) else own  # as a ruleset writes it
            problems.append((path, f"{message}: expected {shown}"))
    return problems


@hookimpl
def rummykit_rules_schema() -> dict[str, Any]:
    return RULES_SCHEMA


# -- melds ------------------------------------------------------------------------------------------------------


def _set_max(melds: MeldRules) -> int:
    return melds.set_max or 4


def _run_max(melds: MeldRules) -> int:
    return melds.run_max or len(melds.order)


def as_meld(melds: MeldRules, cards: Iterable[Card]) -> Meld | None:
    """``cards`` as a valid Conquian meld (a set of one rank, or a run of one suit in run order), or None.
    ``melds`` is the variant's ``meld_search.rules``: its sizes, and its run order (J follows 7), in which a
    rank the pack does not hold has no place (``position`` 0)."""
    cards = list(cards)
    if len({c.id for c in cards}) != len(cards):
        return None
    if any(not melds.position(c.rank) for c in cards):
        return None
    if len({c.rank for c in cards}) == 1:
        if not melds.set_min <= len(cards) <= _set_max(melds) or len({c.suit for c in cards}) != len(cards):
            return None
        cards.sort(key=lambda c: c.suit)
        return Meld("set", tuple(cards), tuple(c.rank for c in cards))
    if len({c.suit for c in cards}) != 1 or not melds.run_min <= len(cards) <= _run_max(melds):
        return None
    cards.sort(key=lambda c: melds.position(c.rank))
    places = [melds.position(c.rank) for c in cards]
    if places != list(range(places[0], places[0] + len(places))):
        return None
    return Meld("run", tuple(cards), tuple(c.rank for c in cards), cards[0].suit)


def pieces(melds: MeldRules, meld: Meld, removed: set[int]) -> list[Meld] | None:
    """What is left of ``meld`` without the cards whose ids are ``removed``, as valid melds (a run may split
    into two), or None when something left is no meld."""
    left = [c for c in meld.cards if c.id not in removed]
    if not left:
        return []
    if meld.kind != "run":
        whole = as_meld(melds, left)
        return [whole] if whole is not None else None
    groups: list[list[Card]] = [[left[0]]]
    for card in left[1:]:
        if melds.position(card.rank) == melds.position(groups[-1][-1].rank) + 1:
            groups[-1].append(card)
        else:
            groups.append([card])
    result = [as_meld(melds, group) for group in groups]
    return None if any(m is None for m in result) else [m for m in result if m is not None]


def extends(melds: MeldRules, meld: Meld, card: Card) -> bool:
    """Whether ``card`` alone would extend ``meld``."""
    return as_meld(melds, (*meld.cards, card)) is not None


# -- the face-up card -------------------------------------------------------------------------------------------


def face_up(deal: Deal) -> Card | None:
    """The card lying face up, if one does: the pile holds it alone (cards refused are out of play)."""
    return deal.discard[-1] if deal.discard else None


def turned_by(deal: Deal) -> int | None:
    """The seat that turned, passed or discarded the face-up card."""
    return conquian_state(deal).turned_by


def own_melds(deal: Deal, seat: int) -> list[int]:
    """The indexes of ``seat``'s melds on the table."""
    return [i for i, tm in enumerate(deal.table) if tm.owner == seat]


def melded_count(deal: Deal, seat: int) -> int:
    """How many cards ``seat`` has melded."""
    return sum(len(deal.table[i].meld.cards) for i in own_melds(deal, seat))


def would_extend(deal: Deal, seat: int, card: Card) -> bool:
    """Whether ``card`` alone would extend one of ``seat``'s melds (what makes it forcible)."""
    melds = deal.variant.meld_search.rules
    return any(extends(melds, deal.table[i].meld, card) for i in own_melds(deal, seat))


# -- a play: melding the face-up card, or rearranging one's melds -------------------------------------------------


@dataclass(frozen=True)
class Play:
    """A meld or lay-off checked against the position: where each card comes from and what it makes."""

    result: Meld
    """The new meld, or the target meld grown."""
    target: int | None
    from_hand: tuple[Card, ...]
    from_table: dict[int, tuple[Card, ...]]
    """Own table meld index -> the cards taken off it."""
    left: dict[int, list[Meld]]
    """Own table meld index -> what is left of it (one or two melds, or none)."""
    face_up: Card | None


def plan(deal: Deal, action: Action) -> Play | str:
    """Check ``action`` (``meld`` or ``layoff``) for the current player: the play it makes, or why not."""
    seat = deal.current
    melds = deal.variant.meld_search.rules
    if action.kind not in ("meld", "layoff") or not action.cards:
        return f"{action.kind} is not a play"
    if deal.phase not in (FACE_UP, DISCARD) or deal.responder is not None:
        return "you may meld only when you hold the face-up card's decision, or rearrange after melding it"
    card_up = face_up(deal) if deal.phase == FACE_UP else None
    where: dict[int, int] = {}
    for index in own_melds(deal, seat):
        for card in deal.table[index].meld.cards:
            where[card.id] = index
    hand = {c.id for c in deal.hands[seat]}
    if len({c.id for c in action.cards}) != len(action.cards):
        return "a card is named twice"
    target = action.target
    if action.kind == "layoff":
        if target is None or not 0 <= target < len(deal.table):
            return f"there is no table meld {target}"
        if deal.table[target].owner != seat:
            return f"meld {target} is not yours: you add only to your own melds"
    from_hand: list[Card] = []
    from_table: dict[int, list[Card]] = {}
    for card in action.cards:
        if card_up is not None and card is card_up:
            continue
        if card.id in hand:
            from_hand.append(card)
        elif card.id in where and where[card.id] != target:
            from_table.setdefault(where[card.id], []).append(card)
        else:
            up = f" the face-up card ({card_up})," if card_up is not None else ""
            return f"{card} is neither{up} in your hand nor in another of your melds"
    if deal.phase == FACE_UP:
        assert card_up is not None
        if card_up not in action.cards:
            return f"the face-up card {card_up} must be in it: it is taken only by melding it at once"
    elif from_hand:
        return "cards from your hand reach the table only with the face-up card; now discard, or rearrange your melds"
    cards = list(action.cards)
    if action.kind == "layoff":
        assert target is not None
        cards += deal.table[target].meld.cards
    result = as_meld(melds, cards)
    if result is None:
        return f"{' '.join(map(str, cards))} is no valid set or run"
    left: dict[int, list[Meld]] = {}
    for index, taken in from_table.items():
        rest = pieces(melds, deal.table[index].meld, {c.id for c in taken})
        if rest is None:
            return f"taking {' '.join(map(str, taken))} off meld {index} leaves a group that is no valid meld"
        left[index] = rest
    return Play(
        result,
        target,
        tuple(from_hand),
        {i: tuple(cs) for i, cs in from_table.items()},
        left,
        card_up if card_up is not None and card_up in action.cards else None,
    )


def carry_out(deal: Deal, seat: int, play: Play) -> None:
    """Move the cards of ``play`` onto ``seat``'s side of the table."""
    deal.take_from_hand(seat, play.from_hand)
    if play.face_up is not None:
        deal.discard.remove(play.face_up)
    gone: list[int] = []
    for index, rest in play.left.items():
        if not rest:
            gone.append(index)
            continue
        _regroup(deal.table[index], rest[0])
        for piece in rest[1:]:
            deal.table.append(_new_meld(seat, piece))
    if play.target is not None:
        grown = deal.table[play.target]
        _regroup(grown, play.result)
    else:
        deal.table.append(_new_meld(seat, play.result))
    for index in sorted(gone, reverse=True):
        del deal.table[index]


def _new_meld(seat: int, meld: Meld) -> TableMeld:
    ids = frozenset(c.id for c in meld.cards)
    return TableMeld(meld, seat, {c.id: seat for c in meld.cards}, len(meld.cards), ids)


def _regroup(table_meld: TableMeld, meld: Meld) -> None:
    table_meld.meld = meld
    table_meld.credits = {c.id: table_meld.owner for c in meld.cards}
    table_meld.first_ids = table_meld.first_ids & {c.id for c in meld.cards}


def use_actions(deal: Deal) -> list[Action]:
    """The plays that meld the face-up card: new sets and runs with it, and lay-offs on one's own melds, from
    the hand and from one's melds (each checked by :func:`plan`)."""
    card = face_up(deal)
    if card is None:
        return []
    seat = deal.current
    melds = deal.variant.meld_search.rules
    set_max, run_max = _set_max(melds), _run_max(melds)
    mine = own_melds(deal, seat)
    pool = list(deal.hands[seat]) + [c for i in mine for c in deal.table[i].meld.cards]
    candidates: list[Action] = []
    same_rank = [c for c in pool if c.rank == card.rank]
    for size in range(melds.set_min - 1, set_max):
        for others in itertools.combinations(same_rank, size):
            candidates.append(Action("meld", (card, *others)))
    by_place = {melds.position(c.rank): c for c in pool if c.suit == card.suit and melds.position(c.rank)}
    here = melds.position(card.rank) or None  # 0: a rank in no run
    if here is not None:
        for low in range(here - run_max + 1, here + 1):
            for high in range(max(here, low + melds.run_min - 1), low + run_max):
                window = [p for p in range(low, high + 1) if p != here]
                if all(p in by_place for p in window):
                    candidates.append(Action("meld", (card, *(by_place[p] for p in window))))
    for index in mine:
        meld = deal.table[index].meld
        inside = {c.id for c in meld.cards}
        if meld.kind == "set" and card.rank == meld.ranks[0]:
            candidates.append(Action("layoff", (card,), index))
        elif meld.kind == "run" and card.suit == meld.suit and here is not None:
            first, last = melds.position(meld.cards[0].rank), melds.position(meld.cards[-1].rank)
            low, high = min(first, here), max(last, here)
            window = [p for p in range(low, high + 1) if p != here and not first <= p <= last]
            if all(p in by_place and by_place[p].id not in inside for p in window):
                candidates.append(Action("layoff", (card, *(by_place[p] for p in window)), index))
    listed: list[Action] = []
    for action in candidates:
        if isinstance(plan(deal, action), Play) and not any(action.same_as(a) for a in listed):
            listed.append(action)
    return listed


# -- the deal ---------------------------------------------------------------------------------------------------


@hookimpl
def rummykit_start_hand(deal: Deal) -> None:
    results = deal.game.results
    tied = bool(results) and results[-1].kind == TIE
    conquian_state(deal).stake = 2 if tied and conquian_rules(deal.variant).after_tie == "double" else 1
    deal.phase = TURN


@hookimpl
def rummykit_turn_started(deal: Deal, seat: int) -> None:
    conquian_state(deal).forced = False
    deal.phase = FACE_UP if face_up(deal) is not None else TURN


@hookimpl
def rummykit_automatic_action(deal: Deal) -> Action | None:
    """Step 1: with no face-up card to decide on, the player turns the stock's top card face up."""
    if deal.phase != TURN or not deal.stock or deal.result is not None:
        return None
    return Action.of(TURN, deal.stock[-1])


# -- what is legal: each verb's check, stated once ----------------------------------------------------------------


def _answer_first(deal: Deal) -> str:
    return f"answer first: force {deal.game.names[deal.current]} to meld {face_up(deal)}, or waive"


def _face_up_or_discard(deal: Deal) -> str | None:
    """``meld`` and ``layoff``: the face-up card's decision, or a rearrangement after melding it."""
    if deal.phase == FORCING:
        return _answer_first(deal)
    return None if deal.phase in (FACE_UP, DISCARD) else NO_REASON


def play_problem(deal: Deal, action: Action) -> str | None:
    """Why ``action`` (``meld`` or ``layoff``) is no play in this position (:func:`plan`), or None."""
    found = plan(deal, action)
    return found if isinstance(found, str) else None


def pass_now(deal: Deal) -> str | None:
    """``pass``: the face-up card's decision, unless the player is forced to meld it."""
    if deal.phase == FORCING:
        return _answer_first(deal)
    if deal.phase == DISCARD:
        return "you melded the face-up card: now discard a card from your hand"
    if deal.phase != FACE_UP:
        return NO_REASON
    return f"you are forced to meld {face_up(deal)}" if conquian_state(deal).forced else None


def answer_now(deal: Deal) -> str | None:
    """``force`` and ``waive``: the passer's opponent answers a forcible pass."""
    return None if deal.phase == FORCING else NO_REASON


def discard_now(deal: Deal) -> str | None:
    """``discard``: after melding the face-up card."""
    if deal.phase == FORCING:
        return _answer_first(deal)
    if deal.phase == FACE_UP:
        return f"meld the face-up card {face_up(deal)} first (a discard follows a meld), or pass it"
    return None if deal.phase == DISCARD else NO_REASON


def draw_now(deal: Deal) -> str | None:
    """``draw stock`` and ``draw discard``: never (the face-up card is melded at once, or passed)."""
    if deal.phase == FORCING:
        return _answer_first(deal)
    return "cards never enter the hand: meld the face-up card at once, or pass it"


LEGALITY: dict[str, Legality] = {
    rule.verb: rule
    for rule in (
        Legality("meld", _face_up_or_discard, play_problem),
        Legality("layoff", _face_up_or_discard, play_problem),
        Legality("pass", pass_now),
        Legality("force", answer_now),
        Legality("waive", answer_now),
        Legality("discard", discard_now),
        Legality("draw stock", draw_now),
        Legality("draw discard", draw_now),
        Legality("take", draw_now),  # other games' word for taking the pile
    )
}
"""Conquian's rules on every verb of its game, one :class:`~rummykit.standard.Legality` each: the listing,
the acceptance of a typed play and the words of a refusal all come from these (the kernel's own checks of a
discard still apply)."""

PHASES = (FACE_UP, FORCING, DISCARD, TURN)
"""Conquian's phases (a hand of Conquian is in one of them throughout)."""


@hookimpl
def rummykit_legal_actions(deal: Deal, actions: list[Action]) -> None:
    if deal.phase not in PHASES:
        return
    probe = deal.probe
    # The kernel's discards stay when a discard is legal now; nothing else of its listing does.
    discards = discard_now(deal) is None
    actions[:] = [a for a in actions if (discards and a.kind == "discard") or a is probe]
    if deal.phase == FACE_UP:
        actions.extend(use_actions(deal))
    if pass_now(deal) is None:
        actions.append(PASS)
    if answer_now(deal) is None:
        actions.extend((FORCE, WAIVE))
    if probe is not None and probe.kind in ("meld", "layoff") and LEGALITY[probe.kind].problem(deal, probe) is not None:
        actions[:] = [a for a in actions if a is not probe]


@hookimpl
def rummykit_check_action(deal: Deal, action: Action) -> Action | bool | None:
    """A typed play (a rearrangement, or a play the listing did not build) is accepted when its check passes."""
    if deal.phase not in PHASES:
        return None
    if action.kind in ("meld", "layoff"):
        return action if LEGALITY[action.kind].problem(deal, action) is None else False
    return False


@hookimpl
def rummykit_explain_illegal(deal: Deal, action: Action) -> str | None:
    if deal.phase not in PHASES:
        return None
    if action.kind not in LEGALITY and deal.phase == FORCING:
        return _answer_first(deal)  # any other word while the answer is due
    return refuse(LEGALITY, deal, action)


@hookimpl
def rummykit_apply_action(deal: Deal, action: Action) -> bool | None:
    kind = action.kind
    seat = deal.current
    if kind == TURN:
        card = deal.stock.pop()
        deal.discard.append(card)
        conquian_state(deal).turned_by = seat
        deal.phase = FACE_UP
    elif kind in ("meld", "layoff") and deal.phase in (FACE_UP, DISCARD):
        found = plan(deal, action)
        assert isinstance(found, Play), found
        carry_out(deal, seat, found)
        conquian_state(deal).forced = False
        if found.face_up is not None and not deal.hands[seat]:
            deal.finish("out")  # every card melded: eleven
        else:
            deal.phase = DISCARD
    elif kind == "discard" and deal.phase == DISCARD:
        deal.take_from_hand(seat, action.cards)
        deal.discard.extend(action.cards)
        conquian_state(deal).turned_by = seat
        deal.end_turn()
    elif kind == "pass":
        passed = face_up(deal)
        assert passed is not None
        if conquian_rules(deal.variant).forcing and would_extend(deal, seat, passed):
            deal.responder = _opponent(deal, seat)
            deal.phase = FORCING
        else:
            _passed(deal)
    elif kind in ("force", "waive"):
        deal.responder = None
        if kind == "force":
            conquian_state(deal).forced = True
            deal.phase = FACE_UP
        else:
            _passed(deal)
    else:
        return None
    return True


def _opponent(deal: Deal, seat: int) -> int:
    return deal.next_seat(seat)


def _passed(deal: Deal) -> None:
    """The current player lets the face-up card go: his own turned card stays face up for the opponent;
    the opponent's card is turned down and he turns the stock's next card, or, with none left, the hand
    is a tie."""
    seat = deal.current
    card = face_up(deal)
    assert card is not None
    if turned_by(deal) == seat:
        deal.end_turn()
        return
    # Turned down: out of play for the rest of the hand (both players saw it).
    deal.discard.remove(card)
    deal.set_aside.append(card)
    if not deal.stock:
        deal.finish(TIE)
        return
    deal.phase = TURN


@hookimpl
def rummykit_stock_exhausted(deal: Deal) -> str:
    """An empty stock does not end the hand when a turn ends: the face-up card may still be melded. The hand
    ends as a tie when a player passes a card and there is none to turn (:func:`_passed`)."""
    return ""


# -- scoring ----------------------------------------------------------------------------------------------------


@hookimpl
def rummykit_score_hand(deal: Deal, kind: str) -> HandResult:
    """The winner scores the hand's stake (1, or 2 after a tie under ``after_tie: double``); a tie scores
    nothing."""
    n = deal.game.num_players
    stake = conquian_state(deal).stake
    scores = [0] * n
    melded = [melded_count(deal, s) for s in range(n)]
    winner = deal.current if kind == "out" else None
    if winner is not None:
        scores[winner] = stake
    breakdown = [[("melded", str(melded[s])), ("in hand", str(len(deal.hands[s])))] for s in range(n)]
    if stake != 1:
        for s in range(n):
            breakdown[s].append(("stake", f"x{stake}"))
    details = {"stake": stake, "melded": melded, "breakdown": breakdown}
    return HandResult(deal.number, kind, tuple(scores), winner, deal.dealer, details)


@hookimpl
def rummykit_next_dealer(game: Game, result: HandResult) -> int:
    """The deal alternates."""
    return (result.dealer + 1) % game.num_players


# -- words ------------------------------------------------------------------------------------------------------


@hookimpl
def rummykit_describe_action(deal: Deal, seat: int, action: Action, viewer: int | None) -> ActionWords | None:
    kind = action.kind
    names = deal.game.names
    if kind == TURN:
        what = f" {action.cards[0]} face up from the stock"
        return ActionWords("turn" + what, "turns" + what)
    if kind == "pass":
        return ActionWords("pass the face-up card", "passes the face-up card")
    if kind == "force":
        other = names[deal.current]
        return ActionWords(f"force {other} to meld the face-up card", f"forces {other} to meld the face-up card")
    if kind == "waive":
        return ActionWords("let the face-up card pass", "lets the face-up card pass")
    if kind in ("meld", "layoff"):
        cards = " ".join(map(str, action.cards))
        # Once laid, the meld the cards went to, in order (with any cards moved from the player's other melds).
        laid = next((tm.meld for tm in deal.table if tm.owner == seat and action.cards[0] in tm.meld.cards), None)
        now = f" ({' '.join(map(str, laid.cards))})" if laid is not None and kind == "layoff" else ""
        if laid is not None and kind == "meld" and set(action.cards) == set(laid.cards):
            cards = " ".join(map(str, laid.cards))
        where = f" on meld {action.target}{now}" if kind == "layoff" else ""
        verb = "meld" if kind == "meld" else "lay off"
        they = "melds" if kind == "meld" else "lays off"
        return ActionWords(f"{verb} {cards}{where}", f"{they} {cards}{where}")
    return None


@hookimpl
def rummykit_describe_position(deal: Deal, seat: int, words: PositionWords) -> None:
    phase = deal.phase
    card = face_up(deal)
    if phase == FACE_UP and card is not None:
        if conquian_state(deal).forced:
            words.hint = f"you are forced: meld {card} (meld ..., layoff {card} on N), then discard"
        else:
            words.hint = f"meld the face-up card {card} at once (meld {card} ..., layoff {card} on N), or pass"
    elif phase == FORCING and card is not None:
        words.hint = f"{deal.game.names[deal.current]} passed {card}, which extends one of their melds: force or waive"
    elif phase == DISCARD:
        words.hint = "discard a card from your hand (or rearrange your melds: meld/layoff with your melds' cards)"
    if deal.result is None:
        names = deal.game.names
        counts = ", ".join(f"{names[s]} {melded_count(deal, s)}" for s in deal.seats)
        stake = conquian_state(deal).stake
        words.facts.append(f"Melded of 11: {counts}" + (f"; this hand counts x{stake}" if stake != 1 else ""))
    for verb in ("pass", "force", "waive", "meld", "layoff"):
        if verb not in words.verbs:
            words.verbs.append(verb)


@hookimpl
def rummykit_verbs(variant: Variant) -> list[Verb]:
    """The verbs Conquian adds to the plain turn's: passing the face-up card, and forcing it on the passer or
    waiving. Melds and lay-offs are the plain turn's verbs (their cards may include the face-up card and
    cards of one's own melds); turning the stock's card is a move the rules make, typed by nobody."""
    return [Verb(PASS.kind), Verb(FORCE.kind), Verb(WAIVE.kind)]


@hookimpl
def rummykit_observe(deal: Deal, seat: int | None, view: dict[str, Any]) -> None:
    card = face_up(deal)
    view["face_up"] = str(card) if card is not None else None
    view["face_up_from"] = turned_by(deal) if card is not None else None
    state = conquian_state(deal)
    view["stake"] = state.stake
    view["forced"] = state.forced
