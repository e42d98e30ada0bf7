"""Wild cards that know what they stand for: chosen when melding, kept by lay-offs, named in action text."""

from __future__ import annotations

from dataclasses import replace

import pytest

import rummykit
from rummykit import Action, IllegalAction
from rummykit.cards import parse, parse_card
from rummykit.engine import Game
from rummykit.melds import Meld, MeldRules, MeldSearch

DEUCES_WILD = {"decks": {"jokers": 1}, "card_values": {"JK": 15}, "melds": {"wild": ["2", "JK"], "set_max": 4}}


def wild_500(deal: dict[str, object]) -> Game:
    variant = rummykit.load_variant("500-rum", options=DEUCES_WILD)
    return variant.new_game(layout=deal, seed=1)


def play_deal(hand: str, table: list[str] | None = None) -> Game:
    game = wild_500({"dealer": 1, "hands": [hand.split(), "AS 3S 3D 5S 8C 9D 4S QD QS KD".split()], "discard": ["KC"]})
    game.apply("draw stock")
    return game


@pytest.mark.parametrize(
    "text",
    [
        "meld 5H 6H 2C=7H",
        "meld 7H 7S 7D | 8C 8D 8S | 9H 9C 2S=9D",
        "layoff 2C=8H on 3",
        "take pile with 7S 7D",
        "swap 6H on 3",
        "offer 7H",
        "accept",
        "draw discard 7H 4S 7H 2C",
    ],
)
def test_action_text_round_trips(text: str) -> None:
    action = Action.parse(text)
    assert str(action) == text
    assert Action.parse(str(action)) == action


def test_action_grammar_pieces() -> None:
    contract = Action.parse("meld 7H 7S 7D | 8C 8D 8S | 9H 9C 2S")
    assert contract.groups == (3, 3, 3)
    assert [len(cards) for cards, _ in contract.melds()] == [3, 3, 3]
    named = Action.parse("meld 5H 6H 2C=7H")
    assert named.stands_for == (None, None, parse_card("7H"))
    assert Action.parse("take pile with 7S 7D").kind == "take pile with"
    assert Action.parse("swap 6H on 3").target == 3
    # Order of melds and of cards within a meld does not matter when matching a typed action.
    assert contract.same_as(Action.parse("meld 9C 2S 9H | 8S 8D 8C | 7D 7S 7H"))
    assert not contract.same_as(Action.parse("meld 7H 7S 7D 8C | 8D 8S | 9H 9C 2S"))
    assert not named.same_as(Action.parse("meld 5H 6H 2C=4H"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("meld 7H 7S | | 8C 8D 8S", "a meld is missing"),
        ("meld | 7H 7S 7D", "a meld is missing"),
        ("meld 7H 7S 7D |", "a meld is missing"),
        ("meld 5H 6H 2C=7X", "after '=' comes the card 2C stands for"),
        ("meld " + "7H " * 2000, "at most 2000 characters"),
    ],
)
def test_bad_action_text_is_refused_saying_why(text: str, message: str) -> None:
    with pytest.raises(IllegalAction, match=message):
        Action.parse(text)


def test_a_wild_in_a_run_may_stand_at_either_end_and_both_are_listed() -> None:
    game = play_deal("6H 7H 2C 9S TS JS 4C 5D 8D KH")
    texts = {str(a) for a in game.legal_actions() if a.kind == "meld"}
    assert "meld 2C=5H 6H 7H" in texts
    assert "meld 6H 7H 2C=8H" in texts


@pytest.mark.parametrize(("typed", "shown"), [("meld 6H 7H 2C=5H", "2C=5H 6H 7H"), ("meld 6H 7H 2C", "6H 7H 2C=8H")])
def test_the_player_chooses_what_a_wild_stands_for(typed: str, shown: str) -> None:
    game = play_deal("6H 7H 2C 9S TS JS 4C 5D 8D KH")
    game.apply(typed)
    table_meld = game.deal.table[0]
    text = " ".join(
        f"{c}={rummykit.cards.card_from_face(f)}" if c.rank == 2 else str(c)
        for c, f in zip(table_meld.meld.cards, table_meld.meld.faces)
    )
    assert text == shown
    assert game.history[-1][-1] == "meld " + shown  # the record says exactly which meld it was


def test_a_wild_that_cannot_stand_there_is_refused_and_changes_nothing() -> None:
    game = play_deal("6H 7H 2C 9S TS JS 4C 5D 8D KH")
    before = game.to_json(), [list(h) for h in game.deal.hands]
    for text in ("meld 6H 7H 2C=9H", "meld 6H 7H 2C=8S", "meld 6H 7H 9S=8H"):
        with pytest.raises(IllegalAction):
            game.apply(text)
    assert (game.to_json(), [list(h) for h in game.deal.hands]) == before


def test_a_lay_off_keeps_what_a_wild_on_the_table_stands_for() -> None:
    game = play_deal("5H JK 7H 2C 6H 9S TS JS 4D KH")
    game.apply("meld 5H JK=6H 7H")
    meld = game.deal.table[0].meld
    joker_place = dict(zip(meld.cards, meld.faces))[parse_card("JK")]
    layoffs = {str(a) for a in game.legal_actions() if a.kind == "layoff"}
    assert layoffs >= {"layoff 2C=8H on 0", "layoff 2C=4H on 0"}
    assert "layoff 6H on 0" not in layoffs  # the joker stands for 6H: laying off 6H would move it
    with pytest.raises(IllegalAction):
        game.apply("layoff 6H on 0")
    game.apply("layoff 2C on 0")  # unnamed: goes on the top end
    grown = game.deal.table[0].meld
    faces = dict(zip(grown.cards, grown.faces))
    assert faces[parse_card("JK")] == joker_place == parse_card("6H").face
    assert faces[parse_card("2C")] == parse_card("8H").face


def test_a_wild_in_a_set_stands_for_a_card_of_its_rank_and_the_suit_may_be_named() -> None:
    game = play_deal("7H 7S 2C 9S TS JS 4C 5D 8D KH")
    game.apply("meld 7H 7S 2C=7D")
    assert dict(zip(game.deal.table[0].meld.cards, game.deal.table[0].meld.faces))[parse_card("2C")] == (
        parse_card("7D").face
    )
    game2 = play_deal("7H 7S 2C 9S TS JS 4C 5D 8D KH")
    with pytest.raises(IllegalAction):
        game2.apply("meld 7H 7S 2C=8D")


def test_meld_rules_accept_is_the_games_last_word() -> None:
    """Arlington's rule as a predicate: a wild card may stand for QS only in a meld otherwise natural."""
    variant = rummykit.load_variant("500-rum", options=DEUCES_WILD)
    queen = parse_card("QS").face

    def arlington(meld: Meld) -> bool:
        stand_in = any(f == queen and c.face != queen for c, f in zip(meld.cards, meld.faces))
        return not stand_in or meld.wilds == 1

    plain = variant.meld_search
    strict = MeldSearch(replace(plain.rules, accept=arlington), plain.values)
    qs, js = parse_card("QS"), parse_card("JS")
    assert strict.meld(parse("KS 2H JS"), stands_for=[None, qs, None]) is not None
    assert strict.meld(parse("KS QS 2H 2D"), stands_for=[None, None, js, parse_card("TS")]) is not None
    assert plain.meld(parse("KS 2H 2D"), stands_for=[None, qs, js]) is not None
    assert strict.meld(parse("KS 2H 2D"), stands_for=[None, qs, js]) is None
    # Lay-offs honour it too: a second wild card on a run where a 2 stands for QS.
    run = strict.meld(parse("KS 2H JS"), stands_for=[None, qs, None])
    assert run is not None
    assert plain.extend(run, parse("2D"), [parse_card("TS")]) is not None
    assert strict.extend(run, parse("2D"), [parse_card("TS")]) is None


def exchange_game(mode: str, layout: dict[str, object]) -> Game:
    options = {**DEUCES_WILD, "table": {"melds": True, "layoff": "any", "exchange": mode}}
    return rummykit.load_variant("500-rum", options=options).new_game(layout=layout, seed=1)


SWAP_LAYOUT = {
    "dealer": 1,
    "hands": ["5H 2C 7H 9S 9D 2D 6H 4S 8C TC".split(), "QS QD 2S 6S KD 3D 4H JC 9H TD".split()],
    "discard": ["KC"],
    "stock": ["AC", "AD", "5C"],
}


def test_a_wild_card_on_the_table_is_exchanged_for_the_card_it_stands_for() -> None:
    game = exchange_game("any", SWAP_LAYOUT)
    game.apply("draw stock")
    game.apply("meld 5H 2C=6H 7H")
    assert "swap 6H on 0" in {str(a) for a in game.legal_actions()}
    game.apply("swap 6H on 0")
    meld = game.deal.table[0].meld
    assert [str(c) for c in meld.cards] == ["5H", "6H", "7H"] and meld.wilds == 0
    assert parse_card("2C") in game.deal.hands[0]
    assert str(parse_card("2C")) in game.observation(1)["known"]["0"]  # everyone saw it come off the table


def test_in_a_set_any_card_of_its_rank_takes_the_wild_cards_place() -> None:
    game = exchange_game("any", SWAP_LAYOUT)
    game.apply("draw stock")
    game.apply("meld 9S 9D 2D")
    legal = {str(a) for a in game.legal_actions()}
    game.apply("discard 4S")
    game.apply("draw stock")
    assert "swap 9H on 0" in {str(a) for a in game.legal_actions()}
    game.apply("swap 9H on 0")
    assert sorted(str(c) for c in game.deal.table[0].meld.cards) == ["9D", "9H", "9S"]
    assert "swap 6H on 0" not in legal


@pytest.mark.parametrize(("mode", "own", "other"), [("opponents", False, True), ("own-side", True, False)])
def test_who_may_exchange_is_a_ruleset_choice(mode: str, own: bool, other: bool) -> None:
    game = exchange_game(mode, SWAP_LAYOUT)
    game.apply("draw stock")
    game.apply("meld 5H 2C=6H 7H")  # seat 0's meld; seat 0 still holds the 6H
    assert ("swap 6H on 0" in {str(a) for a in game.legal_actions()}) is own
    if not own:
        before = game.to_json(), [list(h) for h in game.deal.hands]
        with pytest.raises(IllegalAction):
            game.apply("swap 6H on 0")
        assert (game.to_json(), [list(h) for h in game.deal.hands]) == before
    game.apply("discard 8C")
    game.apply("draw stock")
    # Seat 1 (the other side) with a 6H of its own: may it take seat 0's wild card?
    hand0, hand1 = game.deal.hands
    hand1.append(hand0.pop(hand0.index(parse_card("6H"))))
    game.deal._legal = None
    assert ("swap 6H on 0" in {str(a) for a in game.legal_actions()}) is other


def test_a_set_of_wild_cards_alone_is_never_exchanged_from() -> None:
    options = {
        **DEUCES_WILD,
        "melds": {**DEUCES_WILD["melds"], "wild_sets": True},
        "table": {"melds": True, "exchange": "any"},
    }
    layout = {"dealer": 1, "hands": ["2C 2D 2H 7H 9S".split(), "2S 3S 4S QD KD".split()], "discard": ["KC"]}
    game = rummykit.load_variant("500-rum", options=options).new_game(layout=layout, seed=1)
    game.apply("draw stock")
    game.apply("meld 2C 2D 2H")
    assert not any(a.kind == "swap" for a in game.legal_actions())
    with pytest.raises(IllegalAction):
        game.apply("swap 2S on 0")


@pytest.mark.parametrize("name", ["skarney", "skarney-singles", "fortune", "arlington"])
def test_answers_kept_with_table_melds_are_those_found_afresh(name: str) -> None:
    """What the listing asks of a table meld (its lay-offs, wild cards laid off, exchanges) is kept with the
    meld from turn to turn: over random games, every listing equals the one made with nothing kept."""
    from rummykit.bots import RandomBot
    from rummykit.mechanics import exchange

    variant = rummykit.load_variant(name)
    search = variant.meld_search
    checked = swaps = wild_layoffs = 0
    for seed in range(4):
        game = variant.new_game(seed=seed, max_hands=2)
        bot = RandomBot(seed)
        while not game.is_over and checked < 300:
            deal = game.deal
            if deal.phase == "play" and deal.table:
                listed = game.legal_actions()
                kept = [str(a) for a in listed]
                swapped = [
                    exchange.exchanged(deal, a.target, a.cards[0])
                    for a in listed
                    if a.kind == "swap" and a.target is not None
                ]
                search._kept.clear()
                search._wild_layoffs_by_faces.clear()
                search._layoff_faces_by_faces.clear()
                search._fits.clear()
                search._placements.clear()
                deal._legal = None
                assert [str(a) for a in game.legal_actions()] == kept
                search._kept.clear()
                assert [
                    exchange.exchanged(deal, a.target, a.cards[0])
                    for a in listed
                    if a.kind == "swap" and a.target is not None
                ] == swapped
                checked += 1
                swaps += sum(a.startswith("swap") for a in kept)
                wild_layoffs += sum(a.startswith("layoff") and "=" in a for a in kept)
            game.apply(bot.choose(game))
    assert checked > 20 and wild_layoffs > 20
    assert swaps > 20 or not name.startswith("skarney")  # Fortune's random games seldom exchange


@pytest.mark.parametrize("name", ["skarney-singles", "fortune", "arlington"])
def test_every_copy_of_a_wild_card_is_laid_off_where_extend_places_it(name: str) -> None:
    """The places a wild card is laid off, kept by the meld's faces, are those :meth:`MeldSearch.extend` gives
    that very card: either copy of a wild card, on table melds holding the other copy or not."""
    from rummykit.bots import GreedyBot
    from rummykit.cards import card_from_face

    variant = rummykit.load_variant(name)
    search = variant.meld_search
    wilds = [card_from_face(face, copy) for face in sorted(search.rules.wild_faces) for copy in (0, 1)]
    melds: dict[int, Meld] = {}
    for seed in range(3):
        game = variant.new_game(seed=seed, max_hands=2)
        bots = [GreedyBot(seed * 10 + s) for s in range(game.num_players)]
        while not game.is_over:
            melds.update((id(tm.meld), tm.meld) for tm in game.deal.table)
            game.apply(bots[game.deal.actor].choose(game))
    placed = 0
    for meld in melds.values():
        for card in wilds:
            if card in meld.cards:
                continue
            options: list[object] = [None]
            if meld.kind == "run" and meld.suit is not None:
                ends = (meld.ranks[-1] + 1, meld.ranks[0] - 1)
                options = [card_from_face(meld.suit * 13 + (0 if r == 14 else r - 1)) for r in ends if 1 <= r <= 14]
            expected = []
            for meant in options:
                grown = search.extend(meld, [card], [meant])  # type: ignore[list-item]
                if grown is not None:
                    expected.append(grown.faces[len(grown.cards) - 1 - grown.cards[::-1].index(card)])
            assert search.wild_layoff_faces(meld, card) == tuple(expected), (str(meld), str(card))
            placed += len(expected)
    assert len(melds) > 30 and placed > 30


def test_a_wild_card_in_a_set_keeps_what_it_stands_for_when_another_wild_card_is_laid_off() -> None:
    """A wild card laid off on a set beside another: the one on the table keeps the suit it stands for,
    whichever sorts first (the other copy of it, or another wild card), the new one takes the first suit the
    set still lacks, and the places kept for one copy are the other's too. (The one sorting first once took
    the table card's suit.)"""
    from rummykit.cards import card_from_face

    search = MeldSearch(MeldRules(wild_faces=frozenset([52])), [5] * 53)
    seven = [card_from_face(32), card_from_face(45)]  # 7H 7S
    for held, laid in [(1, 0), (0, 1), (1, 0)]:
        on_table = card_from_face(52, held)
        meld = search.meld([*seven, on_table], stands_for=[None, None, card_from_face(6)])  # the joker is 7C
        assert meld is not None
        joker = card_from_face(52, laid)
        grown = search.extend(meld, [joker])
        assert grown is not None
        stands = {(c.face, c.copy): f for c, f in zip(grown.cards, grown.faces)}
        assert stands[52, held] == card_from_face(6).face  # 7C, as before the lay-off
        assert stands[52, laid] == card_from_face(19).face  # 7D: the first suit the set lacks
        assert search.wild_layoff_faces(meld, joker) == (card_from_face(19).face,)
    # a deuce wild in a two-deck game: the deuce of spades on the table stands for 7H, the other copy goes on
    search = MeldSearch(MeldRules(wild_faces=frozenset([1, 14, 27, 40])), [5] * 53)
    for held, laid in [(1, 0), (0, 1)]:
        meld = search.meld(
            [card_from_face(6), card_from_face(19), card_from_face(40, held)],
            stands_for=[None, None, card_from_face(32)],
        )
        assert meld is not None
        grown = search.extend(meld, [card_from_face(40, laid)])
        assert grown is not None
        stands = {(c.face, c.copy): f for c, f in zip(grown.cards, grown.faces)}
        assert (stands[40, held], stands[40, laid]) == (32, 45)  # 7H kept, 7S for the new one
    # another wild card sorting before the one on the table: 5C 5D 2S=5H takes 2H as the five of spades
    meld = search.meld(
        [card_from_face(4), card_from_face(17), card_from_face(40)], stands_for=[None, None, card_from_face(30)]
    )
    assert meld is not None
    deuce = card_from_face(27)  # 2H
    grown = search.extend(meld, [deuce])
    assert grown is not None
    assert dict(zip(grown.cards, grown.faces)) == {
        card_from_face(4): 4,
        card_from_face(17): 17,
        card_from_face(40): 30,
        deuce: 43,
    }  # 2S still 5H, 2H 5S
    assert search.wild_layoff_faces(meld, deuce) == (43,)


@pytest.mark.parametrize(("name", "house_rules"), [("fortune", ("joker",)), ("arlington", ()), ("skarney-singles", ())])
def test_every_listed_wild_lay_off_names_what_extend_makes_the_card_stand_for(
    name: str, house_rules: tuple[str, ...]
) -> None:
    from rummykit.bots import RandomBot

    variant = rummykit.load_variant(name, house_rules)
    search = variant.meld_search
    checked = 0
    for seed in range(12):
        game = variant.new_game(seed=seed, max_hands=2)
        bots = [RandomBot(seed * 10 + s) for s in range(game.num_players)]
        while not game.is_over:
            deal = game.deal
            for action in game.legal_actions():
                if action.kind == "layoff" and action.stands_for and action.target is not None:
                    card = action.cards[0]
                    grown = search.extend(deal.table[action.target].meld, [card], list(action.stands_for))
                    assert grown is not None, str(action)
                    assert grown.faces[grown.cards.index(card)] == action.stands_for[0].face, str(action)
                    checked += 1
            game.apply(bots[deal.actor].choose(game))
    assert checked > 100


def test_a_hidden_zone_shows_its_cards_only_to_the_seats_that_saw_them() -> None:
    game = rummykit.load_variant("gin").new_game(seed=1)
    deal = game.deal
    zone = deal.add_zone("passed", visibility="hidden")
    card = deal.stock.pop()
    zone.cards[1].append(card)
    deal.seen[card.id] = {0, 1}
    game.check_cards()
    assert game.observation(0)["zones"]["passed"][1] == {"count": 1, "cards": [str(card)]}
    shown = game.observation(1)["zones"]["passed"][1]
    assert shown == {"count": 1, "cards": [str(card)]}
    deal.seen[card.id] = {0}
    assert game.observation(1)["zones"]["passed"][1] == {"count": 1, "cards": []}


def test_a_refused_default_place_gives_way_to_one_the_game_accepts() -> None:
    variant = rummykit.load_variant("500-rum", options=DEUCES_WILD)
    queen = parse_card("QS").face

    def no_queen_stand_in(meld: Meld) -> bool:
        return not any(f == queen and c.face != queen for c, f in zip(meld.cards, meld.faces))

    strict = MeldSearch(replace(variant.meld_search.rules, accept=no_queen_stand_in), variant.meld_search.values)
    # 9S 2C JS 2D: by default 9-T-J-Q with a 2 as QS, refused; 8-9-T-J is fine.
    meld = strict.meld(parse("9S 2C JS 2D"))
    assert meld is not None and meld.ranks == (8, 9, 10, 11)
    assert strict.meld(parse("9S 2C JS 2D"), stands_for=[None, parse_card("TS"), None, parse_card("QS")]) is None
