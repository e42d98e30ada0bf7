"""Each mechanic owns the ruleset keys only it reads: its module declares them (``SCHEMA``, put into the
ruleset's schema when validating), defaults them (``Settings``) and checks them (``ruleset_problems``), and
no other module of the kernel names them. The keys that select mechanics stay in the kernel's schema."""

from __future__ import annotations

import ast
import dataclasses
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import rummykit
from rummykit import mechanics, ruleset
from rummykit.settings import KernelSettings

PACKAGE = Path(rummykit.__file__).resolve().parent
OWNED = [
    (module, block, key)
    for module, _ in mechanics.MECHANICS
    for block, keys in getattr(module, "SCHEMA", {}).items()
    for key in keys
]


def test_the_mechanics_own_the_keys_no_other_code_reads() -> None:
    assert {(m.__name__.rpartition(".")[2], b, k) for m, b, k in OWNED} == {
        ("whole_pile", "draw", "top_layoff"),
        ("exchange", "table", "exchangeable"),
        ("refill", "draw", "rebuilds"),
    }


@pytest.mark.parametrize(("module", "block", "key"), OWNED, ids=[key for _, _, key in OWNED])
def test_a_mechanic_s_key_is_declared_defaulted_and_checked_in_its_module_only(
    module: ModuleType, block: str, key: str
) -> None:
    own = Path(str(module.__file__)).resolve()
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == own:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        named = [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value == key]
        assert not named, f"{path.relative_to(PACKAGE)} names the ruleset key {key!r} of {module.__name__}"
    assert key not in {f.name for f in dataclasses.fields(KernelSettings)}
    assert key in {f.name for f in dataclasses.fields(module.Settings)}, "its default is in its Settings"
    schema = ruleset.kernel_schema()["properties"][block]["properties"]
    assert schema[key] == module.SCHEMA[block][key]
    # The shipped file's copy, for editors, is the module's declaration.
    shipped = json.loads((PACKAGE / "ruleset.schema.json").read_text(encoding="utf-8"))
    assert shipped["properties"][block]["properties"][key] == module.SCHEMA[block][key]


def _loads(values: dict[str, Any]) -> str | None:
    try:
        rummykit.load_variant("fortune", options=values)
    except rummykit.RulesetError as refused:
        return str(refused)
    return None


def test_the_schema_validated_takes_the_keys_from_the_mechanics_declarations(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _loads({"draw": {"rebuilds": 2}}) is None
    assert "expected a whole number or nothing (null)" in (_loads({"draw": {"rebuilds": "often"}}) or "")
    declared = dict(ruleset._DECLARED)
    declared[mechanics.refill.__name__] = {"draw": {"rebuilds": {"type": "integer", "maximum": 1}}}
    monkeypatch.setattr(ruleset, "_DECLARED", declared)
    refused = _loads({"draw": {"rebuilds": 5}})  # a value not loaded before (loaded variants are kept)
    assert refused is not None and "draw.rebuilds" in refused, "the mechanic's declaration is the one validated"


def test_a_mechanic_s_values_have_their_defaults_and_the_variant_reads_them() -> None:
    fortune = rummykit.load_variant("fortune")
    assert fortune.rebuilds == mechanics.refill.Settings.read(fortune.ruleset).rebuilds == 3
    gin = rummykit.load_variant("gin")
    assert gin.mechanic_settings[mechanics.refill.__name__] == mechanics.refill.Settings()
    assert gin.rebuilds is None and gin.top_layoff is False
    with pytest.warns(DeprecationWarning, match="KernelSettings.rebuilds moved"):
        assert fortune.kernel.rebuilds == 3


def test_a_mechanic_checks_its_own_values() -> None:
    found = mechanics.refill.ruleset_problems(
        KernelSettings(), lambda path, text: (path, text), {"draw": {"rebuilds": 1}}
    )
    assert found == [(("draw", "rebuilds"), "rebuilds goes with empty_stock: turn-over or reshuffle")]
    assert "table.exchange is none" in (_loads({"table": {"exchange": "none", "exchangeable": ["2"]}}) or "")
