"""Rulesets: extends chains, validation messages with positions, house rules, options, safe loading."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import rummykit
from rummykit import Problem, RulesetError
from rummykit.catalogue import find_ruleset

MINIMAL_GIN_RULES = "{knock_limit: 10, gin_bonus: 20, undercut_bonus: 10, box_bonus: 20, game_bonus: 100}"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def problems_of(path: Path) -> list[Problem]:
    found = rummykit.validate(path)
    assert all(isinstance(p, Problem) for p in found)
    return found


def only_problem(path: Path) -> Problem:
    found = problems_of(path)
    assert len(found) == 1, [str(p) for p in found]
    return found[0]


def play_a_little(variant: rummykit.Variant, steps: int = 60) -> rummykit.Game:
    game = variant.new_game(seed=3)
    for _ in range(steps):
        if game.is_over:
            break
        actions = game.legal_actions()
        assert actions
        game.apply(actions[-1])
    return game


# == extends ==========================================================================================


def test_extends_gin_by_name(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "quick.yaml",
        """
        name: quick-gin
        title: Quick Gin
        extends: gin
        target: 50
    """,
    )
    assert problems_of(path) == []
    gin = rummykit.load_variant("gin")
    quick = rummykit.load_variant(str(path))
    assert quick.name == "quick-gin" and quick.title == "Quick Gin"
    assert quick.ruleset["target"] == 50
    assert gin.ruleset["target"] == 100  # the base is untouched
    assert quick.rules == gin.rules
    assert quick.meld_search.rules == gin.meld_search.rules
    assert list(quick.values) == list(gin.values)
    assert quick.hand_size(2) == 10
    assert quick.plugin_names == gin.plugin_names
    assert quick.aliases == ()  # aliases name one variant; they are not inherited
    assert quick.origins[("target",)] == str(path)
    assert quick.origins[("rules", "knock_limit")].endswith("gin.yaml")
    play_a_little(quick)
    # House rules of the base are offered by the child as well.
    modern = rummykit.load_variant(str(path), house_rules=["modern"])
    assert modern.rules["gin_bonus"] == 25
    assert modern.ruleset["target"] == 50


def test_extends_by_relative_path(tmp_path: Path) -> None:
    write(
        tmp_path,
        "base/house.yaml",
        """
        name: house-gin
        title: House Gin
        extends: gin
        rules:
          knock_limit: 7
    """,
    )
    child = write(
        tmp_path,
        "tables/friday.yaml",
        """
        name: friday
        title: Friday Gin
        extends: ../base/house.yaml
        target: 200
    """,
    )
    assert problems_of(child) == []
    variant = rummykit.load_variant(str(child))
    assert variant.rules["knock_limit"] == 7
    assert variant.rules["gin_bonus"] == 20
    assert variant.ruleset["target"] == 200
    play_a_little(variant)


def test_three_file_chain(tmp_path: Path) -> None:
    write(
        tmp_path,
        "one.yaml",
        """
        name: one
        title: One
        extends: gin
        rules:
          gin_bonus: 30
    """,
    )
    write(
        tmp_path,
        "two.yaml",
        """
        name: two
        title: Two
        extends: one.yaml
        rules:
          undercut_bonus: 15
        target: 120
    """,
    )
    three = write(
        tmp_path,
        "three.yaml",
        """
        name: three
        title: Three
        extends: two.yaml
        target: 130
    """,
    )
    assert problems_of(three) == []
    variant = rummykit.load_variant(str(three))
    assert variant.name == "three"
    assert variant.rules["gin_bonus"] == 30
    assert variant.rules["undercut_bonus"] == 15
    assert variant.rules["box_bonus"] == 20
    assert variant.ruleset["target"] == 130
    assert variant.origins[("rules", "gin_bonus")] == str(tmp_path / "one.yaml")
    assert variant.origins[("rules", "undercut_bonus")] == str(tmp_path / "two.yaml")
    play_a_little(variant)


def test_a_problem_in_a_base_file_names_that_file(tmp_path: Path) -> None:
    base = write(
        tmp_path,
        "base.yaml",
        """
        name: base
        title: Base
        extends: gin
        melds:
          ace: sideways
    """,
    )
    child = write(
        tmp_path,
        "child.yaml",
        """
        name: child
        title: Child
        extends: base.yaml
    """,
    )
    problem = only_problem(child)
    assert problem.file == str(base)
    assert (problem.line, problem.path) == (5, "melds.ace")


def test_extends_cycle_is_refused(tmp_path: Path) -> None:
    a = write(
        tmp_path,
        "a.yaml",
        """
        name: a
        title: A
        extends: b.yaml
    """,
    )
    write(
        tmp_path,
        "b.yaml",
        """
        name: b
        title: B
        extends: a.yaml
    """,
    )
    problem = only_problem(a)
    assert "cycle" in problem.message
    assert "a.yaml" in problem.message and "b.yaml" in problem.message
    assert problem.path == "extends"
    assert problem.line == 3
    with pytest.raises(RulesetError) as info:
        rummykit.load_variant(str(a))
    assert "cycle" in str(info.value)


def test_extends_itself_is_a_cycle(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "self.yaml",
        """
        name: self
        title: Self
        extends: self.yaml
    """,
    )
    assert "cycle" in only_problem(path).message


def test_extends_a_missing_name_suggests_close_ones(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "typo.yaml",
        """
        name: typo
        title: Typo
        extends: gni
    """,
    )
    problem = only_problem(path)
    assert (problem.line, problem.column, problem.path) == (3, 10, "extends")
    assert "'gni'" in problem.message
    assert "did you mean" in problem.message and "'gin'" in problem.message


def test_extends_a_missing_file(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "lost.yaml",
        """
        name: lost
        title: Lost
        extends: nowhere.yaml
    """,
    )
    problem = only_problem(path)
    assert problem.path == "extends" and "nowhere.yaml" in problem.message


def test_a_missing_file_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    found = rummykit.validate(tmp_path / "absent.yaml")
    assert len(found) == 1 and "absent.yaml" in str(found[0])


# == validation messages ===============================================================================


def test_unknown_key_with_suggestion_and_position(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "keys.yaml",
        """
        name: keys
        title: Keys
        extends: gin
        targt: 150
        melds:
          ace: low
          set_mx: 4
    """,
    )
    found = {p.path: p for p in problems_of(path)}
    assert set(found) == {"targt", "melds.set_mx"}
    top = found["targt"]
    assert top.file == str(path)
    assert top.line == 4 and top.column >= 1
    assert "unknown key 'targt'" in top.message and "did you mean 'target'?" in top.message
    nested = found["melds.set_mx"]
    assert nested.line == 7
    assert "did you mean 'set_max'?" in nested.message
    assert str(top).startswith(f"{path}:4:")


def test_unknown_key_holding_a_block_is_reported_on_its_own_line(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "block.yaml",
        """
        name: block
        title: Block
        extends: gin
        dael:
          hand_size: 10
    """,
    )
    problem = only_problem(path)
    assert problem.path == "dael"
    assert (problem.line, problem.column) == (4, 1)
    assert "did you mean 'deal'?" in problem.message


def test_unknown_key_without_a_close_match(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "far.yaml",
        """
        name: far
        title: Far
        extends: gin
        zzzzzz: 1
    """,
    )
    problem = only_problem(path)
    assert "unknown key 'zzzzzz'" in problem.message
    assert "did you mean" not in problem.message


def test_wrong_type(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "type.yaml",
        """
        name: wrong-type
        title: Wrong type
        extends: gin
        players: {min: 2, max: 2}
        target: lots
    """,
    )
    problem = only_problem(path)
    assert (problem.line, problem.column, problem.path) == (5, 9, "target")
    assert "expected a whole number" in problem.message
    assert "'lots'" in problem.message


def test_bad_enum(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "enum.yaml",
        """
        name: enum
        title: Enum
        extends: gin
        melds:
          ace: sideways
    """,
    )
    problem = only_problem(path)
    assert (problem.line, problem.column, problem.path) == (5, 8, "melds.ace")
    assert "'low', 'high', 'both'" in problem.message and "'sideways'" in problem.message


def test_several_problems_are_all_reported(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "many.yaml",
        """
        name: many
        title: Many
        extends: gin
        melds:
          ace: sideways
          run_min: three
        discard_pile: heaped
    """,
    )
    found = {p.path: p.line for p in problems_of(path)}
    assert found == {"melds.ace": 5, "melds.run_min": 6, "discard_pile": 7}


def test_invalid_yaml_syntax(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "syntax.yaml",
        """
        name: syntax
        title: Syntax
        players: {min: 2, max: 2
        target: 100
    """,
    )
    problem = only_problem(path)
    assert problem.line == 4
    assert "not valid YAML" in problem.message


def test_empty_file_and_not_a_mapping(tmp_path: Path) -> None:
    assert "empty" in only_problem(write(tmp_path, "empty.yaml", "")).message
    problem = only_problem(write(tmp_path, "list.yaml", "- gin\n- rummy\n"))
    assert "mapping" in problem.message


def test_duplicate_key(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "dup.yaml",
        """
        name: dup
        title: Dup
        extends: gin
        target: 100
        target: 150
    """,
    )
    problem = only_problem(path)
    assert (problem.line, problem.column, problem.path) == (5, 1, "target")
    assert "twice" in problem.message


def test_duplicate_nested_key(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "dup2.yaml",
        """
        name: dup2
        title: Dup
        extends: gin
        rules:
          gin_bonus: 25
          gin_bonus: 30
    """,
    )
    problem = only_problem(path)
    assert (problem.line, problem.path) == (6, "rules.gin_bonus")


def test_rules_key_the_plugin_does_not_know(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "rules.yaml",
        """
        name: rules
        title: Rules
        extends: gin
        rules:
          knock_limt: 7
    """,
    )
    problem = only_problem(path)
    assert (problem.line, problem.path) == (5, "rules.knock_limt")
    assert "unknown key 'knock_limt'" in problem.message and "did you mean 'knock_limit'?" in problem.message
    with pytest.raises(RulesetError) as info:
        rummykit.load_variant(str(path))
    assert [p.path for p in info.value.problems] == ["rules.knock_limt"]


def test_wrong_type_inside_rules(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "ten.yaml",
        """
        name: ten
        title: Ten
        extends: gin
        rules:
          knock_limit: "ten"
    """,
    )
    problem = only_problem(path)
    assert (problem.line, problem.column, problem.path) == (5, 16, "rules.knock_limit")
    assert "expected a whole number" in problem.message and "'ten'" in problem.message


def test_a_whole_number_written_with_a_decimal_point_is_refused(tmp_path: Path) -> None:
    # JSON Schema takes 10.0 for an integer; rummykit does not: card values, targets and counts stay ints (the
    # meld search packs values into wider ints, and scores would print as 10.0).
    path = write(
        tmp_path,
        "decimal.yaml",
        """
        name: decimal
        title: Decimal
        extends: gin
        card_values:
          Q: 10.0
    """,
    )
    problem = only_problem(path)
    assert (problem.line, problem.path) == (5, "card_values.Q")
    assert "expected a whole number" in problem.message and "10.0" in problem.message


def test_plugin_not_installed(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "plugin.yaml",
        """
        name: plugin
        title: Plugin
        extends: gin
        plugins: [gin, gin-turbo]
    """,
    )
    problem = only_problem(path)
    assert problem.path == "plugins[1]" and problem.line == 4
    assert "'gin-turbo'" in problem.message and "not installed" in problem.message
    assert "gin" in problem.message.split("installed:")[-1]


def test_impossible_deal(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "deal.yaml",
        """
        name: big-hands
        title: Big hands
        extends: gin
        deal:
          hand_size: 30
    """,
    )
    problem = only_problem(path)
    assert (problem.line, problem.path) == (5, "deal.hand_size")
    assert "61" in problem.message and "52" in problem.message


def test_a_second_deck_makes_the_deal_possible(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "deal2.yaml",
        """
        name: big-hands
        title: Big hands
        extends: gin
        decks: {count: 2}
        deal:
          hand_size: 30
    """,
    )
    assert problems_of(path) == []


def test_card_values_with_a_bad_card_key(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "values.yaml",
        """
        name: values
        title: Values
        extends: gin
        card_values:
          QS: 50
          ZZ: 3
    """,
    )
    problem = only_problem(path)
    assert problem.file == str(path)
    assert (problem.line, problem.path) == (6, "card_values.ZZ")
    assert "'ZZ'" in problem.message


def test_card_values_by_card(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "qs.yaml",
        """
        name: qs
        title: QS
        extends: gin
        card_values:
          QS: 50
          T: 9
    """,
    )
    variant = rummykit.load_variant(str(path))
    assert variant.value(rummykit.cards.parse_card("QS")) == 50
    assert variant.value(rummykit.cards.parse_card("QH")) == 10
    assert variant.value(rummykit.cards.parse_card("TD")) == 9
    # "10" is the ten as T is: it replaces gin's T
    ten = tmp_path / "ten.yaml"
    ten.write_text(path.read_text().replace("T: 9", '"10": 8'))
    assert rummykit.load_variant(str(ten)).value(rummykit.cards.parse_card("TD")) == 8
    # both in one file: one value would go unused, refused at the line that gives "10"
    both = tmp_path / "both.yaml"
    both.write_text(path.read_text().replace("T: 9", 'T: 9\n  "10": 8'))
    with pytest.raises(RulesetError, match=r"both.yaml:7:\d+: card_values.10: T and 10 are one rank"):
        rummykit.load_variant(str(both))


def test_players_min_above_max(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "players.yaml",
        f"""
        name: players
        title: Players
        plugins: [gin]
        players: {{min: 4, max: 2}}
        target: 100
        rules: {MINIMAL_GIN_RULES}
    """,
    )
    problem = only_problem(path)
    assert (problem.line, problem.path) == (4, "players.min")
    assert "players.max" in problem.message


def test_no_target_and_no_max_hands(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "endless.yaml",
        """
        name: endless
        title: Endless
        extends: gin
        target: null
    """,
    )
    problem = only_problem(path)
    assert (problem.line, problem.path) == (4, "target")
    assert "never ends" in problem.message
    fixed = write(
        tmp_path,
        "ten-hands.yaml",
        """
        name: ten-hands
        title: Ten hands
        extends: gin
        target: null
        max_hands: 10
    """,
    )
    assert problems_of(fixed) == []


def test_missing_required_keys(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "bare.yaml",
        """
        name: bare
        title: Bare
    """,
    )
    messages = " ".join(p.message for p in problems_of(path))
    assert "'plugins'" in messages and "'players'" in messages


def test_bad_name_pattern(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "name.yaml",
        """
        name: My Gin
        title: Mine
        extends: gin
    """,
    )
    problem = only_problem(path)
    assert (problem.line, problem.path) == (1, "name")
    assert "lower-case" in problem.message


def test_load_variant_raises_with_every_problem(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "two-problems.yaml",
        """
        name: two
        title: Two problems
        extends: gin
        target: lots
        melds: {ace: sideways}
    """,
    )
    with pytest.raises(RulesetError) as info:
        rummykit.load_variant(str(path))
    assert sorted(p.path for p in info.value.problems) == ["melds.ace", "target"]
    assert isinstance(info.value, ValueError)
    assert "target" in str(info.value)


# == a clash with an inherited value ====================================================================


def line_of(variant: str, text: str) -> int:
    """The line of the shipped ruleset ``variant`` that starts with ``text`` (after its indentation)."""
    lines = Path(find_ruleset(variant)).read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if line.lstrip().startswith(text))


def refused(path: Path, options: dict[str, object] | None = None) -> Problem:
    with pytest.raises(RulesetError) as info:
        rummykit.load_variant(str(path), options=options)
    assert len(info.value.problems) == 1, [str(p) for p in info.value.problems]
    return info.value.problems[0]


def test_a_clash_with_an_inherited_value_is_at_the_child_s_own_key(tmp_path: Path) -> None:
    path = write(tmp_path, "whole.yaml", "name: whole\nextends: 500-rum\ndraw: {from_pile: whole}\n")
    problem = refused(path)
    assert (problem.file, problem.line, problem.column, problem.path) == (str(path), 3, 19, "draw.from_pile")
    must_use = line_of("500-rum", "must_use:")
    assert problem.message == (
        "must_use: deepest goes with from_pile: top or any, not 'whole' "
        f"(draw.must_use inherited from 500-rum.yaml line {must_use})"
    )
    assert str(problem).startswith(f"{path}:3:19: draw.from_pile: must_use: deepest goes with")
    assert rummykit.validate(path) == [problem]


def test_a_set_max_below_an_inherited_set_min_is_at_set_max(tmp_path: Path) -> None:
    path = write(tmp_path, "pairs.yaml", "name: pairs\nextends: 500-rum\nmelds:\n  set_max: 2\n")
    problem = refused(path)
    assert (problem.file, problem.line, problem.path) == (str(path), 4, "melds.set_max")
    set_min = line_of("500-rum", "set_min:")
    assert problem.message == (
        f"melds.set_min (3) is above melds.set_max (2) (melds.set_min inherited from 500-rum.yaml line {set_min})"
    )
    # through a longer chain (500 Partnership extends 500 Rum), the value is still named where it is set
    deeper = write(
        tmp_path, "partner-pairs.yaml", "name: partner-pairs\nextends: 500-partnership\nmelds: {set_max: 2}\n"
    )
    problem = refused(deeper)
    assert (problem.file, problem.line, problem.path) == (str(deeper), 3, "melds.set_max")
    assert problem.message.endswith(f"(melds.set_min inherited from 500-rum.yaml line {set_min})")


def test_a_clash_the_child_s_own_values_make_stays_where_it_was(tmp_path: Path) -> None:
    path = write(tmp_path, "own.yaml", "name: own\nextends: 500-rum\nmelds: {set_min: 5, set_max: 4}\n")
    problem = refused(path)
    assert (problem.file, problem.line, problem.column, problem.path) == (str(path), 3, 18, "melds.set_min")
    assert problem.message == "melds.set_min (5) is above melds.set_max (4)"


def test_options_that_clash_with_the_ruleset_are_named_as_options() -> None:
    with pytest.raises(RulesetError) as info:
        rummykit.load_variant("500-rum", options={"draw": {"from_pile": "whole"}})
    (problem,) = info.value.problems
    assert (problem.file, problem.path) == ("options", "draw.from_pile")
    assert problem.message.endswith(
        f"(draw.must_use inherited from 500-rum.yaml line {line_of('500-rum', 'must_use:')})"
    )


def test_a_house_rule_that_clashes_with_an_inherited_value_is_at_its_own_key(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "whole-rule.yaml",
        """
        name: whole-rule
        extends: 500-rum
        house_rules:
          whole:
            summary: take the whole pile
            set:
              draw: {from_pile: whole}
    """,
    )
    (problem,) = problems_of(path)
    assert (problem.file, problem.line, problem.path) == (str(path), 7, "house_rules.whole.set.draw.from_pile")
    assert problem.message.startswith("house rule 'whole': must_use: deepest goes with from_pile")
    assert "(draw.must_use inherited from 500-rum.yaml line" in problem.message


def test_inherited_values_by_player_count_outside_the_child_s_players_are_dropped(tmp_path: Path) -> None:
    path = write(tmp_path, "two.yaml", "name: two\nextends: 500-rum\nplayers: {min: 2, max: 2}\n")
    variant = rummykit.load_variant(str(path))  # 500 Rum's decks.count names "5" and "6": never used here
    assert variant.ruleset["decks"]["count"] == {"default": 1}
    assert variant.ruleset["deal"]["hand_size"] == {"2": 13, "default": 7}  # "default" always stays
    assert variant.deck_count(2) == 1 and variant.hand_size(2) == 13
    assert rummykit.validate(path) == []
    assert rummykit.load_variant("500-rum", options={"players": {"min": 2, "max": 4}}).ruleset["decks"]["count"] == {
        "default": 1
    }
    assert rummykit.load_variant("500-rum").ruleset["decks"]["count"] == {"5": 2, "6": 2, "default": 1}


def test_values_by_player_count_a_file_gives_itself_outside_its_players_are_refused(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "four.yaml",
        """
        name: four
        extends: 500-rum
        players: {min: 2, max: 4}
        decks:
          count: {"6": 3}
    """,
    )
    problem = refused(path)
    assert (problem.file, problem.line, problem.path) == (str(path), 5, "decks.count.6")
    assert problem.message == "expected a player count from 2 to 4 or 'default', got '6'"


def test_players_the_inherited_values_do_not_cover_are_at_the_child_s_players(tmp_path: Path) -> None:
    write(
        tmp_path,
        "base.yaml",
        """
        name: base
        title: Base
        extends: gin
        players: {min: 2, max: 3}
        decks:
          count: {"2": 1, "3": 1}
    """,
    )
    assert problems_of(tmp_path / "base.yaml") == []
    path = write(tmp_path, "five.yaml", "name: five\nextends: base.yaml\nplayers: {min: 2, max: 5}\n")
    problem = refused(path)
    assert (problem.file, problem.line, problem.column, problem.path) == (str(path), 3, 24, "players.max")
    assert problem.message == (
        "expected a value for every allowed player count: add 'default' or '4', '5' "
        "(decks.count inherited from base.yaml line 6)"
    )
    crowded = write(tmp_path, "eight.yaml", "name: eight\nextends: 500-rum\nplayers: {min: 2, max: 8}\n")
    problem = refused(crowded)
    assert (problem.file, problem.line, problem.path) == (str(crowded), 3, "players.max")
    assert problem.message.startswith("dealing 7 cards to 8 players needs 57 cards; the deck holds 52")
    assert problem.message.endswith(
        f"(deal.hand_size inherited from 500-rum.yaml line {line_of('500-rum', 'hand_size:')})"
    )


# == house rules and options ===========================================================================


def test_house_rule_changes_the_rules() -> None:
    plain = rummykit.load_variant("gin")
    modern = rummykit.load_variant("gin", house_rules=["modern"])
    assert (modern.rules["gin_bonus"], modern.rules["undercut_bonus"], modern.rules["box_bonus"]) == (25, 25, 25)
    assert (plain.rules["gin_bonus"], plain.rules["undercut_bonus"], plain.rules["box_bonus"]) == (20, 10, 20)
    assert modern.house_rules == ("modern",)
    assert modern.rules["knock_limit"] == plain.rules["knock_limit"]
    norwegian = rummykit.load_variant("gin", house_rules=["norwegian"])
    assert (norwegian.rules["gin_bonus"], norwegian.rules["undercut_bonus"], norwegian.rules["box_bonus"]) == (
        40,
        20,
        30,
    )
    both = rummykit.load_variant("gin", house_rules=["modern", "target-200"])
    assert both.rules["gin_bonus"] == 25 and both.ruleset["target"] == 200
    # Loading with house rules leaves the plain variant as it was.
    assert rummykit.load_variant("gin").rules["gin_bonus"] == 20


def test_unknown_house_rule_lists_the_accepted_ones() -> None:
    with pytest.raises(RulesetError) as info:
        rummykit.load_variant("gin", house_rules=["modren"])
    message = str(info.value)
    assert "'modren'" in message and "did you mean 'modern'?" in message
    for accepted in ("modern", "norwegian", "big-gin", "gin-only", "target-150"):
        assert accepted in message


def test_conflicting_house_rules() -> None:
    with pytest.raises(RulesetError) as info:
        rummykit.load_variant("gin", house_rules=["modern", "norwegian"])
    message = str(info.value)
    assert "conflict" in message and "'modern'" in message and "'norwegian'" in message
    with pytest.raises(RulesetError, match="conflict"):
        rummykit.load_variant("gin", house_rules=["norwegian", "modern"])


def test_options_are_applied() -> None:
    variant = rummykit.load_variant("gin", options={"rules": {"knock_limit": 7}})
    assert variant.rules["knock_limit"] == 7
    assert variant.rules["gin_bonus"] == 20
    assert variant.options == {"rules": {"knock_limit": 7}}
    assert rummykit.load_variant("gin").rules["knock_limit"] == 10
    both = rummykit.load_variant("gin", house_rules=["modern"], options={"target": 150})
    assert both.ruleset["target"] == 150 and both.rules["gin_bonus"] == 25
    game = both.new_game(seed=1)
    assert not game.is_over


@pytest.mark.parametrize(
    ("options", "path"),
    [
        ({"rules": {"knock_limit": "seven"}}, "rules.knock_limit"),
        ({"rules": {"knock_limt": 7}}, "rules.knock_limt"),
        ({"targt": 150}, "targt"),
        ({"target": 0}, "target"),
        ({"melds": {"ace": "sideways"}}, "melds.ace"),
        ({"players": {"min": 3}}, "players.min"),
    ],
)
def test_invalid_options_are_refused(options: dict[str, object], path: str) -> None:
    with pytest.raises(RulesetError) as info:
        rummykit.load_variant("gin", options=options)
    assert [p.path for p in info.value.problems] == [path]
    assert info.value.problems[0].file == "options"


# == names, aliases, safety, shipped rulesets ============================================================


def test_load_by_alias() -> None:
    assert rummykit.load_variant("gin-rummy").name == "gin"
    assert rummykit.load_variant("GIN").name == "gin"
    assert rummykit.load_variant("gin-rummy").rules == rummykit.load_variant("gin").rules


def test_unknown_name_suggests_close_matches() -> None:
    with pytest.raises(KeyError) as info:
        rummykit.load_variant("gn")
    message = str(info.value.args[0])
    assert "'gn'" in message and "did you mean" in message and "'gin'" in message
    with pytest.raises(KeyError) as info:
        rummykit.load_variant("chess")
    assert "did you mean" not in str(info.value.args[0])
    assert "gin" in str(info.value.args[0])  # the known variants are listed


def test_validate_by_name() -> None:
    assert rummykit.validate("gin") == []
    found = rummykit.validate("gn")
    assert len(found) == 1 and "'gin'" in found[0].message


@pytest.mark.parametrize(
    ("line", "path"),
    [
        ('summary: !!python/object/apply:os.system ["echo hacked > {marker}"]', "summary"),
        ('aliases: !!python/object/apply:os.system ["echo hacked > {marker}"]', "aliases"),
        ("summary: !!python/name:os.system", "summary"),
        ("players: !!python/object:collections.OrderedDict {{min: 2, max: 2}}", "players"),
        ("summary: !custom hello", "summary"),
    ],
)
def test_yaml_is_loaded_safely(tmp_path: Path, line: str, path: str) -> None:
    marker = tmp_path / "hacked"
    text = "name: hack\ntitle: Hack\nextends: gin\n" + line.format(marker=marker) + "\n"
    ruleset = write(tmp_path, "hack.yaml", text)
    problem = only_problem(ruleset)
    assert (problem.line, problem.path) == (4, path)
    assert "not allowed" in problem.message
    with pytest.raises(RulesetError):
        rummykit.load_variant(str(ruleset))
    assert not marker.exists()


def test_every_shipped_ruleset_validates() -> None:
    shipped = rummykit.list_variants()
    names = [info.name for info in shipped]
    assert "gin" in names
    assert names == sorted(names)
    for info in shipped:
        assert rummykit.validate(info.path) == [], info.name
        variant = rummykit.load_variant(info.name)
        assert variant.name == info.name
        assert (variant.min_players, variant.max_players) == (info.min_players, info.max_players)
        for alias in info.aliases:
            assert rummykit.load_variant(alias).name == info.name


def test_the_search_bots_defaults_are_checked(tmp_path: Path) -> None:
    """``bots.search.rollout_moves`` is a whole number of moves from 1; a misspelt or unknown key is named."""
    for value in ("0", "many", "2.5", "10001"):
        path = write(
            tmp_path,
            "bots.yaml",
            f"""
            name: bots
            title: Bots
            extends: gin
            bots:
              search: {{rollout_moves: {value}}}
        """,
        )
        problem = only_problem(path)
        assert (problem.line, problem.path) == (5, "bots.search.rollout_moves"), problem
    path = write(
        tmp_path,
        "bots.yaml",
        """
        name: bots
        title: Bots
        extends: gin
        bots:
          search:
            rollout_move: 20
    """,
    )
    problem = only_problem(path)
    assert problem.path == "bots.search.rollout_move" and "rollout_moves" in problem.message
    with pytest.raises(RulesetError):
        rummykit.load_variant("gin", options={"bots": {"greedy": {"rollout_moves": 20}}})


def test_a_house_rule_may_set_how_the_search_bot_plays(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "quick.yaml",
        """
        name: quick
        title: Quick
        extends: gin
        house_rules:
          quick-bots:
            summary: shorter rollouts for the search bot
            set: {bots: {search: {rollout_moves: 5}}}
    """,
    )
    assert problems_of(path) == []
    from rummykit.bots import SearchBot

    assert SearchBot(1).moves_for(rummykit.load_variant(str(path), ["quick-bots"]).new_game(seed=1)) == 5
    assert SearchBot(1).moves_for(rummykit.load_variant(str(path)).new_game(seed=1)) == SearchBot.ROLLOUT_MOVES


def test_one_run_names_the_kernels_problems_and_the_plugins_in_the_order_of_the_lines(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "both.yaml",
        """
        name: both
        extends: gin
        rules:
          knock_limit: [7]
        max_hands: many
        discard_pile: stacked
        target: lots
    """,
    )
    with pytest.raises(RulesetError) as caught:
        rummykit.load_variant(str(path))
    found = [(p.line, p.path) for p in caught.value.problems]
    assert found == [(4, "rules.knock_limit"), (5, "max_hands"), (6, "discard_pile"), (7, "target")]


@pytest.mark.parametrize(
    ("text", "where", "hint"),
    [
        ("name: x\nrules:\n  knock_limit: 7\n   gin_bonus: 25\n", ":4:", "indented more than the keys above it"),
        ("name: x\nrules:\n  knock_limit: 7\n gin_bonus: 25\n", ":4:", "start in the same column"),
        ("name: x\nrules:\n\tknock_limit: 7\n", ":3:", "spaces, not tabs"),
    ],
)
def test_yaml_mistakes_say_what_they_usually_mean(tmp_path: Path, text: str, where: str, hint: str) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesetError, match="not valid YAML") as caught:
        rummykit.load_variant(str(path))
    assert where in str(caught.value) and hint in str(caught.value)
