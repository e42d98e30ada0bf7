"""The fixed action space and the observation encoding of a variant (numpy only; no PettingZoo here).

See ``docs/rl.md`` for the layout. An :class:`ActionSpace` numbers every action the environment can carry
out; :meth:`ActionSpace.mask` says exactly which of them are legal now, from the engine's own answers
(``Game.legal_actions``, ``Game.resolve``), never from rules re-implemented here.
"""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property, partial
from typing import Any, SupportsIndex

import numpy as np
import numpy.typing as npt

from .. import standard
from ..actions import Action, position_words
from ..cards import Card, card_from_face, parse_card
from ..engine import DEFAULT_MAX_HANDS, Game, players_text
from ..errors import warn_outside
from ..mechanics import whole_pile
from ..standard import MELD_ACTION_LIMIT
from ..variant import Variant, stands_for_faces


def _no_mypyc_attr(*attrs: str, **kwattrs: object) -> Any:
    return lambda cls: cls


try:
    from mypy_extensions import mypyc_attr
except ImportError:  # installed with mypy, which only the compiled build needs: elsewhere a no-op
    mypyc_attr = _no_mypyc_attr

__all__ = ["ActionSpace", "Encoder", "Selection", "FACES", "TABLE_SLOTS", "SCORE_LIMIT"]

FACES = 53
"""Card faces: 52 natural cards and the joker (face 52). Copies of a card (two decks) share a face."""
TABLE_SLOTS = 32
"""Default bound on addressable table melds: ``layoff X on k`` and ``swap X on k`` exist for k < 32."""
MELD = "meld"
"""The kernel's verb laying melds from the hand (the plain turn's, ``rummykit.standard``)."""
TABLE_SHAPES = frozenset({"melds", "card on meld", "on meld"})
"""The verb shapes (:data:`~rummykit.actions.VERB_SHAPES`) that lay cards on the table or address its melds."""
UNDECLARED_SHAPES = frozenset({"bare", "card"})
"""The shapes given to a verb a game's position names (``PositionWords.verbs``) that no plugin declares
(``rummykit_verbs``): plugins written before verbs were declared, as their verbs were indexed then."""
PHASES = ("draw", "play", "use", "discard", "offer", "offered", "over")
SCORE_LIMIT = 100
"""Scores are observed over the target (else over 100 points) and clipped to -100 .. 100: rules bound no
score (a hand's points are the plugins'), and a space needs finite bounds. No built-in game comes near it
(Skarney, without a target, reaches about 55 in random and greedy play; Gin about 5 with its bonuses)."""


MELD_KINDS: tuple[str, str]
"""Deprecated: a space's meld verbs are :attr:`ActionSpace.commits`. Declared for type checkers only: the
module's ``__getattr__`` gives it, with a DeprecationWarning."""


def _retired(name: str) -> Any:
    """The module's ``__getattr__`` (installed at the end of the module: see there)."""
    if name == "MELD_KINDS":
        warn_outside(  # at the line that asked for it
            __name__,
            "rummykit.envs.encoding.MELD_KINDS is deprecated: a space's meld verbs are ActionSpace.commits, "
            "read from the verbs the game declares",
            DeprecationWarning,
        )
        return ("meld", "take pile with")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def checked_seats(variant: Variant, players: object, hands: object, table_slots: object) -> int:
    """The environments' common settings checked before anything is built (the compiled build's functions
    would refuse a wrongly typed one with another error): ``hands`` None (the whole game) or 1;
    ``table_slots`` a whole number of at least 1; ``players`` a whole number of seats within the game's range
    (numpy's integers too), or None for the fewest the game allows. Returns the number of seats; ValueError,
    or TypeError for ``players`` of another kind."""
    if hands not in (None, 1):
        raise ValueError(f"hands is None (the whole game) or 1, not {hands!r}")
    if isinstance(table_slots, bool) or not isinstance(table_slots, int) or table_slots < 1:
        raise ValueError(f"table_slots is a whole number of at least 1, not {table_slots!r}")
    if players is None:
        return variant.min_players
    if isinstance(players, bool) or not hasattr(players, "__index__"):
        raise TypeError(f"players is a whole number of seats (or None for the fewest the game allows), not {players!r}")
    count = operator.index(players)
    if not variant.min_players <= count <= variant.max_players:
        raise ValueError(players_text(variant, count))
    return count


def hand_end(game: Game) -> str | None:
    """How the game's last hand ended (``knock``, ``gin``, ``out``, ``dead``..., as
    :attr:`~rummykit.engine.HandResult.kind`); None before any hand ended."""
    return game.results[-1].kind if game.results else None


def end_info(game: Game) -> dict[str, Any]:
    """The info of a finished game: its final scores, why it ended (``end_reason``) and how its last hand
    ended (``hand_end``)."""
    return {"scores": list(game.scores), "end_reason": game.end_reason, "hand_end": hand_end(game)}


def end_text(game: Game) -> str:
    """Why a finished game ended, for messages: ``max-hands; last hand: knock``."""
    hand = hand_end(game)
    return f"{game.end_reason}; last hand: {hand}" if hand else str(game.end_reason)


def verb_shapes(variant: Variant, players: int) -> dict[str, frozenset[str]]:
    """Per verb of ``variant``'s actions, the shapes the action space indexes it by: those its plugins declare
    (``rummykit_verbs``). A verb the first position names (``PositionWords.verbs``) that no plugin declares is
    indexed bare and with one card (:data:`UNDECLARED_SHAPES`), as verbs were before they were declared. In a
    game without table melds (``table.melds: false``) the table's shapes are left out: no table slots, no
    meld builder."""
    shapes = {name: verb.shapes for name, verb in variant.verbs.items()}
    game = variant.new_game(players=players, seed=0)
    for name in position_words(game.deal, game.deal.actor).verbs:
        shapes.setdefault(name, UNDECLARED_SHAPES)
    if not variant.melds_on_table:
        shapes = {name: kept for name, s in shapes.items() if (kept := s - TABLE_SHAPES)}
    return shapes


def _verbs_with(shapes: dict[str, frozenset[str]], shape: str) -> list[str]:
    """The verbs (sorted) indexed by ``shape`` among ``shapes`` (:func:`verb_shapes`)."""
    return sorted(verb for verb, shaped in shapes.items() if shape in shaped)


def face_text(face: int) -> str:
    return str(card_from_face(face))


@dataclass
class Selection:
    """The cards a seat has selected towards a meld (faces, with repeats for two copies), split into melds
    by ``next meld`` steps where one action lays several (Skarney's contract: ``meld A | B | C``)."""

    faces: list[int] = field(default_factory=list)
    cuts: list[int] = field(default_factory=list)
    """Where each closed group ends in :attr:`faces` (one cut per ``next meld``)."""

    def counts(self) -> Counter[int]:
        return Counter(self.faces)

    def closed(self) -> list[tuple[int, ...]]:
        """The closed groups, each as its sorted faces."""
        starts = [0, *self.cuts]
        return [tuple(sorted(self.faces[a:b])) for a, b in zip(starts, self.cuts)]

    def current(self) -> list[int]:
        """The faces of the group being selected (after the last ``next meld``)."""
        return self.faces[self.cuts[-1] :] if self.cuts else self.faces

    def clear(self) -> None:
        self.faces.clear()
        self.cuts.clear()

    def key(self) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        """What the legal builder steps depend on: the closed groups in any order, the current one's faces."""
        if not self.faces:
            return ((), ())
        return tuple(sorted(self.closed())), tuple(sorted(self.current()))


@mypyc_attr(native_class=False)  # a __dict__ in the compiled build too: __copy__ copies what it holds
class ActionSpace:
    """Every action index of a variant, both ways: ``text(i)`` and ``index(text)``.

    Built from the verbs the game's plugins declare (:attr:`Variant.verbs <rummykit.variant.Variant.verbs>`),
    each verb's shapes saying which indices it gets. Layout, in order, verbs sorted by name within each
    part: one index per verb used without cards (shape ``bare``: ``draw stock``, ``pass``...); 53 per verb
    used with one card (``card``: ``discard 7H``; a verb used both ways has both); ``X on k`` for each face
    and table slot k < ``slots`` per verb laying one card on a table meld (``card on meld``: ``layoff 8C on
    2``, ``swap 7H on 1``); ``V on k`` per verb addressing a table meld without cards (``on meld``: ``take
    pile on 2``); then the meld builder: ``select X`` (53), ``next meld`` (closes one meld of an action laying
    several) and one commit per verb laying melds (``melds``: ``meld``, ``take pile with``). There is no undo
    step: every builder step moves towards an engine action, so a meld once started is finished (no
    select/clear loops). A game without table melds (``table.melds: false``) gets no table slots and no
    builder, whatever its verbs.
    """

    def __init__(self, variant: Variant, players: int, slots: int = TABLE_SLOTS):
        self.variant = variant
        self.slots = slots
        self.shapes = verb_shapes(variant, players)
        """Per verb with an index, the shapes it is indexed by (:func:`verb_shapes`)."""
        having = partial(_verbs_with, self.shapes)

        self.keys: list[tuple[str, int | None, int | None]] = []
        """Per index: (verb, face or None, table slot or None); the meld builder's keys use the verbs
        ``select`` (with a face), ``next`` and ``commit:VERB``."""
        self.keys.extend((verb, None, None) for verb in having("bare"))
        for verb in having("card"):
            self.keys.extend((verb, f, None) for f in range(FACES))
        for verb in having("card on meld"):
            self.keys.extend((verb, f, k) for k in range(slots) for f in range(FACES))
        for verb in having("on meld"):
            self.keys.extend((verb, None, k) for k in range(slots))
        self.commits: list[str] = having("melds")
        """The verbs laying melds, committed by the meld builder (``meld``, ``take pile with``)."""
        self._commit_kinds = frozenset(self.commits)
        if self.commits:
            self.keys.extend(("select", f, None) for f in range(FACES))
            self.keys.append(("next", None, None))
            self.keys.extend((f"commit:{verb}", None, None) for verb in self.commits)
        self.position = {key: i for i, key in enumerate(self.keys)}
        self.size = len(self.keys)
        self.select_base = self.position.get(("select", 0, None), -1)
        self.next_index = self.position.get(("next", None, None), -1)
        self.commit_index = {verb: self.position[(f"commit:{verb}", None, None)] for verb in self.commits}
        self._one_card = {
            verb: i
            for (verb, face, slot), i in self.position.items()
            if face == 0 and slot is None and verb != "select"
        }
        """Per verb with one-card indices, the index of face 0 (its 53 indices are consecutive)."""
        self._bare = {verb: i for (verb, face, slot), i in self.position.items() if face is None and slot is None}
        """Per verb without cards, its index (builder steps included: no engine action has their verbs)."""
        self._cached: _Position | None = None
        """The position last asked about (the engine is asked once per position)."""
        self._by_id: dict[int, tuple[Action, int]] = {}
        """Per ``id(action)``, the one-card or bare action met and its index (:meth:`_simple_index`). It holds
        the action itself, so no other object can have that id while the entry lasts; pickling leaves it
        out (ids mean nothing in another process)."""
        self.id_cache_size = 4096
        """How many actions :attr:`_by_id` keeps before it starts again."""

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (and deep-copied) without what is keyed by object ids: in another process, or for
        other objects, an id names something else."""
        state = dict(self.__dict__)
        state["_by_id"] = {}
        state["_cached"] = None
        return state

    def __copy__(self) -> ActionSpace:
        """A shallow copy sharing the layout and the index-by-id cache (the vector environment's games)."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        return twin

    # -- text ----------------------------------------------------------------------------------------

    def text(self, index: SupportsIndex) -> str:
        """The text of action ``index``: an engine action (``discard 7H``, ``layoff 8C on 2``) or a builder
        step (``select 7H``, ``next meld``, ``meld``, ``take pile with``). IndexError outside the space."""
        if not self.has_index(index):
            raise IndexError(f"action indices are whole numbers from 0 to {self.size - 1}, not {index!r}")
        verb, face, slot = self.keys[operator.index(index)]
        if verb.startswith("commit:"):
            return verb[len("commit:") :]
        if verb == "next":
            return "next meld"
        text = verb if face is None else f"{verb} {face_text(face)}"
        return text if slot is None else f"{text} on {slot}"

    def has_index(self, index: object) -> bool:
        """Whether ``index`` is an index of this space (a whole number from 0 to ``size - 1``)."""
        return bool(not isinstance(index, bool) and isinstance(index, (int, np.integer)) and 0 <= index < self.size)

    def described(self, index: object) -> str:
        """The text of ``index`` for a message: :meth:`text`, or that it is no index of this space."""
        return self.text(index) if self.has_index(index) else "not an index of this space"  # type: ignore[arg-type]

    def index(self, text: str) -> int:
        """The index of an action text as :meth:`text` writes it (any card spelling ``parse_card`` reads)."""
        words = text.split()
        if not words:
            raise KeyError("empty action text")
        joined = " ".join(w.lower() for w in words)
        if joined in self.commits:
            return self.commit_index[joined]
        if joined == "next meld" and self.next_index >= 0:
            return self.next_index
        slot = None
        if len(words) >= 2 and words[-2].lower() == "on" and words[-1].isdigit():
            slot = int(words[-1])
            words = words[:-2]
        face = None
        try:
            face = parse_card(words[-1]).face
            words = words[:-1]
        except ValueError:
            pass
        key = (" ".join(w.lower() for w in words), face, slot)
        if key not in self.position:
            raise KeyError(f"{text!r} is not in this environment's action space")
        return self.position[key]

    # -- the engine's actions by key -------------------------------------------------------------------

    def listed(
        self, game: Game, legal: Sequence[Action] | None = None
    ) -> dict[tuple[str, int | None, int | None], Action]:
        """The legal actions the engine lists now that have an index (melds apart), by key; where several
        share a key (a wild card laid off at either end of a run), the engine's first, or the one naming
        fewest cards."""
        found: dict[tuple[str, int | None, int | None], Action] = {}
        for action in game.legal_actions() if legal is None else legal:
            if action.kind in self._commit_kinds:
                continue
            cards = action.cards
            if not cards:
                face = None
            elif len(cards) == 1:
                face = cards[0].face
            elif action.target is not None:
                card = self._card_laid(game, action)
                if card is None:
                    continue
                face = card.face
            else:
                face = cards[0].face  # the first card named (draw discard: the deepest card taken)
            key = (action.kind, face, action.target)
            if key not in self.position:
                continue
            held = found.get(key)
            if held is None or len(cards) < len(held.cards):
                found[key] = action
        return found

    @staticmethod
    def _card_laid(game: Game, action: Action) -> Card | None:
        """The card an action naming several cards onto a table meld is indexed by: the card just taken, laid
        off with the cards from hand that bridge it to the meld (``draw.must_use``), or else the one card it
        names from neither the hand nor the table (a card lying face up, melded at once). None where neither
        tells one card."""
        deal = game.deal
        if deal.taken is not None and deal.taken in action.cards:
            return deal.taken
        placed = {c.id for c in deal.hands[deal.current]}
        for table_meld in deal.table:
            placed.update(c.id for c in table_meld.meld.cards)
        outside = [c for c in action.cards if c.id not in placed]
        return outside[0] if len(outside) == 1 else None

    def _listed_indices(self, game: Game, legal: Sequence[Action]) -> dict[int, Action]:
        """:meth:`listed` by index, with a quick path for the common one-card actions (discards, knocks) and
        those without cards."""
        found: dict[int, Action] = {}
        by_id = self._by_id
        rest = []
        for action in legal:
            held = by_id.get(id(action))
            if held is not None:  # the cache holds the action: no other object has its id meanwhile
                i = held[1]
            else:
                simple = self._simple_index(action)
                if simple is None:
                    if action.kind not in self._commit_kinds:  # melds have no index: the builder commits them
                        rest.append(action)
                    continue
                i = simple
            if i not in found:  # several with one index: the engine's first, as listed() keeps
                found[i] = action
        if rest:
            position = self.position
            for key, action in self.listed(game, rest).items():
                i = position[key]
                if i not in found:
                    found[i] = action
        return found

    def _simple_index(self, action: Action) -> int | None:
        """The index of a one-card action or one without cards (None for any other), remembered by the
        action's id with the action itself (an id is only trusted for that very object): the kernel and
        plugins share such actions between turns (``Action.of``), so most are looked up again."""
        if action.target is not None:
            return None
        cards = action.cards
        if len(cards) == 1:
            base = self._one_card.get(action.kind)
            if base is None:
                return None
            i = base + cards[0].face
        elif not cards:
            i = self._bare.get(action.kind, -1)
            if i < 0:
                return None
        else:
            return None
        if len(self._by_id) >= self.id_cache_size:  # actions built afresh each turn would otherwise pile up
            self._by_id.clear()
        self._by_id[id(action)] = (action, i)
        return i

    def meld_sets(self, game: Game, legal: Sequence[Action] | None = None) -> dict[str, list[Way]]:
        """Per meld verb, every legal way to commit it now: its groups of faces from hand and the engine's
        action (one group, or several for an action laying several melds).

        The engine's listed melds and pile takes are complete unless its list is capped
        (:data:`~rummykit.standard.MELD_ACTION_LIMIT`); then, for the kernel's ``meld`` and the whole pile's
        ``take pile with``, every candidate meld of the hand (``variant.meld_search``) is put to the plugins'
        filters, as ``Deal.allows`` would. A plugin's own meld verb commits the ways the engine lists."""
        result: dict[str, list[Way]] = {verb: [] for verb in self.commits}
        if not self.commits:
            return result
        deal = game.deal
        seen: dict[str, set[tuple[tuple[int, ...], ...]]] = {verb: set() for verb in self.commits}
        listed_count = dict.fromkeys(self.commits, 0)
        for action in game.legal_actions() if legal is None else legal:
            kind = action.kind
            if kind in result:
                listed_count[kind] += 1
                way = Way.of(action)
                if way.key not in seen[kind]:
                    seen[kind].add(way.key)
                    result[kind].append(way)
        for verb in self.commits:
            if listed_count[verb] < MELD_ACTION_LIMIT:
                continue
            hand = deal.hands[deal.current]
            search = game.variant.meld_search
            if verb == MELD:
                if deal.taken is not None and deal.phase == "use":
                    others = [c for c in hand if c is not deal.taken]
                    candidates = search.melds_containing(deal.taken, others)
                else:
                    candidates = search.candidate_melds(hand)
                actions = [standard.meld_action(search, m) for m in candidates]
            elif verb == whole_pile.TAKE_PILE_WITH and deal.discard:
                top = deal.discard[-1]
                actions = [whole_pile.pile_take(search, m, top) for m in search.melds_containing(top, hand)]
                actions = [a for a in actions if len(a.cards) >= 2]
            else:
                continue  # a plugin's meld verb: its listed ways only
            wanted = []
            for action in actions:  # valid melds by the meld search, in the kernel's own action form
                way = Way.of(action)
                if way.key not in seen[verb]:
                    seen[verb].add(way.key)
                    wanted.append(way)
            kept = {id(a) for a in self._filtered(game, [w.action for w in wanted])}
            result[verb] += [w for w in wanted if id(w.action) in kept]
        return result

    @staticmethod
    def _filtered(game: Game, actions: list[Action]) -> list[Action]:
        """Those of ``actions`` (valid melds or pile takes in the kernel's form) that every plugin's
        ``rummykit_legal_actions`` keeps: ``Deal.allows`` for many actions at once. The kernel's own
        implementation lists (it is not asked again); its one filter, ``discard_to_go_out: required``, is
        applied as it applies it."""
        deal = game.deal
        if game.variant.discard_to_go_out == "required":
            size = len(deal.hands[deal.current])
            actions = [a for a in actions if len(a.cards) < size]
        kernel = [standard, *(game.variant.pm.get_plugin(name) for name in game.variant.mechanics)]
        caller = game.variant.pm.subset_hook_caller("rummykit_legal_actions", remove_plugins=kernel)
        kept = list(actions)
        caller(deal=deal, actions=kept)
        return kept

    def is_selection_step(self, index: SupportsIndex) -> bool:
        """Whether index ``index`` only changes the selection (``select X``, ``next meld``): every other
        index carries out an engine action."""
        return self.keys[operator.index(index)][0] in ("select", "next")

    def build(self, selection: Selection, index: SupportsIndex) -> None:
        """Carry out the builder step ``index`` (``select X`` or ``next meld``) on ``selection``."""
        index = operator.index(index)
        if not self.is_selection_step(index):
            raise ValueError(f"{self.text(index)!r} is not a select or next meld step")
        if index == self.next_index:
            selection.cuts.append(len(selection.faces))
        else:
            selection.faces.append(index - self.select_base)

    def mask(self, game: Game, selection: Selection) -> tuple[npt.NDArray[np.int8], dict[int, Action | None]]:
        """The action mask now (1 exactly where the index is legal) and, per legal index, the engine action
        it carries out (None for the builder's steps)."""
        plan = self.plan(game, selection)
        return self.mask_of(plan), plan

    def mask_of(self, plan: dict[int, Action | None]) -> npt.NDArray[np.int8]:
        """The mask of a :meth:`plan`: 1 at its indices."""
        flags = bytearray(self.size)  # set in Python: cheaper than numpy calls for a dozen indices
        for i in plan:
            flags[i] = 1
        return np.frombuffer(flags, dtype=np.int8)

    def plan(self, game: Game, selection: Selection) -> dict[int, Action | None]:
        """Per legal index now, the engine action it carries out (None for the meld builder's steps): the
        mask's indices. While something is selected only the builder's steps are legal (select, next meld,
        commit): the builder is modal, and a selection once started is committed. A new dict per call;
        the engine is asked once per position."""
        if game.is_over:
            return {}
        if not self.commits:  # no builder: every call follows a new position
            return self._listed_indices(game, game.deal.legal_actions())  # type: ignore[return-value]
        state = (id(game), len(game.results), len(game.deal.log))
        position = self._cached
        if position is None or position.state != state:  # select steps leave the game as it is
            legal = game.legal_actions()
            position = self._cached = _Position(state, self._listed_indices(game, legal), self.meld_sets(game, legal))
        key = selection.key()
        steps = position.steps.get(key)
        if steps is None:  # random play comes back to the same selections: each is worked out once
            steps = position.steps[key] = {}
            self._builder(position, selection, steps)
        if selection.faces:  # a meld being selected is finished before anything else
            return dict(steps)
        plan: dict[int, Action | None] = dict(position.listed)
        plan.update(steps)
        return plan

    def _builder(self, position: _Position, selection: Selection, plan: dict[int, Action | None]) -> None:
        """Add the meld builder's legal steps to ``plan``: ``select X`` where the selection plus X can still
        become a legal way, ``next meld`` where the group being selected completes one meld of a legal way
        with more to come, a commit where the selection is exactly a legal way. Every selection the builder
        allows extends to a legal way, so one of these is always legal."""
        if not selection.faces and not selection.cuts:
            self._first_steps(position, plan)
        else:
            self._next_steps(position, selection, plan)

    def _first_steps(self, position: _Position, plan: dict[int, Action | None]) -> None:
        """:meth:`_builder` with nothing selected (most positions): ``select X`` for every face of a legal way
        (what :meth:`_next_steps` gives for an empty selection, without its Counters)."""
        starts: set[int] = set()
        for verb, ways in position.ways.items():
            for way in ways:
                for group in way.groups_sorted:
                    if group:
                        starts.update(group)
                    elif len(way.groups_sorted) == 1:
                        plan.setdefault(self.commit_index[verb], way.action)
                    else:
                        plan[self.next_index] = None
        for f in starts:
            plan[self.select_base + f] = None

    def _next_steps(self, position: _Position, selection: Selection, plan: dict[int, Action | None]) -> None:
        """:meth:`_builder` for any selection."""
        closed = Counter(selection.closed()) if selection.cuts else Counter()
        current = Counter(selection.current()) if selection.cuts else selection.counts()
        current_key = tuple(sorted(selection.current()))
        selectable: set[int] = set()
        further = False
        for verb, ways in position.ways.items():
            for way in ways:
                open_groups: Sequence[tuple[int, ...]] = way.groups_sorted
                if closed:
                    if any(way.keys[g] < n for g, n in closed.items()):
                        continue
                    open_groups = list((way.keys - closed).elements())
                for group in open_groups:
                    counts = way.counts[group]
                    if any(counts[f] < n for f, n in current.items()):
                        continue
                    # the way's own counts bound the copies of a face (its cards are where the engine
                    # found them: the hand, or another place a meld may take one from)
                    selectable.update(f for f in counts if counts[f] > current[f])
                    if group == current_key:
                        if len(open_groups) == 1:
                            plan.setdefault(self.commit_index[verb], way.action)
                        else:
                            further = True
        for f in selectable:
            plan[self.select_base + f] = None
        if further:
            plan[self.next_index] = None


def carry_out(
    game: Game, selection: Selection, action: Action, before: list[int]
) -> tuple[list[int], list[float] | None]:
    """Carry out the engine action ``action`` for the seat to act, whose builder ``selection`` is emptied (a
    commit has laid it). Returns each side's score after it, and per seat the change of its side's score
    since ``before`` (None: none changed): the environments' rewards."""
    hands = len(game.results)
    if selection.faces:
        selection.clear()
    game.apply(action)
    if len(game.results) == hands:  # scores change only when a hand ends (and the game with it)
        return before, None
    after = game.side_scores()
    if after == before:
        return after, None
    return after, [float(after[game.side_of(s)] - before[game.side_of(s)]) for s in range(game.num_players)]


@dataclass
class _Position:
    """What :meth:`ActionSpace.plan` keeps of the position last asked about, while select steps change only
    the selection."""

    state: tuple[int, int, int]
    """The game's id, hands played and actions in this hand: a new value for every new position."""
    listed: dict[int, Action]
    """The engine's listed actions with an index (melds apart), by index."""
    ways: dict[str, list[Way]]
    """Per meld verb, every legal way to commit it."""
    steps: dict[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]], dict[int, Action | None]] = field(
        default_factory=dict
    )
    """The builder's legal steps per selection (:meth:`Selection.key`) met so far."""


@dataclass(frozen=True)
class Way:
    """One legal way to commit a meld verb: the engine's action and its groups of faces (sorted)."""

    action: Action
    groups_sorted: tuple[tuple[int, ...], ...]

    @property
    def key(self) -> tuple[tuple[int, ...], ...]:
        """What tells ways apart: their groups, in any order."""
        return tuple(sorted(self.groups_sorted))

    @cached_property
    def keys(self) -> Counter[tuple[int, ...]]:
        """The groups, counted (the builder compares them with the groups closed so far)."""
        return Counter(self.groups_sorted)

    @cached_property
    def counts(self) -> dict[tuple[int, ...], Counter[int]]:
        """Per group, its faces counted."""
        return {g: Counter(g) for g in self.groups_sorted}

    @cached_property
    def total(self) -> Counter[int]:
        """Every face of the way, all groups together."""
        return Counter(f for g in self.groups_sorted for f in g)

    @staticmethod
    def of(action: Action) -> Way:
        if not action.groups:  # one meld: its cards are the group
            return Way(action, (tuple(sorted([c.face for c in action.cards])),))
        groups = tuple(tuple(sorted(c.face for c in cards)) for cards, _ in action.melds())
        return Way(action, groups or ((),))


class Encoder:
    """A seat's observation (``Game.observation``) as a flat float32 vector of card planes and scalars.

    Planes (53 values each, one per face, counting copies): own hand; own selection; for each other seat in
    turn order from this one, the cards seen going into its hand; the pile's top card; the visible pile;
    per seat (from this one), the cards of its table melds and what their wild cards stand for; a card on
    offer seen by this seat; the card that must be used; per zone and per seat, the cards of the zone this
    seat may see. Then scalars: the phase (one-hot over ``PHASES`` and other), whether this seat acts now,
    the seat acting (one-hot, from this one), hand sizes, stock and pile sizes (over the deck), scores per
    seat (over the target, else 100, clipped to :data:`SCORE_LIMIT` either way), the deal number (over
    100), the selection's size, how many melds of the selection are closed (``next meld``). :meth:`bounds`
    gives each entry's least and greatest value."""

    def __init__(
        self,
        variant: Variant,
        players: int,
        zones: Sequence[str],
        deck: Sequence[Card],
        max_hands: int | None = None,
    ):
        self._made = (variant, players, tuple(zones), tuple(deck), max_hands)
        """What it was made of: its copies are made again of it (:meth:`__reduce__`)."""
        self.players = players
        self.zones = list(zones)
        n = players
        self.planes = 2 + (n - 1) + 2 + 2 * n + 2 + n * len(self.zones)
        self.scalars = len(PHASES) + 1 + 1 + n + n + 2 + n + 1 + 1 + 1
        self.size = self.planes * FACES + self.scalars
        target = variant.ruleset.get("target")
        self.score_scale = float(target) if isinstance(target, int) and target > 0 else 100.0
        self._score_high = int(SCORE_LIMIT * self.score_scale)
        """The greatest score observed as it is (whole points): beyond it (or below minus it) it is clipped."""
        self._score_low = -self._score_high
        self.score_columns = slice(players + 2, 2 * players + 2)
        """Where the scores are among the scalars :meth:`parts` gives as values."""
        self.hand_limit: int = max_hands or variant.ruleset.get("max_hands") or DEFAULT_MAX_HANDS
        """The most hands a game plays (``Game.max_hands``): the deal number's bound."""
        self._faces: dict[str, int] = {}
        self.deck_size = len(deck)
        self.distinct = len({c.face for c in deck}) == len(deck)
        """Whether no face is in the deck twice: a card's index is then set once (wild cards apart)."""
        self.fanned = variant.discard_pile == "fanned"
        self.open_pile = variant.discard_pile != "none"
        self.must_use = variant.melds_on_table
        self.search = variant.meld_search
        plane = FACES
        # flat offsets, built once: per seat, where each other seat's planes start (seats counted from it)
        self._rel = [[(s - seat) % n for s in range(n)] for seat in range(n)]
        self._known_base = [[(2 + (s - seat) % n - 1) * plane for s in range(n)] for seat in range(n)]
        self._pile = (2 + n - 1) * plane
        self._table = [[(2 + n - 1 + 2 + (s - seat) % n) * plane for s in range(n)] for seat in range(n)]
        self._wilds = [[base + n * plane for base in row] for row in self._table]
        self._offer = (2 + n - 1 + 2 + 2 * n) * plane
        self._zone = [
            [
                [(2 + n - 1 + 2 + 2 * n + 2 + z * n + (s - seat) % n) * plane for s in range(n)]
                for z in range(len(zones))
            ]
            for seat in range(n)
        ]
        start = self.planes * plane
        self._phase = {p: start + i for i, p in enumerate(PHASES)}
        self._phase_other = start + len(PHASES)
        self._acting = start + len(PHASES) + 1
        self._actor = [[self._acting + 1 + (s - seat) % n for s in range(n)] for seat in range(n)]
        self._rest = self._acting + 1 + n
        """Where the scalars written as values start (hand sizes first)."""
        self.divisors = np.array(
            [self.deck_size] * (n + 2) + [self.score_scale] * n + [100.0, 1.0, 1.0], dtype=np.float64
        )
        """What each scalar :meth:`parts` gives is divided by: sizes by the deck's, scores by the target,
        the deal number by 100."""
        self._divisor_list: list[float] = self.divisors.tolist()
        self._known_to = [[(s, self._known_base[seat][s]) for s in range(n) if s != seat] for seat in range(n)]
        """Per seat, each other seat with where its known-in-hand plane starts."""
        self.meld_cache_size = 4096
        """How many table melds' indices are kept (a vector environment of many games raises it)."""
        self._placed: dict[int, tuple[Any, dict[tuple[int, int], list[int]]]] = {}
        """Per table meld (by id, with the meld to tell a reused id apart), its indices per (seat, owner)."""
        self._low, self._high = self._bounds(variant, deck)

    def _bounds(
        self, variant: Variant, deck: Sequence[Card]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        n = self.players
        copies = np.bincount([c.face for c in deck], minlength=FACES).astype(np.float64)
        # an entry that is always 0 (a face the deck lacks) gets the bound 1: Gymnasium warns of equal bounds
        counts = np.maximum(copies, 1.0)
        one = np.ones(FACES)
        wilds = np.full(FACES, max(1, sum(map(variant.meld_search.is_wild, deck))), dtype=np.float64)
        planes = [counts, counts, *[counts] * (n - 1), one, counts, *[counts] * n, *[wilds] * n, one, one]
        planes += [counts] * (n * len(self.zones))
        limit = float(SCORE_LIMIT)
        # one-hots and flags, sizes over the deck, scores, the deal number, the selection's size and splits
        scalars = [1.0] * (len(PHASES) + 1 + 1 + n) + [1.0] * (n + 2) + [limit] * n
        scalars += [self.hand_limit / 100.0, float(self.deck_size), float(self.deck_size)]
        high = np.concatenate([*planes, np.array(scalars)])
        low = np.zeros_like(high)
        scores = self._rest + n + 2
        low[scores : scores + n] = -limit
        assert high.shape == (self.size,)
        return low.astype(np.float32), high.astype(np.float32)

    def bounds(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """Each entry's least and greatest value (new arrays): counts up to the copies of the face in the
        deck (what wild cards stand for: up to the deck's wild cards), one-card planes, one-hots and flags
        0 or 1, sizes over the deck 0 to 1, scores between minus and plus :data:`SCORE_LIMIT`, the deal
        number up to :attr:`hand_limit` over 100, the selection's size and splits up to the deck's size. An
        entry that is always 0 (the joker's, in a deck without one) is bounded by 1."""
        return self._low.copy(), self._high.copy()

    def __reduce__(self) -> tuple[type[Encoder], tuple[Any, ...], dict[str, int]]:
        """Copied (and pickled) as made, with empty caches and the same cache size: the same in both builds
        (a compiled class has no ``__dict__`` to copy)."""
        return type(self), self._made, {"meld_cache_size": self.meld_cache_size}

    def __setstate__(self, state: dict[str, int]) -> None:
        self.meld_cache_size = state["meld_cache_size"]

    @classmethod
    def for_variant(cls, variant: Variant, players: int, max_hands: int | None = None) -> Encoder:
        """The encoder of ``variant`` with ``players`` seats, for games started with ``max_hands`` (as
        ``Variant.new_game`` takes it): its zones, deck and hand limit read off a game of it."""
        probe = variant.new_game(players=players, seed=0, max_hands=max_hands)
        return cls(variant, players, sorted(probe.deal.zones), probe.deck, probe.max_hands)

    def face(self, text: str) -> int:
        """The face (0 to 52) of a card's text, such as ``7H``; looked up once per text."""
        face = self._faces.get(text)
        if face is None:
            face = self._faces[text] = parse_card(text).face
        return face

    def plane_names(self) -> list[str]:
        """The name of each 53-wide plane, in order (``hand``, ``selection``, ``known in hand of seat +1``...)."""
        n = self.players
        names = ["hand", "selection"] + [f"known in hand of seat +{k}" for k in range(1, n)]
        names += ["pile top", "visible pile"]
        names += [f"table melds of seat +{k}" for k in range(n)]
        names += [f"wilds on table of seat +{k} stand for" for k in range(n)]
        names += ["offered card", "must use"]
        names += [f"zone {z} of seat +{k}" for z in self.zones for k in range(n)]
        return names

    def encode_game(self, game: Game, seat: SupportsIndex, selection: Selection) -> npt.NDArray[np.float32]:
        """``seat``'s observation now, read from the engine's state through the same :class:`Deal` methods
        ``Game.observation`` uses (``known_in_hand``, ``zone_seen``, ``offer_seen``, ``pile_top_seen``...):
        equal to ``encode(game.observation(seat), ...)``, without building the text view."""
        faces, once, rest = self.parts(game, operator.index(seat), selection)
        low, high = self._score_low, self._score_high
        for score in game.scores:  # a plain loop: about a third of what max() and min() cost on a short list
            if score > high or score < low:
                at = self.score_columns
                rest[at] = [low if s < low else high if s > high else s for s in rest[at]]
                break
        if once:  # every index once: put, no counting
            out = np.zeros(self.size, dtype=np.float32)
            out.put(faces, 1.0)
        else:
            out = np.bincount(faces, minlength=self.size).astype(np.float32)
        # divided in Python, as encode() does: numpy's slice and division cost more for a dozen values
        out[self._rest :] = [value / by for value, by in zip(rest, self._divisor_list)]
        return out

    def parts(self, game: Game, seat: int, selection: Selection) -> tuple[list[int], bool, list[int]]:
        """The parts :meth:`encode_game` (and the vector environment, many games at once) builds the vector
        from: the indices of its one-hot and card entries, each counted once per time it is listed; whether
        none can be listed twice (a deck without two cards of a face, no wild card on the table); the
        remaining scalars, from index :attr:`rest` on, before they are divided by :attr:`divisors` (whole
        numbers: sizes, scores, the deal number). Scores are as the game keeps them: the caller clips them
        (:attr:`score_columns`) to the limit."""
        deal = game.deal
        faces: list[int] = [c.face for c in deal.hands[seat]]
        if selection.faces:
            faces += [FACES + f for f in selection.faces]
        if deal.seen:  # cards seen going into other hands
            for s, base in self._known_to[seat]:
                faces += [base + c.face for c in deal.known_in_hand(seat, s)]
        else:  # Deal.known_in_hand's usual case (only cards known to all), inline: it runs every step
            known, hands = deal.known, deal.hands
            for s, base in self._known_to[seat]:
                ids = known[s]
                if ids:
                    faces += [base + c.face for c in hands[s] if c.id in ids]
        discard = deal.discard
        if discard and self.open_pile:  # Deal.pile_top_seen, inline
            top = discard[-1]
            if top.id not in deal.face_down:
                faces.append(self._pile + top.face)
        if self.fanned and discard:
            base = self._pile + FACES
            faces += [base + c.face for c in deal.pile_seen()]
        wild = False
        if deal.table:
            table, wilds = self._table[seat], self._wilds[seat]
            for tm in deal.table:
                meld = tm.meld
                faces += self._meld_indices(meld, seat, tm.owner, table, wilds)
                if meld.wilds:
                    wild = True
        if deal.offer is not None:
            offered = deal.offer_seen(seat)
            if offered is not None:
                faces.append(self._offer + offered.face)
        if self.must_use and deal.taken is not None and deal.phase == "use":
            faces.append(self._offer + FACES + deal.taken.face)
        if deal.zones:
            bases = self._zone[seat]
            for z, name in enumerate(self.zones):
                zone = deal.zones.get(name)
                if zone is None:
                    continue
                for owner in range(len(zone.cards)):
                    if zone.cards[owner]:
                        base = bases[z][owner]
                        faces += [base + c.face for c in deal.zone_seen(seat, zone, owner)]
        # the one-hot scalars are counted with the planes; the others are written in one assignment
        faces.append(self._phase.get(deal.phase, self._phase_other))
        if not game.is_over:
            actor = deal.actor
            if actor == seat:
                faces.append(self._acting)
            faces.append(self._actor[seat][actor])
        once = self.distinct and not wild  # else an index may be listed twice: counting is cheaper than checking
        # the rest of the vector, in order (seats from this one): hand sizes, stock and pile, scores, deal
        # number, selection size; unscaled (the caller divides by divisors, in numpy)
        rest: list[int] = [*map(len, deal.hands)]
        if seat:
            rest = rest[seat:] + rest[:seat]
        rest += (len(deal.stock), len(deal.discard))
        scores = game.scores
        rest += scores[seat:]
        rest += scores[:seat]
        rest += (deal.number, len(selection.faces), len(selection.cuts))
        return faces, once, rest

    @property
    def rest(self) -> int:
        """Where the scalars :meth:`parts` gives as values start in the vector."""
        return self._rest

    def _meld_indices(self, meld: Any, seat: int, owner: int, table: list[int], wilds: list[int]) -> list[int]:
        """A table meld's indices in ``seat``'s observation: its cards, and the faces its wild cards stand
        for. Table melds are immutable (a lay-off makes a new one): worked out once per seat and owner."""
        held = self._placed.get(id(meld))
        if held is None or held[0] is not meld:  # a new meld, or another object with a finished one's id
            if len(self._placed) >= self.meld_cache_size:  # melds of finished games
                self._placed.clear()
            held = self._placed[id(meld)] = (meld, {})
        indices = held[1].get((seat, owner))
        if indices is None:
            base = table[owner]
            indices = [base + c.face for c in meld.cards]
            if meld.wilds:
                base = wilds[owner]
                indices += [base + f for f in stands_for_faces(meld, self.search) or () if f is not None]
            held[1][seat, owner] = indices
        return indices

    def encode(self, view: dict[str, Any], selection: Selection, deck_size: int) -> npt.NDArray[np.float32]:
        """The same vector from a text observation (``Game.observation``): the reference
        :meth:`encode_game` is tested against, and a way to encode views kept as data."""
        n = self.players
        seat = int(view["seat"])
        out = np.zeros(self.size, dtype=np.float32)
        planes = out[: self.planes * FACES].reshape(self.planes, FACES)
        face = self.face

        rel = self._rel[seat]  # each seat counted from this one

        for text in view["hand"]:
            planes[0, face(text)] += 1
        for f in selection.faces:
            planes[1, f] += 1
        for other, cards in view["known"].items():
            row = 2 + rel[int(other)] - 1
            for text in cards:
                planes[row, face(text)] += 1
        base = 2 + n - 1
        if view.get("discard_top") is not None:
            planes[base, face(view["discard_top"])] = 1
        for text in view.get("discard", ()):
            planes[base + 1, face(text)] += 1
        base += 2
        for entry in view["table"]:
            owner = rel[int(entry["owner"])]
            for text in entry["cards"]:
                planes[base + owner, face(text)] += 1
            for text in entry.get("stands_for") or ():
                if text is not None:
                    planes[base + n + owner, face(text)] += 1
        base += 2 * n
        offer = view.get("offer")
        if offer is not None and offer.get("card") is not None:
            planes[base, face(offer["card"])] = 1
        if view.get("must_use") is not None:
            planes[base + 1, face(view["must_use"])] = 1
        base += 2
        zones = view.get("zones") or {}
        for z, name in enumerate(self.zones):
            for owner, part in enumerate(zones.get(name, ())):
                for text in part["cards"]:
                    planes[base + z * n + rel[owner], face(text)] += 1
        s = self.planes * FACES
        phase = view["phase"]
        out[s + (PHASES.index(phase) if phase in PHASES else len(PHASES))] = 1
        s += len(PHASES) + 1
        actor = view["current_player"]
        out[s] = 1.0 if actor == seat else 0.0
        s += 1
        if actor is not None:
            out[s + rel[int(actor)]] = 1
        s += n
        for other, size in enumerate(view["hand_sizes"]):
            out[s + rel[other]] = size / deck_size
        s += n
        out[s] = view["stock_size"] / deck_size
        out[s + 1] = view["discard_size"] / deck_size
        s += 2
        low, high = self._score_low, self._score_high
        for other, score in enumerate(view["scores"]):
            out[s + rel[other]] = min(max(score, low), high) / self.score_scale
        s += n
        out[s] = view["deal"] / 100.0
        out[s + 1] = len(selection.faces)
        out[s + 2] = len(selection.cuts)
        return out


# Names the module no longer defines, found with a DeprecationWarning. Put in the module's namespace once
# everything else is there: a module compiled with mypyc that defines ``__getattr__`` calls it while it
# still starts up, and crashes.
globals()["__getattr__"] = _retired
