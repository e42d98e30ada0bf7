"""Hostile input that costs time rather than correctness: rulesets and records that ask the engine for more
work than it can do in bounded time, files too large to read quickly, YAML that refers to itself,
integers in every YAML form, and records that name what is not a ruleset. Each is refused at once, on one
line that names the file, where and what is wrong, and changes nothing. Small broken rulesets live in
``tests/broken``; the large ones are generated here."""

from __future__ import annotations

import gc
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import rummykit
from rummykit import Game
from rummykit.cli import main
from rummykit.ruleset import MAX_BYTES, MAX_INT, MAX_VALUES, RulesetError
from rummykit.settings import (
    MAX_DECKS,
    MAX_HAND_SIZE,
    MAX_JOKERS,
    MAX_WILD_CARDS,
    MAX_WILD_CARDS_TRIED,
    MAX_WILD_HAND_SIZE,
)
from rummykit.variant import MAX_HOUSE_RULES

QUICK = 1.0
"""CPU seconds within which a hostile input is refused (each took from 3 s to several minutes before). CPU time
of the thread, not the clock: on a loaded machine the clock also counts other processes' turns."""

HEAD = "name: big\ntitle: Big\nextends: gin\n"

HOSTILE_DEAL = {
    "decks": {"count": 20, "jokers": 100},
    "deal": {"hand_size": 100},
    "melds": {"wild": ["2", "3", "JK"]},
    "card_values": {"JK": 15},
}
"""Options the validator used to accept, whose play took minutes a turn and hundreds of megabytes."""


@contextmanager
def quickly(limit: float = QUICK) -> Iterator[None]:
    # The collector paused: a full collection in a test process grown by the tests before (a second and more)
    # is not the input's cost, and once made a 0.15 s refusal take 1.03 s.
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.thread_time()
        yield
        elapsed = time.thread_time() - start
    finally:
        if enabled:
            gc.enable()
    assert elapsed < limit, f"took {elapsed:.2f} CPU s"


def record_of(base: str = "gin", **changes: Any) -> str:
    record = json.loads(rummykit.load_variant(base).new_game(seed=1).to_json())
    record.update(changes)
    return json.dumps(record)


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    lines = (out + err).splitlines()
    assert len(lines) == 1, lines
    return lines[0]


# -- the work a ruleset may ask for -------------------------------------------------------------------------


def test_the_hostile_deal_is_refused_by_validate_at_once(tmp_path: Path) -> None:
    path = tmp_path / "hostile.yaml"
    path.write_text(
        "name: hostile\ntitle: Hostile\nextends: 500-rum\n"
        "decks: {count: 20, jokers: 100}\ndeal: {hand_size: 100}\nmelds: {wild: ['2', '3', JK]}\n"
        "card_values: {JK: 15}\n",
        encoding="utf-8",
    )
    with quickly():
        problems = rummykit.validate(path)
    assert [(p.path, p.message) for p in problems] == [
        ("decks.count", f"expected at most {MAX_DECKS} decks, got 20"),
        ("decks.jokers", f"expected at most {MAX_JOKERS} jokers, got 100"),
        ("deal.hand_size", f"expected at most {MAX_HAND_SIZE} cards a hand, got 100"),
    ]
    assert all(p.file == str(path) and p.line > 0 for p in problems)


def test_a_record_with_the_hostile_options_is_refused_before_anything_is_built(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = record_of("500-rum", options=HOSTILE_DEAL)

    def never(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a deck was built for a record that is refused")

    monkeypatch.setattr("rummykit.engine.build_deck", never)
    with quickly(), pytest.raises(RulesetError) as refused:
        Game.from_json(text)
    assert [str(p) for p in refused.value.problems] == [
        f"options: decks.count: expected at most {MAX_DECKS} decks, got 20",
        f"options: decks.jokers: expected at most {MAX_JOKERS} jokers, got 100",
        f"options: deal.hand_size: expected at most {MAX_HAND_SIZE} cards a hand, got 100",
    ]
    saved = tmp_path / "game.json"
    saved.write_text(text, encoding="utf-8")
    with quickly():
        assert main(["replay", str(saved)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"rummykit: {saved}: options: decks.count: expected at most {MAX_DECKS} decks, got 20")


@pytest.mark.parametrize(
    ("options", "path", "message"),
    [
        ({"decks": {"count": MAX_DECKS + 1}}, "decks.count", f"expected at most {MAX_DECKS} decks, got 5"),
        ({"decks": {"count": {"default": 1, "6": 9}}}, "decks.count.6", f"expected at most {MAX_DECKS} decks, got 9"),
        ({"decks": {"jokers": MAX_JOKERS + 1}, "card_values": {"JK": 15}}, "decks.jokers", "expected at most 8"),
        ({"decks": {"count": 4}, "deal": {"hand_size": MAX_HAND_SIZE + 1}}, "deal.hand_size", "expected at most 30"),
        (
            {"decks": {"count": 2}, "deal": {"hand_size": MAX_WILD_HAND_SIZE + 1}, "melds": {"wild": ["2"]}},
            "deal.hand_size",
            f"expected at most {MAX_WILD_HAND_SIZE} cards a hand when cards are wild (melds.wild), got 16",
        ),
        (
            {"decks": {"count": 4, "jokers": 8}, "melds": {"wild": ["2", "JK"]}, "card_values": {"JK": 15}},
            "melds.wild",
            f"makes 24 wild cards with 4 decks and 8 jokers; expected at most {MAX_WILD_CARDS}",
        ),
    ],
)
def test_each_limit_is_refused_one_past_it(options: dict[str, Any], path: str, message: str) -> None:
    with quickly(), pytest.raises(RulesetError) as refused:
        rummykit.load_variant("500-rum", options=options)
    assert [(p.path, p.message[: len(message)]) for p in refused.value.problems] == [(path, message)]


LARGEST = [
    ("500-rum", {"decks": {"count": MAX_DECKS, "jokers": MAX_JOKERS}, "deal": {"hand_size": MAX_HAND_SIZE}}),
    ("gin", {"decks": {"count": MAX_DECKS, "jokers": MAX_JOKERS}, "deal": {"hand_size": MAX_HAND_SIZE}}),
    ("500-rum", {"players": {"min": 2, "max": 3}, "decks": {"count": 1, "jokers": 4}, "deal": {"hand_size": 15},
                 "melds": {"wild": ["2", "3", "JK"]}}),
    ("gin", {"decks": {"count": 1, "jokers": 4}, "melds": {"wild": ["2", "3", "JK"]}, "deal": {"hand_size": 15}}),
    ("fortune", {"players": {"min": 2, "max": 2}, "decks": {"count": 4, "jokers": 8}, "deal": {"hand_size": 15},
                 "melds": {"wild": ["JK", "2C"], "max_wilds": None, "set_max": None}}),
    ("gin", {"deal": {"hand_size": 15}, "melds": {"wild": ["2"], "run_max": 5, "set_distinct_suits": True}}),
]  # fmt: skip
"""The largest rulesets the limits accept: the most decks and jokers with the biggest hands, the most wild
cards among the fewest cards with the biggest hand wild cards allow, and as many wild cards as rules that
the quick search does not cover allow."""


@pytest.mark.parametrize(("name", "options"), LARGEST, ids=[f"{n}-{i}" for i, (n, _) in enumerate(LARGEST)])
def test_the_largest_accepted_rulesets_list_legal_actions_quickly(name: str, options: dict[str, Any]) -> None:
    values = {"A": 1, **{r: 10 for r in "TJQK"}, **{str(n): n for n in range(2, 10)}}
    if options.get("decks", {}).get("jokers"):
        values["JK"] = 15
    variant = rummykit.load_variant(name, options={**options, "card_values": values})
    slowest = 0.0
    for seed in (1, 2):
        game = variant.new_game(seed=seed)
        for _ in range(12):  # the first turns of each seat: big hands, every wild card still about
            start = time.perf_counter()
            actions = game.legal_actions()
            slowest = max(slowest, time.perf_counter() - start)
            kinds = [a for a in actions if a.kind in ("draw stock", "discard", "meld")]
            game.apply(kinds[-1] if kinds else actions[0])
            if game.is_over:
                break
    assert slowest < 2.0  # measured: at most 1 s on one core; docs/rulesets.md states the bound


def test_rules_searched_by_trying_every_meld_allow_fewer_wild_cards() -> None:
    for key, value in (("set_distinct_suits", True), ("run_max", 5)):
        with pytest.raises(RulesetError) as refused:
            rummykit.load_variant("gin", options={"melds": {"wild": ["2", "3"], key: value}})
        assert [str(p) for p in refused.value.problems] == [
            "options: melds.wild: makes 8 wild cards with 1 deck and 0 jokers; expected at most "
            f"{MAX_WILD_CARDS_TRIED} with melds.{key} (the least deadwood is found by trying every meld)"
        ]
        assert rummykit.load_variant("gin", options={"melds": {"wild": ["2"], key: value}}).name == "gin"


# -- house rules --------------------------------------------------------------------------------------------


def test_thousands_of_house_rules_are_refused_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    message = f"25,000 house rules selected; at most {MAX_HOUSE_RULES} may be"
    with quickly(), pytest.raises(RulesetError, match=message):
        rummykit.load_variant("gin", house_rules=["modern"] * 25_000)
    text = record_of(house_rules=["modern"] * 100_000)
    with quickly(), pytest.raises(ValueError, match="100,000 house rules selected"):
        Game.from_json(text)
    saved = tmp_path / "game.json"
    saved.write_text(text, encoding="utf-8")
    with quickly():
        assert main(["replay", str(saved)]) == 2
    message = f"house_rules: 100,000 house rules selected; at most {MAX_HOUSE_RULES} may be"
    assert one_line(capsys) == f"rummykit: {saved}: {message}"


def test_as_many_house_rules_as_allowed_are_checked_in_linear_time() -> None:
    with quickly(2.0):
        variant = rummykit.load_variant("gin", house_rules=["modern"] * MAX_HOUSE_RULES)
    assert variant.house_rules == ("modern",) * MAX_HOUSE_RULES


# -- YAML: aliases, size, integers ----------------------------------------------------------------------


SELF_ALIAS = "name: loop\ntitle: Loop\nextends: gin\na: &a [*a]\n"


def test_a_value_that_contains_itself_is_one_located_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "loop.yaml"
    path.write_text(SELF_ALIAS, encoding="utf-8")
    [problem] = rummykit.validate(path)
    assert (problem.file, problem.line, problem.column, problem.path) == (str(path), 4, 8, "a")
    assert problem.message == "the alias *a is used inside the value it names: a value cannot contain itself"
    assert main(["validate", str(path)]) == 1
    assert one_line(capsys) == f"{path}:4:8: a: {problem.message}"
    text = record_of(variant=str(path))
    with pytest.raises(RulesetError) as refused:
        Game.from_json(text)
    assert str(refused.value) == f"{path}:4:8: a: {problem.message}"
    saved = tmp_path / "game.json"
    saved.write_text(text, encoding="utf-8")
    assert main(["replay", str(saved)]) == 2
    assert one_line(capsys) == f"rummykit: {saved}: {path}:4:8: a: {problem.message}"


def test_a_mapping_that_contains_itself_deeper_down(tmp_path: Path) -> None:
    path = tmp_path / "loop.yaml"
    path.write_text("name: loop\ntitle: Loop\nextends: gin\nrules: &r\n  x: [1, {y: *r}]\n", encoding="utf-8")
    [problem] = rummykit.validate(path)
    assert (problem.line, problem.column, problem.path) == (5, 14, "rules")
    assert "*r is used inside the value it names" in problem.message


def test_aliases_used_after_their_value_are_fine(tmp_path: Path) -> None:
    path = tmp_path / "aliases.yaml"
    path.write_text(
        "name: aliases\ntitle: Aliases\nextends: gin\nrules: &r {knock_limit: 7}\n"
        "house_rules:\n  same:\n    summary: the same\n    set: {rules: *r}\n",
        encoding="utf-8",
    )
    assert rummykit.validate(path) == []


def big_files() -> dict[str, tuple[str, str]]:
    """Files that took from 3 to 15 seconds to refuse, and the words their one problem must hold."""
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]
    return {
        "flow-list": (HEAD + "rules: {a: [" + ", ".join(["1"] * 266_000) + "]}\n", "798,"),
        "many-keys": ("".join(f"k{i}: 1\n" for i in range(100_000)), "bytes"),
        "block-list": (HEAD + "aliases:\n" + "- a\n" * 240_000, "960,"),
        "excluded-ranks": (
            HEAD + "melds:\n  excluded_ranks: [" + ", ".join(ranks[i % 13] for i in range(19_000)) + "]\n",
            f"more than {MAX_VALUES:,} values",
        ),
        "dense-small": (HEAD + "rules: {a: [" + ", ".join(["1"] * (MAX_VALUES + 10)) + "]}\n", "values"),
    }


@pytest.mark.parametrize("name", list(big_files()))
def test_large_rulesets_are_refused_within_a_second(name: str, tmp_path: Path) -> None:
    text, words = big_files()[name]
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    with quickly():
        problems = rummykit.validate(path)
    assert len(problems) == 1
    [problem] = problems
    assert problem.file == str(path) and words in problem.message and "alias" not in problem.message
    with quickly():
        with pytest.raises(RulesetError):
            rummykit.load_variant(str(path))


def test_the_size_limits_name_the_file_and_the_size(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text(HEAD + "summary: " + "x" * MAX_BYTES + "\n", encoding="utf-8")
    [problem] = rummykit.validate(path)
    size = path.stat().st_size
    assert str(problem) == f"{path}: the file holds {size:,} bytes; a ruleset may hold at most {MAX_BYTES:,}"
    dense = tmp_path / "dense.yaml"
    dense.write_text(HEAD + "rules:\n  a: [" + ", ".join(["1"] * MAX_VALUES) + "]\n", encoding="utf-8")
    [problem] = rummykit.validate(dense)
    assert (problem.line, problem.path) == (5, "rules")
    assert problem.message == f"more than {MAX_VALUES:,} values in one file (list items and mapping entries)"


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("0x" + "f" * 50_000, "one of 50,002 characters"),
        ("0" + "7" * 40, "one of 41 characters"),
        ("0b" + "1" * 40, "one of 42 characters"),
        ("1" + ":30" * 30_000, "one of 90,001 characters"),
        ("1:30:30:30:30:30:30", "'1:30:30:30:30:30:30'"),
        ("0xffffffffff", "'0xffffffffff'"),
        ("-1_000_000_000_000", "'-1_000_000_000_000'"),
        ("9" * 5_000, "one of 5,000 characters"),
    ],
)
def test_huge_integers_are_refused_in_every_yaml_form(
    value: str, shown: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text(HEAD + f"target: {value}\n", encoding="utf-8")
    with quickly():
        [problem] = rummykit.validate(path)
    assert (problem.line, problem.column, problem.path) == (4, 9, "target")
    assert problem.message == f"expected a whole number from -{MAX_INT:,} to {MAX_INT:,}, got {shown}"
    assert main(["show", str(path)]) == 2
    assert "Traceback" not in "".join(capsys.readouterr())


def test_integers_within_bounds_in_other_forms_are_read(tmp_path: Path) -> None:
    path = tmp_path / "forms.yaml"
    path.write_text(HEAD + "target: 0x1f4\nmax_hands: 1_000\n", encoding="utf-8")
    assert rummykit.validate(path) == []
    assert rummykit.load_variant(str(path)).ruleset["target"] == 500


def test_options_and_house_rules_given_as_data_keep_integers_in_bounds() -> None:
    with pytest.raises(RulesetError) as refused:
        rummykit.load_variant("gin", options={"target": 10**50})
    assert [str(p) for p in refused.value.problems] == [
        f"options: target: expected a whole number from -{MAX_INT:,} to {MAX_INT:,}, got one of 51 digits"
    ]
    with pytest.raises(RulesetError, match="max_hands: expected a number at most 10000, got 20000"):
        rummykit.load_variant("gin", options={"max_hands": 20_000})


def test_big_options_are_refused_by_their_size() -> None:
    options = {"rules": {f"k{i}": i for i in range(MAX_VALUES + 1)}}
    with quickly(), pytest.raises(RulesetError) as refused:
        rummykit.load_variant("gin", options=options)
    assert [str(p) for p in refused.value.problems] == [f"options: rules: more than {MAX_VALUES:,} values"]
    text = record_of(options=options)
    with quickly(), pytest.raises(ValueError, match=f"'options' holds more than {MAX_VALUES:,} values"):
        Game.from_json(text)


# -- records: what the variant names, and one line each ---------------------------------------------------


@pytest.mark.parametrize("variant", ["/dev/zero", "/no/such/ruleset.yaml", "no-such-variant", "/"])
def test_a_record_naming_no_ruleset_is_a_value_error(variant: str) -> None:
    with pytest.raises(ValueError) as refused:
        Game.from_json(record_of(variant=variant))
    assert not isinstance(refused.value, KeyError)
    assert variant in str(refused.value) and "\n" not in str(refused.value)


def test_huge_decks_in_a_record_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = record_of("500-rum", options={"decks": {"count": 10**100}})
    with pytest.raises(RulesetError) as refused:
        Game.from_json(text)
    assert [str(p) for p in refused.value.problems] == [
        f"options: decks.count: expected a whole number from -{MAX_INT:,} to {MAX_INT:,}, got one of 101 digits"
    ]
    text = record_of("500-rum", options={"decks": {"count": 200}})
    with pytest.raises(RulesetError) as refused:
        Game.from_json(text)
    assert [str(p) for p in refused.value.problems] == ["options: decks.count: expected at most 4 decks, got 200"]
    saved = tmp_path / "game.json"
    saved.write_text(text, encoding="utf-8")
    assert main(["replay", str(saved)]) == 2
    assert one_line(capsys) == f"rummykit: {saved}: options: decks.count: expected at most 4 decks, got 200"


def test_replay_of_a_record_that_is_not_utf8_names_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "game.json"
    saved.write_bytes(record_of().encode("utf-8").replace(b'"gin"', b'"g\xe9n"'))
    assert main(["replay", str(saved)]) == 2
    line = one_line(capsys)
    assert line.startswith(f"rummykit: {saved}: ") and "UTF-8" in line
    assert main(["play", "--resume", str(saved)]) == 2
    assert one_line(capsys).startswith(f"rummykit: {saved}: not a rummykit record: not UTF-8 text")


def test_variants_loaded_with_ever_other_options_are_kept_in_bounded_number() -> None:
    from rummykit.variant import VARIANTS_KEPT, _load_cached

    for target in range(100, 100 + VARIANTS_KEPT + 50):
        rummykit.load_variant("gin", options={"target": target})
    assert _load_cached.cache_info().currsize <= VARIANTS_KEPT
