"""Contract Rummy (Shanghai): the plugin the ruleset ``contract-rummy.yaml`` names.

The ruleset carries the plain game: two or three decks with their jokers, eleven cards each, the upcard,
draw from the stock or the pile, 2s and jokers wild, sets of three or more and runs of four or more (ace
high or low), lay-offs on anyone's meld, out with or without a final discard. This plugin adds:

* **The contract.** Deal ``n`` has the contract ``rules.contracts[n - 1]`` (so many sets and so many
  runs). A player lays it down all at once, in one action (``meld 7H 7S JK | 9C 9D 9S``), and nothing else
  that turn. Before it is down he lays no other meld and lays off nothing; once it is down he lays off on
  any meld on his later turns, and lays no new meld (``rules.melds_after_contract``).
* **Wild 2s and naturals.** Every 2 is wild besides the jokers (``rules.wild_twos``: the ruleset's
  ``melds.wild`` may name twelve wild cards at most, and three decks hold twelve 2s and six jokers). Every
  meld holds at least ``rules.min_naturals`` (two) natural cards.
* **The card taken from the pile** is not discarded in the same turn (``rules.discard_taken``), unless
  nothing else can be.
* **Buying.** When the player next in turn draws from the stock instead of taking the discard, the others
  are asked in turn order from his left (the seat nearest after the discarder first) whether they buy it:
  the first who does takes it and ``rules.buy_penalty`` (one) card from the stock. At most ``rules.buys``
  (three) buys per player per deal; a player whose contract is down may not buy
  (``rules.buy_when_down``); nobody buys when the stock cannot give the penalty card.
* **Scoring.** The others count the cards left in hand (``card_values``), as points against: a hand's
  score is minus that count, so the highest score, the lowest count, wins after the last contract.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from rummykit import hookimpl
from rummykit.actions import Action, ActionWords, PositionWords, Verb
from rummykit.cards import JOKER_FACE, Card, card_from_face
from rummykit.engine import TURN_LIMIT, Deal, Game, HandResult
from rummykit.melds import MeldRules, MeldSearch
from rummykit.standard import NO_REASON, Legality, any_cards, refuse
from rummykit.toolkit import hand_points
from rummykit.variant import Variant

BUY_PHASE = "buy"
"""The phase in which a player who is not on turn is asked whether he buys the pile's top card."""
BUY = Action("buy")
PASS = Action("pass")
CONTRACT_LIMIT = 24
"""At most this many ways to lay the contract are listed at once (any valid one is accepted when typed)."""
CONTRACT_STEPS = 5000
"""The search for contracts visits at most this many partial choices, so that it stays cheap on any hand."""

EXAMPLE_SETS = ["7H 7S JK", "9C 9D 9S", "KC KD 2H", "4D 4H 4S"]
EXAMPLE_RUNS = ["5C 6C 7C 8C", "9H TH JK QH", "AS 2D 3S 4S", "JD QD KD AD"]
_NUMBER_WORDS = {1: "a", 2: "two", 3: "three", 4: "four"}

RULES_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "contracts": {
            "type": "array",
            "minItems": 1,
            "description": "the deals of a game, in order: how many sets and runs each deal's contract holds",
            "items": {
                "type": "object",
                "properties": {
                    "sets": {"type": "integer", "minimum": 0, "maximum": 4},
                    "runs": {"type": "integer", "minimum": 0, "maximum": 4},
                },
                "additionalProperties": False,
                "minProperties": 1,
            },
        },
        "wild_twos": {"type": "boolean", "description": "whether every 2 is wild (besides melds.wild)"},
        "min_naturals": {"type": "integer", "minimum": 1, "description": "natural cards in every meld"},
        "buys": {"type": "integer", "minimum": 0, "description": "buys per player per deal"},
        "buy_penalty": {"type": "integer", "minimum": 0, "description": "stock cards a buyer takes as penalty"},
        "buy_when_down": {"type": "boolean", "description": "whether a player whose contract is down may buy"},
        "buy_upcard": {"type": "boolean", "description": "whether the upcard may be bought"},
        "discard_taken": {
            "type": "boolean",
            "description": "whether the card taken from the pile may be discarded in the same turn",
        },
        "melds_after_contract": {"type": "boolean", "description": "new melds after the contract is down"},
        "longer_contract_melds": {
            "type": "boolean",
            "description": "whether a contract's sets and runs may be longer than the shortest",
        },
    },
    "required": ["contracts"],
}


@dataclass(frozen=True)
class Contract:
    """What a deal's contract holds."""

    sets: int = 0
    runs: int = 0

    def __str__(self) -> str:
        parts = []
        for count, name in ((self.sets, "set"), (self.runs, "run")):
            if count:
                parts.append(f"{_NUMBER_WORDS.get(count, str(count))} {name}{'s' if count > 1 else ''}")
        return " and ".join(parts)


@dataclass(frozen=True)
class ContractRummyRules:
    """Contract Rummy's ``rules`` block (:data:`RULES_SCHEMA`), read once per variant (``variant.rules_as``); a
    key left out has its default."""

    contracts: tuple[dict[str, int], ...]
    wild_twos: bool = True
    min_naturals: int = 2
    buys: int = 3
    buy_penalty: int = 1
    buy_when_down: bool = False
    buy_upcard: bool = True
    discard_taken: bool = False
    melds_after_contract: bool = False
    longer_contract_melds: bool = True
    deal_contracts: tuple[Contract, ...] = field(init=False, repr=False, compare=False)
    """``contracts`` as :class:`Contract` values, one per deal in order."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "deal_contracts", tuple(Contract(**c) for c in self.contracts))


def contract_rules(variant: Variant) -> ContractRummyRules:
    """``variant``'s Contract Rummy rules (built once per variant)."""
    return variant.rules_as(ContractRummyRules)


@dataclass
class ContractRummyState:
    """What a deal of Contract Rummy keeps (``deal.state_of(ContractRummyState)``)."""

    number: int = 1
    """The deal's place in the game, 1 for the first: its contract is ``rules.contracts[number - 1]``."""
    down: dict[int, int] = field(default_factory=dict)
    """Seats whose contract is down -> the turn it was laid."""
    down_now: bool = False
    """This turn, the player on turn laid his contract."""
    buys: Counter[int] = field(default_factory=Counter)
    """Buys each seat made this deal."""
    asked: list[int] = field(default_factory=list)
    """While a discard is for sale: the seats still to be asked after the one asked now."""
    bought: list[tuple[int, Card]] = field(default_factory=list)
    """Every buy of the deal: (buyer, card bought)."""


def contract_state(deal: Deal) -> ContractRummyState:
    """The deal's Contract Rummy state."""
    return deal.state_of(ContractRummyState)


def contract_of(deal: Deal) -> Contract:
    """The contract of ``deal`` (the last one for a deal beyond the ruleset's list)."""
    contracts = contract_rules(deal.variant).deal_contracts
    return contracts[min(contract_state(deal).number, len(contracts)) - 1]


def is_down(deal: Deal, seat: int) -> bool:
    """Whether ``seat``'s contract is down."""
    return seat in contract_state(deal).down


def buys_left(deal: Deal, seat: int) -> int:
    """How many more buys ``seat`` may make this deal."""
    state = contract_state(deal)
    return max(0, contract_rules(deal.variant).buys - state.buys[seat])


@hookimpl
def rummykit_rules_schema() -> dict[str, Any]:
    return RULES_SCHEMA


@hookimpl
def rummykit_ruleset_problems(ruleset: dict[str, Any]) -> list[tuple[str, str] | tuple[str, str, list[str]]]:
    """Contracts a player could never lay: each deal would be played to its turn limit, scored by nobody.
    (A contract wrong because of a meld rule is told where the newest file sets either.)"""
    problems: list[tuple[str, str] | tuple[str, str, list[str]]] = []
    if not ruleset["table"].get("melds", False):
        problems.append(("table.melds", "contracts are laid on the table: expected true"))
    melds, rules = ruleset["melds"], ruleset["rules"]
    least = rules.get("min_naturals", 2)
    size = {"sets": max(melds.get("set_min", 3), least), "runs": max(melds.get("run_min", 3), least)}
    hand = ruleset["deal"]["hand_size"]
    dealt = min(hand.values()) if isinstance(hand, dict) else hand
    for index, contract in enumerate(rules["contracts"]):
        where = f"rules.contracts[{index}]"
        if not any(contract.values()):
            problems.append((where, "a contract holds a set or a run at least: expected sets or runs above 0"))
        for kind in ("sets", "runs"):
            if contract.get(kind) and not melds.get(kind, True):
                message = f"melds.{kind} is false, so no contract holds {kind}: expected 0"
                problems.append((f"{where}.{kind}", message, [f"melds.{kind}"]))
        cards = sum(contract.get(kind, 0) * size[kind] for kind in ("sets", "runs"))
        if cards > dealt + 1:  # (the hand dealt and the card drawn: the last contract lays them all)
            message = f"needs {cards} cards (melds of {size['sets']} and {size['runs']} at least); a player holds"
            sizes = ["melds.set_min", "melds.run_min", "rules.min_naturals", "deal.hand_size"]
            problems.append((where, f"{message} {dealt + 1} after the draw at most: no one could lay it", sizes))
    return problems


# -- melds ---------------------------------------------------------------------------------------------


@hookimpl
def rummykit_meld_rules(variant: Variant, rules: MeldRules) -> MeldRules | None:
    """2s are wild (``rules.wild_twos``). The least number of natural cards in a meld is checked where a meld
    is laid (:func:`contract_problem`: only a contract lays melds), not by the meld rules: a game's own meld
    test puts the kernel's meld listing on its slow path, and lay-offs never take a natural card away."""
    if not contract_rules(variant).wild_twos:
        return None
    return dataclasses.replace(rules, wild_faces=rules.wild_faces | {_face(suit, 2) for suit in range(4)})


def naturals(search: MeldSearch, cards: Sequence[Card]) -> int:
    """How many of ``cards`` are natural (not wild)."""
    return sum(1 for card in cards if not search.is_wild(card))


def _face(suit: int, rank: int) -> int:
    return suit * 13 + rank - 1


def _set_shapes(
    naturals: Counter[int], wild_faces: frozenset[int], least: int
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Sets of three as (natural faces, faces the wild cards stand for), one per distinct choice of faces."""
    shapes = []
    for rank in range(1, 14):
        faces = sorted(f for f in naturals.elements() if f % 13 + 1 == rank and f not in wild_faces)
        for size in range(3, least - 1, -1):
            for chosen in sorted(set(combinations(faces, size))):
                suits = [f // 13 for f in chosen]
                missing = [s for s in range(4) if s not in suits] or [0]
                meant = tuple(_face(missing[i % len(missing)], rank) for i in range(3 - size))
                shapes.append((chosen, meant))
    return shapes


def _run_shapes(
    naturals: Counter[int], wild_faces: frozenset[int], least: int
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Runs of four as (natural faces, faces the wild cards stand for), ace low (A-2-3-4) or high (J-Q-K-A)."""
    shapes = []
    for suit in range(4):
        for low in range(1, 12):
            present: list[int] = []
            meant: list[int] = []
            for position in range(low, low + 4):
                face = _face(suit, 1 if position == 14 else position)
                (present if naturals[face] and face not in wild_faces else meant).append(face)
            if len(present) >= least:
                shapes.append((tuple(present), tuple(meant)))
    return shapes


def contract_actions(deal: Deal, seat: int, limit: int = CONTRACT_LIMIT) -> list[Action]:
    """Ways ``seat`` may lay the deal's contract from his hand, with sets of three and runs of four (at most
    ``limit``); longer melds are accepted when typed."""
    contract = contract_of(deal)
    search = deal.variant.meld_search
    wild_faces = search.rules.wild_faces
    hand = deal.hands[seat]
    naturals = Counter(c.face for c in hand if c.face not in wild_faces)
    # Jokers first: a wild card left in hand counts against, a joker most.
    wilds = sorted((c for c in hand if c.face in wild_faces), key=lambda c: (c.face != JOKER_FACE, c.face))
    least = contract_rules(deal.variant).min_naturals
    wanted = [("set", s) for s in _set_shapes(naturals, wild_faces, least)] if contract.sets else []
    runs = [("run", s) for s in _run_shapes(naturals, wild_faces, least)] if contract.runs else []
    chosen: list[list[tuple[str, tuple[tuple[int, ...], tuple[int, ...]]]]] = []
    budget = [CONTRACT_STEPS]

    def choose(options: list[Any], start: int, count: int, picked: list[Any], used: Counter[int], wild: int,
               then: Any) -> None:  # fmt: skip
        if len(picked) == count:
            then(picked, used, wild)
            return
        for i in range(start, len(options)):
            if len(chosen) >= limit or budget[0] <= 0:
                return
            budget[0] -= 1
            _, (faces, meant) = options[i]
            need = Counter(faces)
            if wild + len(meant) > len(wilds) or any(used[f] + n > naturals[f] for f, n in need.items()):
                continue
            picked.append(options[i])
            choose(options, i + 1, count, picked, used + need, wild + len(meant), then)
            picked.pop()

    def then_runs(sets: list[Any], used: Counter[int], wild: int) -> None:
        choose(runs, 0, contract.runs, [], used, wild, lambda found, _u, _w: chosen.append(list(sets) + list(found)))

    choose(wanted, 0, contract.sets, [], Counter(), 0, then_runs)
    actions = []
    for melds in chosen:
        free = list(hand)
        pool = list(wilds)
        cards: list[Card] = []
        meant_cards: list[Card | None] = []
        groups = []
        for _, (faces, meant) in melds:
            group = []
            for f in faces:  # one physical card per face named (two decks: 9C 9C are two cards)
                index = next(i for i, c in enumerate(free) if c.face == f)
                group.append(free.pop(index))
            stand_ins = [pool.pop(0) for _ in meant]
            cards += group + stand_ins
            meant_cards += [None] * len(group) + [card_from_face(f) for f in meant]
            groups.append(len(group) + len(stand_ins))
        action = Action("meld", tuple(cards), groups=tuple(groups), stands_for=tuple(meant_cards))
        if all(search.meld(c, stands_for=m) is not None for c, m in action.melds()):
            actions.append(action)
    return actions


def contract_problem(deal: Deal, action: Action) -> str | None:
    """Why ``action`` does not lay the deal's contract, or None when it does."""
    contract = contract_of(deal)
    rules = contract_rules(deal.variant)
    search = deal.variant.meld_search
    sets = runs = 0
    least = rules.min_naturals
    for cards, meant in action.melds():
        if naturals(search, cards) < least:
            return f"every meld holds at least {least} natural cards (2s and jokers are wild)"
        meld = search.meld(cards, stands_for=meant if any(meant) else None)
        if meld is None or meld.kind not in ("set", "run"):
            return f"{' '.join(map(str, cards))} is no set or run"
        if not rules.longer_contract_melds and len(cards) != (3 if meld.kind == "set" else 4):
            return "each set of the contract holds three cards and each run four"
        sets += meld.kind == "set"
        runs += meld.kind == "run"
    if (sets, runs) != (contract.sets, contract.runs):
        laid = Contract(sets, runs)
        return f"that lays {laid or 'nothing'}, and this deal's contract is {contract}, no more and no less"
    return None


# -- the deal ------------------------------------------------------------------------------------------


def deals_played(game: Game) -> int:
    """How many contracts have had their deal: a deal abandoned at the turn limit (``max_turns``) is dealt again."""
    return sum(1 for result in game.results if result.kind != TURN_LIMIT)


@hookimpl
def rummykit_start_hand(deal: Deal) -> None:
    contract_state(deal).number = deals_played(deal.game) + 1


@hookimpl
def rummykit_turn_started(deal: Deal, seat: int) -> None:
    state = contract_state(deal)
    state.down_now = False
    state.asked = []


def _buyers(deal: Deal) -> list[int]:
    """The seats asked, in order, whether they buy the pile's top card the player on turn left there."""
    state = contract_state(deal)
    rules = contract_rules(deal.variant)
    if rules.buys <= 0 or not deal.discard or deal.discard[-1].id in deal.face_down:
        return []
    if len(deal.stock) < rules.buy_penalty or (deal.turn == 0 and not rules.buy_upcard):
        return []
    order = []
    seat = deal.next_seat(deal.current)
    while seat != deal.current:
        order.append(seat)
        seat = deal.next_seat(seat)
    if deal.turn > 0:
        order.pop()  # the discarder, the seat before the player on turn, does not buy back his own discard
    return [s for s in order if buys_left(deal, s) > 0 and (rules.buy_when_down or s not in state.down)]


def _ask_next(deal: Deal) -> None:
    """Ask the next seat of the queue, or close the sale: the player on turn plays on."""
    state = contract_state(deal)
    if state.asked:
        deal.responder = state.asked.pop(0)
        deal.phase = BUY_PHASE
    else:
        deal.responder = None
        deal.phase = "play"


# -- what is legal: each verb's check, stated once ------------------------------------------------------


def _asked(deal: Deal) -> str:
    return f"you are asked whether you buy {deal.discard[-1]}: 'buy' or 'pass'"


def buy_now(deal: Deal) -> str | None:
    """``buy`` and ``pass``: the seat asked answers, while a discard is for sale."""
    if deal.phase == BUY_PHASE:
        return None
    return "a discard is bought only when the next player draws from the stock instead, before he plays on"


def discard_now(deal: Deal) -> str | None:
    """``discard``: the kernel's, in the play phase."""
    return None if deal.phase == "play" else NO_REASON


def taken_problem(deal: Deal, action: Action) -> str | None:
    """The card taken from the pile, or a copy of it, is not discarded in the same turn
    (``rules.discard_taken``); the listing still offers it when nothing else can be discarded."""
    taken = deal.taken
    if taken is None or contract_rules(deal.variant).discard_taken:
        return None
    if any(c.face == taken.face for c in action.cards):
        return f"{taken} was taken from the pile this turn: it is not discarded again in the same turn"
    return None


def meld_now(deal: Deal) -> str | None:
    """``meld``: the contract, laid at once before anything else; afterwards nothing new
    (``rules.melds_after_contract``)."""
    if deal.phase != "play":
        return NO_REASON
    state = contract_state(deal)
    if state.down_now:
        return "the turn a contract goes down, nothing else is laid"
    if deal.current in state.down and not contract_rules(deal.variant).melds_after_contract:
        return "once your contract is down you lay off on the table's melds; no new meld"
    return None


def meld_problem(deal: Deal, action: Action) -> str | None:
    """The natural cards of every meld; before the contract is down, the contract and nothing else. (A meld
    naming no card is the kernel's to refuse.)"""
    if not action.cards:
        return None
    least = contract_rules(deal.variant).min_naturals
    search = deal.variant.meld_search
    for cards, _ in action.melds():
        if naturals(search, cards) < least:
            return f"every meld holds at least {least} natural cards (2s and jokers are wild)"
    if deal.current in contract_state(deal).down:
        return None
    problem = contract_problem(deal, action)
    if problem is None:
        return None
    contract = contract_of(deal)
    example = " | ".join(EXAMPLE_SETS[: contract.sets] + EXAMPLE_RUNS[: contract.runs])
    return (
        f"before your contract is down, the only meld is the contract, {contract}, laid at once "
        f"('meld {example}'): {problem}"
    )


def layoff_now(deal: Deal) -> str | None:
    """``layoff``: on turns after the contract went down."""
    if deal.phase != "play":
        return NO_REASON
    state = contract_state(deal)
    if state.down_now:
        return "the turn a contract goes down, nothing else is laid"
    return None if deal.current in state.down else "no lay-off before your contract is down"


LEGALITY: dict[str, Legality] = {
    rule.verb: rule
    for rule in (
        Legality("buy", buy_now),
        Legality("pass", buy_now),
        Legality("discard", discard_now, taken_problem),
        Legality("meld", meld_now, meld_problem, from_hand=True),
        Legality("layoff", layoff_now, any_cards, from_hand=True),  # its cards are the kernel's to check
    )
}
"""Contract Rummy's rules on the turn's verbs, one :class:`~rummykit.standard.Legality` each: the listing,
the acceptance of a typed contract and the words of a refusal come from these (the kernel's own checks of
these verbs still apply)."""


@hookimpl
def rummykit_legal_actions(deal: Deal, actions: list[Action]) -> None:
    if deal.phase == BUY_PHASE:
        actions[:] = [BUY, PASS]
        return
    if deal.phase != "play":
        return
    if deal.taken is not None and not contract_rules(deal.variant).discard_taken:
        # The card taken from the pile (or a copy of it) goes back only when nothing else can.
        face = deal.taken.face
        if any(a.kind == "discard" and a.cards[0].face != face for a in actions):
            actions[:] = [a for a in actions if a.kind != "discard" or a.cards[0].face != face]
    closed = {verb for verb in ("meld", "layoff") if LEGALITY[verb].now(deal) is not None}
    if closed:
        actions[:] = [a for a in actions if a.kind not in closed]
    seat = deal.current
    if "meld" not in closed and seat not in contract_state(deal).down:
        # Before the contract is down the only meld is the contract: listed by construction, typed ones checked.
        probe = deal.probe
        actions[:] = [
            a for a in actions if a.kind != "meld" or (a is probe and a.cards and meld_problem(deal, a) is None)
        ]
        if probe is None:
            actions.extend(contract_actions(deal, seat))


@hookimpl
def rummykit_explain_illegal(deal: Deal, action: Action) -> str | None:
    if deal.phase == BUY_PHASE:
        return _asked(deal)  # whatever else is typed: the answer is due
    return refuse(LEGALITY, deal, action)


# -- carrying out --------------------------------------------------------------------------------------


@hookimpl
def rummykit_apply_action(deal: Deal, action: Action) -> bool | None:
    state = contract_state(deal)
    kind = action.kind
    if deal.phase == BUY_PHASE:
        if kind == "buy":
            buyer = deal.actor
            card = deal.discard.pop()
            deal.hands[buyer].append(card)
            deal.known[buyer].add(card.id)  # everyone saw it taken
            for _ in range(contract_rules(deal.variant).buy_penalty):
                deal.hands[buyer].append(deal.stock.pop())
            state.buys[buyer] += 1
            state.bought.append((buyer, card))
            state.asked = []
        _ask_next(deal)
        return True
    if kind == "draw stock" and deal.phase == "draw":
        # The next player leaves the discard: he draws, then the others may buy it before he plays on.
        deal.drawn = deal.stock.pop()
        deal.hands[deal.current].append(deal.drawn)
        deal.phase = "play"
        state.asked = _buyers(deal)
        _ask_next(deal)
        return True
    return None  # the kernel does everything else


@hookimpl
def rummykit_action_applied(deal: Deal, seat: int, action: Action) -> None:
    """A player's first meld of the deal is his contract (nothing else is legal before it)."""
    state = contract_state(deal)
    if action.kind == "meld" and seat not in state.down:
        state.down[seat] = deal.turn
        state.down_now = True


# -- scoring -------------------------------------------------------------------------------------------


@hookimpl
def rummykit_score_hand(deal: Deal, kind: str) -> HandResult:
    """The cards left in hand count against their holder (the one who went out holds none)."""
    in_hand = hand_points(deal)
    winner = deal.current if kind == "out" else None
    details = {
        "deal": contract_state(deal).number,
        "contract": str(contract_of(deal)),
        "in_hand": in_hand,
        "breakdown": [[["cards in hand", -points]] for points in in_hand],
    }
    return HandResult(deal.number, kind, tuple(-p for p in in_hand), winner, deal.dealer, details)


@hookimpl
def rummykit_game_over(game: Game) -> bool:
    """Over when every contract has had its deal."""
    return deals_played(game) >= len(contract_rules(game.variant).contracts)


# -- words ---------------------------------------------------------------------------------------------


def _count(number: int, noun: str) -> str:
    """``a penalty card``, ``2 penalty cards``, ``no penalty card``."""
    if number == 1:
        return f"a {noun}"
    return f"{number or 'no'} {noun}{'s' if number else ''}"


@hookimpl
def rummykit_describe_action(deal: Deal, seat: int, action: Action, viewer: int | None) -> ActionWords | None:
    if action.kind == "buy":
        # Asked before the buy, the card is the pile's top; just after, the last one bought.
        state = contract_state(deal)
        card = deal.discard[-1] if deal.phase == BUY_PHASE else state.bought[-1][1] if state.bought else None
        what = str(card) if card is not None else "the discard"
        penalty = _count(contract_rules(deal.variant).buy_penalty, "penalty card")
        return ActionWords(f"buy {what} with {penalty} from the stock", f"buys {what} with {penalty}")
    if action.kind == "pass":
        return ActionWords("do not buy", "does not buy")
    return None


@hookimpl
def rummykit_verbs(variant: Variant) -> list[Verb]:
    """The verbs buying adds to the plain turn's: ``buy`` the pile's top card, or ``pass``. The contract is
    the plain turn's ``meld``, its melds apart (``meld 7H 7S JK | 9C 9D 9S``)."""
    return [Verb(BUY.kind, short="b"), Verb(PASS.kind)]


@hookimpl
def rummykit_describe_position(deal: Deal, seat: int, words: PositionWords) -> None:
    state = contract_state(deal)
    count = len(contract_rules(deal.variant).contracts)
    words.facts.append(f"Deal {state.number} of {count}, contract: {contract_of(deal)}")
    words.facts.append(
        f"Your contract: {'down' if seat in state.down else 'not yet'}; buys left: {buys_left(deal, seat)}"
    )
    words.verbs.extend(["buy", "pass"])
    if deal.phase == BUY_PHASE and deal.actor == seat and deal.discard:
        penalty = contract_rules(deal.variant).buy_penalty
        extra = f" with {_count(penalty, 'penalty card')} from the stock" if penalty else ""
        words.hint = f"buy {deal.discard[-1]}{extra} ('buy'), or 'pass'"
    elif deal.phase == "play" and deal.current == seat and seat not in state.down and not state.down_now:
        words.hint = f"lay down your contract ({contract_of(deal)}) at once, 'meld A B C | D E F G', or discard"
    elif deal.phase == "play" and deal.current == seat and seat in state.down and not state.down_now:
        words.hint = "lay off on any meld ('layoff 8H on 2'), then discard; out when no card is left"


@hookimpl
def rummykit_observe(deal: Deal, seat: int | None, view: dict[str, Any]) -> None:
    """The deal's contract, whose contract is down, buys made and left, and a sale going on."""
    state = contract_state(deal)
    view["deal_number"] = state.number
    contract = contract_of(deal)
    view["contract"] = {"sets": contract.sets, "runs": contract.runs}
    view["down"] = sorted(state.down)
    view["buys_left"] = [buys_left(deal, s) for s in range(deal.game.num_players)]
    view["bought"] = [{"by": buyer, "card": str(card)} for buyer, card in state.bought]
    view["for_sale"] = str(deal.discard[-1]) if deal.phase == BUY_PHASE and deal.discard else None
