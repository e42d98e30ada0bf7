"""Contract Rummy: hand-built deals for each rule, and whole games of random and greedy bots.

The rules' own numbers are written out here, to check the ruleset and the plugin against them.
"""

from __future__ import annotations

from typing import Any

import pytest

import rummykit
from rummykit import Game, IllegalAction
from rummykit.cards import parse_card

CONTRACTS = [(2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3)]
"""(sets, runs) of the seven deals, in order."""

VALUES = {"JK": 50, "2": 20, "A": 15, "T": 10, "J": 10, "Q": 10, "K": 10}
"""Points of a card left in hand; 3 to 9 count 5."""

SETS = ["7H 7S 7D", "9C 9D 9H", "KC KD KS", "QC QD QH"]
RUNS = ["3C 4C 5C 6C", "8H 9H TH JH", "4S 5S 6S 7S"]
FILLER = ["3D 5D 8C TS", "4D 6D 8S JD", "5H 6H AC JS"]
"""Cards that make no meld between them (three seats' worth)."""


def value(card: str) -> int:
    return VALUES.get("JK" if card == "JK" else card[:-1], 5)


def variant(**rules: Any) -> rummykit.Variant:
    return rummykit.load_variant("contract-rummy", options={"rules": rules} if rules else None)


def new_game(hands: list[str], stock: str = "", discard: str = "KH", dealer: int = -1, **rules: Any) -> Game:
    """A game whose first deal is laid out: seat ``dealer + 1`` plays first (by default seat 0)."""
    layout = {
        "dealer": dealer % len(hands),
        "hands": [h.split() for h in hands],
        "discard": discard.split(),
        "stock": stock.split(),
    }
    return variant(**rules).new_game(players=len(hands), seed=1, layout=layout)


def snapshot(game: Game) -> tuple[object, ...]:
    deal = game.deal
    return (game.to_json(), [list(h) for h in deal.hands], list(deal.stock), list(deal.discard),
            [str(tm) for tm in deal.table], deal.phase, deal.actor, repr(deal.state))  # fmt: skip


def refused(game: Game, text: str, reason: str) -> None:
    """``text`` is refused for ``reason`` and leaves the game exactly as it was."""
    before = snapshot(game)
    with pytest.raises(IllegalAction) as info:
        game.apply(text)
    assert reason in str(info.value), str(info.value)
    assert snapshot(game) == before


def play(game: Game, *actions: str) -> None:
    for text in actions:
        game.apply(text)
        game.check_cards()


def draw(game: Game) -> None:
    """The player on turn draws from the stock; every seat asked whether it buys the discard passes."""
    seat = game.deal.current
    play(game, "draw stock")
    while game.deal.actor != seat:
        assert game.deal.phase == "buy"
        play(game, "pass")


def contract_text(sets: int, runs: int) -> str:
    return "meld " + " | ".join(SETS[:sets] + RUNS[:runs])


def plugin_state(game: Game) -> Any:
    from rummykit_contract_rummy.plugin import ContractRummyState

    return game.deal.state_of(ContractRummyState)


# -- the ruleset -----------------------------------------------------------------------------------


def test_pack_deal_and_contracts() -> None:
    v = variant()
    assert (v.min_players, v.max_players) == (3, 8)
    for players in range(3, 9):
        decks, jokers = (2, 4) if players <= 4 else (3, 6)
        assert (v.deck_count(players), v.joker_count(players)) == (decks, jokers)
        game = v.new_game(players=players, seed=players)
        deal = game.deal
        assert len(game.deck) == 52 * decks + jokers
        assert all(len(deal.hands[s]) == 11 for s in range(players))
        assert len(deal.discard) == 1 and len(deal.stock) == len(game.deck) - 11 * players - 1
    contracts = [(c.get("sets", 0), c.get("runs", 0)) for c in v.rules["contracts"]]
    assert contracts == CONTRACTS
    from rummykit_contract_rummy.plugin import Contract, ContractRummyRules

    rules = v.rules_as(ContractRummyRules)
    assert rules.deal_contracts == tuple(Contract(sets, runs) for sets, runs in CONTRACTS)
    assert (rules.buys, rules.buy_penalty, rules.min_naturals, rules.discard_taken) == (3, 1, 2, False)
    search = v.meld_search
    assert all(search.is_wild(parse_card(c)) for c in ("2C", "2D", "2H", "2S", "JK"))
    assert not search.is_wild(parse_card("3C"))


def test_melds_sets_and_runs() -> None:
    search = variant().meld_search
    meld = search.meld

    def m(text: str) -> Any:
        return meld([parse_card(c) for c in text.split()])

    assert m("7H 7H 7S").kind == "set"  # suits may repeat
    assert m("7H 7S") is None
    assert m("3C 4C 5C 6C").kind == "run"
    assert m("3C 4C 5C") is None  # a run holds four cards
    assert m("AC 3C 4C 2D").kind == "run"  # ace low
    assert m("JC QC KC AC").kind == "run"  # ace high
    assert m("QC KC AC 3C") is None  # never round the corner
    assert m("3C 4D 5C 6C") is None  # one suit


# -- the contract ----------------------------------------------------------------------------------

BIG_HAND = " ".join(SETS[:3] + RUNS[:3])  # three sets and three runs: any contract, and more
OTHERS = ["3D 5D 8C TS 4H", "4D 6D 8S JD 5H"]


@pytest.mark.parametrize("deal_number", range(1, 8))
def test_each_contract_recognised_and_refused_exactly(deal_number: int) -> None:
    sets, runs = CONTRACTS[deal_number - 1]
    game = new_game([BIG_HAND, *OTHERS], stock="AD", contracts=[{"sets": sets, "runs": runs}])
    draw(game)  # seats 1 and 2 are asked whether they buy the upcard, KH: they pass
    assert game.deal.actor == 0 and game.deal.phase == "play"
    why = "the only meld is the contract"
    # One meld short, one meld more, a set for a run and a run for a set: refused.
    if sets and sets + runs > 1:
        refused(game, contract_text(sets - 1, runs), why)
        refused(game, contract_text(sets, runs) + (" | " + RUNS[runs] if runs < 3 else ""), why)
    if runs and sets + runs > 1:
        refused(game, contract_text(sets, runs - 1), why)
    if sets < 3:
        refused(game, contract_text(sets + 1, runs), "no more and no less")
    if runs < 3:
        refused(game, contract_text(sets, runs + 1), "no more and no less")
    if sets and runs < 3:
        refused(game, contract_text(sets - 1, runs + 1), "no more and no less")
    if runs and sets < 3:
        refused(game, contract_text(sets + 1, runs - 1), "no more and no less")
    # Each meld by itself is no contract unless the contract is that one meld.
    if (sets, runs) != (1, 0):
        refused(game, "meld " + SETS[0], why)
    play(game, contract_text(sets, runs))
    assert plugin_state(game).down == {0: game.deal.turn}
    assert len(game.deal.table) == sets + runs


def test_listed_contracts_lay_the_contract() -> None:
    game = new_game(["7H 7S JK 9C 9D 2C 3C 4C 5C QD AS", *OTHERS], stock="KD", contracts=[{"sets": 2}])
    draw(game)
    melds = [a for a in game.legal_actions() if a.kind == "meld"]
    assert melds, game.legal_actions()
    assert all(len(a.melds()) == 2 for a in melds)
    play(game, str(melds[0]))
    assert len(game.deal.table) == 2 and all(tm.meld.kind == "set" for tm in game.deal.table)


def test_longer_melds_in_a_contract() -> None:
    hand = "7H 7S 7D 7C 3C 4C 5C 6C 7C 9D JD"
    game = new_game([hand, *OTHERS], stock="KD", contracts=[{"sets": 1, "runs": 1}])
    draw(game)
    play(game, "meld 7H 7S 7D 7C | 3C 4C 5C 6C 7C")
    assert [len(tm.meld.cards) for tm in game.deal.table] == [4, 5]
    game = new_game([hand, *OTHERS], stock="KD", contracts=[{"sets": 1, "runs": 1}], longer_contract_melds=False)
    draw(game)
    refused(game, "meld 7H 7S 7D 7C | 3C 4C 5C 6C 7C", "three cards and each run four")
    play(game, "meld 7H 7S 7D | 3C 4C 5C 6C")


def test_two_naturals_in_every_meld() -> None:
    hand = "7H 7S 7D 9C JK 2D 2H 5C 2S AS KD"
    game = new_game([hand, *OTHERS], stock="QD", contracts=[{"sets": 2}])
    draw(game)
    refused(game, "meld 7H 7S 7D | 9C JK 2D", "at least 2 natural cards")
    refused(game, "meld 7H 7S JK | 5C 2D 2H 2S", "at least 2 natural cards")
    assert not any(a.kind == "meld" for a in game.legal_actions())  # one natural 9C: no second set
    game = new_game(["7H 7S 7D 9C 9D 2D 3C 4C 2S 2H KD", *OTHERS], stock="QD", contracts=[{"sets": 1, "runs": 1}])
    draw(game)
    play(game, "meld 7H 7S 7D | 3C 4C 2S=5C 2H=6C")  # two naturals and two wild cards: a run
    assert game.deal.table[1].meld.kind == "run"


# -- after the contract ----------------------------------------------------------------------------


def contract_down_game(**rules: Any) -> Game:
    """Seat 1 lays two sets on its first turn and keeps 7C and 4C; seat 2 holds 9S and no contract."""
    hands = ["3D 5D 8C TS 4H AD", "7H 7S 7D 9C 9D 9H 7C 4C", "4D 6D 8S JD 9S 5H KC"]
    return new_game(hands, stock="KS 6S TD 3H JC QS", dealer=0, contracts=[{"sets": 2}], **rules)


def test_nothing_else_the_turn_the_contract_goes_down_and_lay_offs_after() -> None:
    game = contract_down_game()
    draw(game)  # seat 1 draws KS
    play(game, "meld 7H 7S 7D | 9C 9D 9H")
    refused(game, "layoff 7C on 0", "nothing else is laid")
    refused(game, "meld 7C", "nothing else is laid")  # what the turn forbids is said before what the meld lacks
    assert not any(a.kind in ("meld", "layoff") for a in game.legal_actions())
    play(game, "discard KS")
    draw(game)  # seat 2 (no contract) draws 6S
    refused(game, "layoff 9S on 1", "no lay-off before your contract is down")
    play(game, "discard 6S")
    draw(game)  # seat 0 draws TD
    play(game, "discard TD")
    draw(game)  # seat 1 draws 3H
    refused(game, "meld 3H 4C 7C", "no new meld")
    play(game, "layoff 7C on 0")  # on a later turn, on his own meld
    assert len(game.deal.table[0].meld.cards) == 4


def test_lay_off_on_another_players_meld() -> None:
    hands = ["7H 7S 7D 9C 9D 9H 3D", "KC KD KS QC QD QH 7C", "4D 6D 8S JD 9S 5H 4C"]
    game = new_game(hands, stock="AS 8D AH 6C 5C", dealer=2, contracts=[{"sets": 2}])
    draw(game)  # seat 0 draws AS
    play(game, "meld 7H 7S 7D | 9C 9D 9H", "discard AS")
    draw(game)  # seat 1 draws 8D
    play(game, "meld KC KD KS | QC QD QH", "discard 8D")
    draw(game)
    play(game, "discard AH")
    draw(game)  # seat 0 draws 6C
    play(game, "discard 6C")
    draw(game)  # seat 1 draws 5C, lays 7C off on seat 0's sevens and goes out with a discard
    play(game, "layoff 7C on 0")
    seven = game.deal.table[0]
    assert seven.owner == 0 and len(seven.meld.cards) == 4
    assert seven.credits[next(c.id for c in seven.meld.cards if str(c) == "7C")] == 1
    play(game, "discard 5C")
    assert game.results[0].kind == "out" and game.results[0].winner == 1


# -- going out and scoring -------------------------------------------------------------------------


def test_out_without_a_discard_and_scoring_of_every_card_class() -> None:
    hands = ["3D TC KH AS 2C JK 9D", "7H 7S 7D 9C 9D 9H 7C", "4D 6D 8S JD 5H QC 2S"]
    game = new_game(hands, stock="KS 3H 8D 9S", dealer=0, contracts=[{"sets": 2}])
    draw(game)  # seat 1: KS
    play(game, "meld 7H 7S 7D | 9C 9D 9H", "discard KS")
    draw(game)  # seat 2: 3H
    play(game, "discard 3H")
    draw(game)  # seat 0: 8D
    play(game, "discard 8D")
    draw(game)  # seat 1: 9S
    play(game, "layoff 7C on 0")
    assert not game.deal.is_over
    play(game, "layoff 9S on 1")
    result = game.results[0]
    assert result.kind == "out" and result.winner == 1
    left0 = "3D TC KH AS 2C JK 9D".split()  # 5 + 10 + 10 + 15 + 20 + 50 + 5 = 115
    left2 = "4D 6D 8S JD 5H QC 2S".split()  # 5 + 5 + 5 + 10 + 5 + 10 + 20 = 60
    assert sum(map(value, left0)) == 115 and sum(map(value, left2)) == 60
    assert result.scores == (-115, 0, -60)


def test_out_with_a_discard() -> None:
    hands = ["3D TC KH AS 5C 6C 9D", "7H 7S 7D 9C 9D 9H 4C", "4D 6D 8S JD 5H QC 2S"]
    game = new_game(hands, stock="KS 3H 8D 7C", dealer=0, contracts=[{"sets": 2}])
    draw(game)
    play(game, "meld 7H 7S 7D | 9C 9D 9H", "discard KS")
    draw(game)
    play(game, "discard 3H")
    draw(game)
    play(game, "discard 8D")
    draw(game)  # seat 1: 7C
    play(game, "layoff 7C on 0", "discard 4C")
    result = game.results[0]
    assert result.kind == "out" and result.winner == 1
    assert result.scores == (-(5 + 10 + 10 + 15 + 5 + 5 + 5), 0, -(5 + 5 + 5 + 10 + 5 + 10 + 20))


def test_the_card_taken_from_the_pile_is_not_discarded_that_turn() -> None:
    game = new_game(["3D 5D 8C TS 4H AD", "4D 6D 8S JD 5H KC", "6H 9C TD QD AC 3C"], discard="KH")
    play(game, "draw discard")
    refused(game, "discard KH", "KH was taken from the pile this turn")
    assert not any(a.kind == "discard" and str(a.cards[0]) == "KH" for a in game.legal_actions())
    play(game, "discard AD")
    game = new_game(["3D 5D 8C TS 4H AD", "4D 6D 8S JD 5H KC", "6H 9C TD QD AC 3C"], discard="KH", discard_taken=True)
    play(game, "draw discard", "discard KH")


def test_the_card_taken_goes_back_when_nothing_else_can() -> None:
    game = new_game(["KH", "4D 6D 8S JD 5H KC", "6H 9C TD QD AC 3C"], discard="KH")
    play(game, "draw discard")
    assert [str(a) for a in game.legal_actions() if a.kind == "discard"] == ["discard KH"]


# -- buying ----------------------------------------------------------------------------------------

FOUR = ["3D 5D 8C TS 4H AD QS", "4D 6D 8S JD 5H KC 3S", "6H 9C TD QD AC 3C 8H", "5S 7C 9S JS 4S TH JH"]


def test_buying_order_priority_and_penalty_card() -> None:
    game = new_game(FOUR, stock="KS 8D 3H QH AH 6C", discard="KH", dealer=0)
    # The upcard: seat 1 leaves it; the others are asked from seat 1's left, the dealer last.
    play(game, "draw stock")  # seat 1 draws KS
    assert (game.deal.actor, game.deal.phase) == (2, "buy")
    refused(game, "discard 3S", "you are asked whether you buy KH")
    play(game, "pass")
    assert game.deal.actor == 3
    play(game, "buy")  # seat 3 buys KH with the penalty card 8D; the dealer, seat 0, is not asked
    assert (game.deal.actor, game.deal.phase) == (1, "play")
    hand3 = [str(c) for c in game.deal.hands[3]]
    assert "KH" in hand3 and "8D" in hand3 and len(hand3) == 9
    assert not game.deal.discard
    assert plugin_state(game).buys[3] == 1
    copy = game.clone()  # the deal's typed state goes with a copy of the game, and stays apart from it
    plugin_state(copy).buys[3] += 1
    assert plugin_state(game).buys[3] == 1 and plugin_state(copy).buys[3] == 2
    play(game, "discard 3S")
    # seat 1's discard 3S: seat 2 leaves it, seat 3 then seat 0 are asked; never seat 1, its discarder.
    play(game, "draw stock")  # seat 2 draws 3H
    assert game.deal.actor == 3
    play(game, "pass")
    assert game.deal.actor == 0
    play(game, "buy")  # with QH
    assert {"3S", "QH"} <= {str(c) for c in game.deal.hands[0]}
    assert game.deal.actor == 2


def test_nearest_after_the_discarder_gets_it() -> None:
    game = new_game(FOUR, stock="KS 8D 3H QH AH 6C", discard="KH", dealer=0)
    play(game, "draw stock", "buy")  # seat 2, nearest after seat 1, wants it: seats 3 and 0 are not asked
    assert game.deal.actor == 1 and "KH" in {str(c) for c in game.deal.hands[2]}


def test_taking_the_discard_leaves_nothing_to_buy() -> None:
    game = new_game(FOUR, stock="KS 8D", discard="KH", dealer=0)
    play(game, "draw discard")
    assert (game.deal.actor, game.deal.phase) == (1, "play")
    refused(game, "buy", "only when the next player draws from the stock")


def test_three_buys_a_deal_then_none() -> None:
    stock = " ".join(f"{r}{s}" for s in "CDHS" for r in "3456789") * 1
    game = new_game(FOUR, stock=stock, discard="KH", dealer=0)
    bought = 0
    while bought < 4 and game.deal.turn < 12:
        seat = game.deal.current
        play(game, "draw stock")
        while game.deal.actor != seat:
            if game.deal.actor == 3 and bought < 3:
                play(game, "buy")
                bought += 1
            else:
                play(game, "pass")
        play(game, f"discard {game.deal.drawn}")
        if plugin_state(game).buys[3] == 3:
            break
    assert plugin_state(game).buys[3] == 3
    # From now on seat 3 is never asked.
    for _ in range(8):
        seat = game.deal.current
        play(game, "draw stock")
        while game.deal.actor != seat:
            assert game.deal.actor != 3
            play(game, "pass")
        play(game, f"discard {game.deal.drawn}")


def test_no_buying_once_down() -> None:
    hands = ["3D 5D 8C TS 4H AD QS", "4D 6D 8S JD 5H KC 3S", "7H 7S 7D 9C 9D 9H 8H", "5S 7C 9S JS 4S TH JH"]
    game = new_game(hands, stock="KS 8D 3H QH AH 6C 5C 6S", discard="KH", dealer=1, contracts=[{"sets": 2}])
    draw(game)  # seat 2 draws KS
    play(game, "meld 7H 7S 7D | 9C 9D 9H", "discard KS")
    play(game, "draw stock")  # seat 3 leaves KS: seats 0 and 1 are asked, not seat 2 (down)
    asked = [game.deal.actor]
    play(game, "pass")
    asked.append(game.deal.actor)
    play(game, "pass")
    assert asked == [0, 1] and game.deal.actor == 3


def test_no_buying_without_a_penalty_card() -> None:
    game = new_game(FOUR, stock="KS", discard="KH", dealer=0, buy_penalty=200)  # more than the stock holds
    play(game, "draw stock")
    assert (game.deal.actor, game.deal.phase) == (1, "play")


# -- whole games ------------------------------------------------------------------------------------


def test_seven_deals_then_lowest_total_wins() -> None:
    from rummykit.simulate import play_game

    game = play_game("contract-rummy", 3, bots=["random"] * 4)
    assert game.is_over and len(game.results) == 7 and game.end_reason == "hands"
    assert [r.details["contract"] for r in game.results] == [
        "two sets", "a set and a run", "two runs", "three sets", "two sets and a run", "a set and two runs",
        "three runs",
    ]  # fmt: skip
    penalties = [-s for s in game.scores]
    assert all(p >= 0 for p in penalties)
    assert game.winner == penalties.index(min(penalties))
    for result in game.results:
        if result.kind == "out":
            assert result.winner is not None and result.scores[result.winner] == 0
    assert any(a == "buy" for deal in game.history for a in deal)
    again = Game.from_json(game.to_json())  # the record, buys and passes out of turn included, replays
    assert again.scores == game.scores and again.history == game.history


@pytest.mark.parametrize(
    ("options", "path", "words"),
    [
        ({"table": {"melds": False}}, "table.melds", "contracts are laid on the table"),
        ({"melds": {"sets": False}}, "melds.sets", "melds.sets is false, so no contract holds sets"),
        ({"rules": {"contracts": [{"sets": 0}]}}, "rules.contracts[0]", "holds a set or a run at least"),
        ({"rules": {"contracts": [{"sets": 4, "runs": 4}]}}, "rules.contracts[0]", "needs 28 cards"),
        ({"melds": {"set_min": 7}}, "melds.set_min", "needs 14 cards (melds of 7 and 4 at least)"),
    ],
)
def test_contracts_nobody_could_lay_are_refused(options: dict[str, Any], path: str, words: str) -> None:
    # Accepted before, each played every deal to its turn limit, scored by nobody. A contract wrong because of a
    # meld rule the options change is told at that option, saying where the contract comes from.
    with pytest.raises(rummykit.RulesetError) as info:
        rummykit.load_variant("contract-rummy", options=options)
    first = info.value.problems[0]
    assert (first.path, first.file) == (path, "options") and words in first.message
    assert first.message.startswith("plugin 'contract-rummy': ")


def test_the_last_contract_takes_every_card_held_after_the_draw() -> None:
    # Three runs of four are twelve cards: the eleven dealt and the one drawn, laid without a discard.
    variant = rummykit.load_variant("contract-rummy")
    assert variant.rules["contracts"][-1] == {"runs": 3} and variant.ruleset["deal"]["hand_size"] == 11
