"""The extension points of rummykit, as pluggy hook specifications.

A game is a YAML ruleset plus the plugins it names. A plugin is a plain module with functions decorated
``@rummykit.hookimpl`` and named after these hooks; it is found through the ``rummykit`` entry-point
group (built-in games use the same group as third-party house rules). Every game also gets the kernel's
own implementations (:mod:`rummykit.standard`), registered first, so a plugin implements only what its
game does differently. For hooks marked *first result*, the plugin registered last is asked first and
the first answer that is not ``None`` wins; so a house rule overrides its game, which overrides the kernel.
Every other hook runs in layers, the kernel first, then the game's plugins in the order its ruleset
lists them, then house rules: each sees, and may change, what the layers before it did.

Hooks are looked up once per game and called a few times per turn at most, never once per card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from .actions import ActionWords, PositionWords, Verb
    from .cards import Card
    from .engine import Action, Deal, Game, HandResult
    from .melds import MeldRules
    from .results import ResultWords
    from .variant import Variant

hookspec = pluggy.HookspecMarker("rummykit")
hookimpl = pluggy.HookimplMarker("rummykit")
"""Marker for plugin functions that implement a hook below (``rummykit.hookimpl`` is the same object)."""


@hookspec
def rummykit_rules_schema() -> dict[str, Any] | None:
    """Return the JSON Schema of the values this plugin reads from the ruleset's ``rules`` block.

    Every schema returned is applied to ``rules``, so each plugin only describes its own keys; the
    kernel refuses keys that no plugin describes.
    """


@hookspec
def rummykit_ruleset_problems(
    ruleset: dict[str, Any],
) -> list[tuple[str, str] | tuple[str, str, list[str]]] | None:
    """Return what this plugin cannot play in ``ruleset``, the whole ruleset once its files, house rules and
    options are merged (``None`` or ``[]``: nothing). For the values a schema cannot judge alone: a kernel
    value the game's rules make pointless, two of its own values that contradict each other.

    Each problem is ``(path, message)``, the path dotted as in the kernel's messages (``draw.empty_stock``,
    ``melds.wild[0]``): it is told at the line that set that value. Or ``(path, message, [other paths])``,
    for a value wrong because of others: it is told at the line of the one the newest file sets (the one
    that file's author can change), saying where the other comes from, as the kernel's own clashes are.

    Asked once the schema and the kernel's own checks pass, each plugin with its own copy of ``ruleset``;
    the ruleset is refused before any game starts. It cannot be a wrapper.
    """


@hookspec
def rummykit_house_rules() -> dict[str, dict[str, Any]] | None:
    """Return house rules this plugin offers, by name: each a mapping like a ruleset's ``house_rules``
    entries (``summary``, optional ``set``, ``plugins``, ``conflicts``, and ``variants``: the names of
    the variants it applies to)."""


@hookspec(firstresult=True)
def rummykit_meld_rules(variant: Variant, rules: MeldRules) -> MeldRules | None:
    """Called once when a variant is built: return changed meld rules (special melds, wild cards that
    depend on the deal are handled elsewhere), or ``None`` to keep ``rules``. A game's own meld test goes
    in ``accept``: it is given a meld and answers True or False from the meld's kind and faces (what each
    card is and stands for), never from which copy of a card it holds, since the search keeps its answers by
    faces. When it looks only at wild cards standing for certain cards, name those in ``accept_faces`` too
    (Arlington: the queen of spades), so that big hands list quickly."""


@hookspec(firstresult=True)
def rummykit_deal(deal: Deal, deck: list[Any]) -> bool | None:
    """Deal ``deck`` (already shuffled, or prearranged) into ``deal``: fill ``deal.hands``,
    ``deal.discard`` and ``deal.stock``. Return True when done."""


@hookspec
def rummykit_dealt(deal: Deal, prearranged: bool) -> None:
    """Called once the cards of a deal lie where the deal put them, before :func:`rummykit_start_hand`:
    dealt by :func:`rummykit_deal` from the shuffled deck, or laid out from a prearranged deal
    (``prearranged`` True; :func:`rummykit_deal` is not called then, and the cards the deal does not name
    lie in the stock). A game that deals specially (cards set aside, cards dealt into zones of its own)
    finishes its deal here, so that prearranged deals get it too."""


@hookspec(firstresult=True)
def rummykit_seats_in_play(game: Game, dealer: int) -> list[int] | None:
    """Return the seats that play the next deal (all by default; Gin for three leaves the dealer out)."""


@hookspec
def rummykit_start_hand(deal: Deal) -> None:
    """Called after the deal, before the first action: set the first phase and player, and any
    per-deal state (a knock limit read from the upcard, for example) in ``deal.state``, best as a dataclass
    of your own (``deal.state_of(YourState)``, :mod:`rummykit.typed`)."""


@hookspec
def rummykit_legal_actions(deal: Deal, actions: list[Action]) -> None:
    """Adjust the legal actions of the current position in place: the kernel fills ``actions`` with
    the standard ones for the phase (draws, melds, lay-offs, discards), then the game's plugins add their
    own (knock, pass) and remove what their game forbids, then house rules do the same.

    This hook is the one place that decides what is legal. A typed action that the bounded list left out
    (see :func:`rummykit_check_action`) is put through it too: the kernel lists it (``deal.probe``), and
    it is legal only if every implementation keeps it. So remove what your game forbids by filtering
    ``actions`` rather than by assuming what the list holds.

    What is legal depends only on what the player to act can see (the legal actions are part of that player's
    ``Game.observation``): never on another player's hidden cards or the order of the stock. The search bot
    relies on it: each position it samples (the hidden cards dealt again) starts from the real game's list."""


@hookspec
def rummykit_closed_verbs(deal: Deal) -> list[str] | None:
    """Return the plain turn's verbs (``meld``, ``layoff``) your game closes in this position although the
    kernel's own check allows them, so that the kernel does not list them only for your
    :func:`rummykit_legal_actions` to remove them (Skarney before a side's contract: its only meld is the
    contract, which it lists itself). Asked once per listing of the ``play`` phase. Closing a verb here
    saves work only: still remove what your game forbids in :func:`rummykit_legal_actions`, where typed
    actions are decided too."""


@hookspec(firstresult=True)
def rummykit_check_action(deal: Deal, action: Action) -> Action | bool | None:
    """Called when ``action`` is not among the listed legal actions (``legal_actions`` may list a bounded
    subset, such as at most ``MELD_ACTION_LIMIT`` melds): return the legal action it names, with the
    actual cards from the hand, if it is legal; ``False`` to refuse it outright (no later implementation
    is asked); ``None`` to leave it to the next implementation (the kernel's, last, accepts any valid
    meld or lay-off in the ``play`` and ``use`` phases). An accepted action must then also survive
    :func:`rummykit_legal_actions`."""


@hookspec(firstresult=True)
def rummykit_explain_illegal(deal: Deal, action: Action) -> str | None:
    """Called only when an action is refused: return why, in words a player understands."""


@hookspec(firstresult=True)
def rummykit_apply_action(deal: Deal, action: Action) -> bool | None:
    """Carry out a legal ``action``. Return True when handled; ``None`` lets the kernel do it.

    The action has already been checked against :func:`rummykit_legal_actions`. Implement this hook only for
    the verbs your game carries out itself; to keep books on actions the kernel (or another plugin) carries
    out, implement :func:`rummykit_action_applied` instead. An implementation that only watches and returns
    ``None`` still works (it runs before the action is carried out), but it is not told the action's seat and
    it sees the deal before the action, not after.
    """


@hookspec
def rummykit_action_applied(deal: Deal, seat: int, action: Action) -> None:
    """Called after ``seat``'s ``action`` was carried out and recorded, once per action, in the order they
    were taken: those people and bots choose and those the rules make by themselves
    (:func:`rummykit_automatic_action`), and again when a failed action is undone and the deal is played
    again up to it. Every implementation is called. ``deal`` is as the action left it: when it ended the
    hand, ``deal.result`` is already scored, and when it ended the turn the next turn has started. Keep your
    game's books here (what was laid, offered, taken); state that scoring or the next turn's start must see
    belongs in the hook that carries the action out or in :func:`rummykit_turn_ended`."""


@hookspec
def rummykit_turn_started(deal: Deal, seat: int) -> None:
    """Called when ``seat``'s turn starts (the first turn of a deal too, after :func:`rummykit_start_hand`):
    set the turn's first phase or per-turn state."""


@hookspec(firstresult=True)
def rummykit_automatic_action(deal: Deal) -> Action | None:
    """Return a move the rules make by themselves now (Iceberg's aces laid face up; the kernel's own, under
    ``turn.discard_to``: taking up the card passed face down, ``take up 8D``), or ``None``. The kernel
    carries it out through :func:`rummykit_apply_action` for ``deal.actor``, records it (``auto: ACTION``
    in a record, made again on replay) and asks again, until no move is returned. Called after every
    action and when a deal starts."""


@hookspec(firstresult=True)
def rummykit_offer_order(deal: Deal, seat: int, card: Card) -> list[int] | None:
    """Return the seats ``seat``'s offer of ``card`` goes to, in the order they are asked (under
    ``turn.end: offer``). The kernel's: every other seat in play, from the left-hand one clockwise."""


@hookspec
def rummykit_turn_ended(deal: Deal, seat: int) -> None:
    """Called when ``seat`` finished a turn (after a discard). A plugin may end the hand here
    (``deal.finish(kind)``), for example when the stock runs low."""


@hookspec(firstresult=True)
def rummykit_stock_exhausted(deal: Deal) -> str | None:
    """Called when a turn ends with the stock empty (from the kernel's :func:`rummykit_turn_ended`): return
    how the hand ends, as the kind it is scored as (the kernel's: ``exhausted``), or ``""`` to play on. The
    kernel's answer follows the ruleset: under ``draw.empty_stock`` it makes the stock again from the pile
    (as it already did when an action emptied the stock, if the pile allowed) and plays on; otherwise the
    hand ends ``exhausted``, unless ``draw.from_pile: any`` lets the next player take from the pile (with
    nothing to take, they end the hand, ``end``)."""


@hookspec(firstresult=True)
def rummykit_score_hand(deal: Deal, kind: str) -> HandResult | None:
    """Score a finished hand that ended as ``kind`` (``out``, ``knock``, ``dead``...). A hand abandoned at the
    ruleset's turn limit (``max_turns``, kind ``turn-limit``) is not scored: the kernel gives every seat 0.

    ``details["breakdown"]``, when given, lists per seat (label, value) pairs that the terminal shows after
    that seat's cards at the end of the hand (Iceberg: ``melded 50``, ``cards in hand -50``, ``ace
    multiplier x2``)."""


@hookspec
def rummykit_describe_result(game: Game, deal: Deal | None, result: HandResult, words: ResultWords) -> None:
    """Describe a finished hand's ``result`` for people: fill in ``words``
    (:class:`~rummykit.results.ResultWords`), through which the terminal, the web page, the lab and the
    environments show every result. ``deal`` is the deal it ended, or ``None`` when the face no longer has it.

    The kernel fills it in first: ``ending`` (``a player went out``, ``the stock ran out``, else the
    result's kind), ``scored`` (``North scores 12``), a line per seat in ``seats`` (its melds on the table,
    the cards left and ``details["breakdown"]``) and ``details["bonuses"]`` in ``lines``. A game then says
    what only it knows: how its own kinds of ending read (Gin: ``knock by North``, ``undercut by South
    (North knocked)``), its own seat lines (the knocker, the deadwood, the unmatched cards), further lines
    (the cards laid off) and ``figures``, numbers per seat that the lab averages (Gin: the knocker's
    deadwood). Name seats with ``words.name(seat)``; ``words.viewer`` is the seat reading, if any."""


@hookspec(firstresult=True)
def rummykit_next_dealer(game: Game, result: HandResult) -> int | None:
    """Return the seat that deals the next hand. ``result`` may be one the kernel made, not the game's
    ``rummykit_score_hand``: a hand abandoned at the turn limit (kind ``turn-limit``, every score 0, details
    ``{"turns": N}`` only), so read a game's own details with ``.get``."""


@hookspec(firstresult=True)
def rummykit_game_over(game: Game) -> bool | None:
    """Return whether the game is over after the hand just scored."""


@hookspec(firstresult=True)
def rummykit_score_game(game: Game) -> list[tuple[int, str, int]] | None:
    """Return the end-of-game bonuses as (seat, name, points); they are added to ``game.scores``."""


@hookspec(firstresult=True)
def rummykit_describe_action(deal: Deal, seat: int, action: Action, viewer: int | None) -> ActionWords | None:
    """Describe ``action``, taken by ``seat``, for people (a game's log, the terminal) and for bots: return
    :class:`~rummykit.actions.ActionWords`, or ``None`` for an action this plugin did not add. A game
    describes the verbs it adds (Gin: ``pass``, ``knock``, ``big gin``, ``done``); the kernel describes its own.

    ``you`` is read by ``seat`` itself, ``they`` by ``viewer``: another seat, or ``None`` for an onlooker who
    sees only what every player sees. Neither may name a card its reader may not see (``deal.sees``,
    ``deal.seen``). ``deal`` is usually as it is just after the action (the card drawn is in the hand); a
    bot asks before taking it, once per verb listed, and reads only ``ends_hand``, so that flag should
    depend on the verb and not on the deal."""


@hookspec
def rummykit_verbs(variant: Variant) -> list[Verb] | None:
    """Return the verbs your plugin adds to ``variant``'s actions (:class:`~rummykit.actions.Verb`: how
    each names cards, a short form for the terminal). Called once per variant; the answers of every plugin
    are merged by name (:attr:`Variant.verbs <rummykit.variant.Variant.verbs>`), so declare only your own."""


@hookspec
def rummykit_describe_position(deal: Deal, seat: int, words: PositionWords) -> None:
    """Fill in what ``seat`` is told about the position besides the cards (the terminal shows it on each of
    its turns): ``words.hint``, what to do now, for the phases your game adds; ``words.facts``, shown beside
    the pile and the stock on each turn and at the head of each deal (Gin: ``Knock limit: 10``);
    ``words.verbs``, your game's verbs. The kernel fills them in first for its phases and verbs, then each
    plugin may change them."""


@hookspec
def rummykit_observe(deal: Deal, seat: int | None, view: dict[str, Any]) -> None:
    """Add to (or hide from) ``view``, what ``seat`` may see of the current hand. ``seat`` is None for an
    onlooker (the web table's spectators), who may see only what every player sees."""
