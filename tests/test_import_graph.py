"""The modules of ``rummykit/`` import each other without a circle, and the kernel never imports a face.

Every import of a ``rummykit`` module counts, absolute or relative, at module level or inside a function;
only imports under ``if TYPE_CHECKING:`` are left out (they never run). Importing a package means its
``__init__``; ``from . import x`` where ``x`` is a module means that module.
"""

from __future__ import annotations

import ast
import importlib
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "rummykit"

# The faces: what people and programs drive the kernel through. The kernel is everything else but the
# package's own ``__init__``, which sits on top and may import anything.
FACES = ("cli", "web", "bots", "search", "simulate", "lab", "envs", "validation", "scaffold", "__main__")


def module_names() -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its own name, for its ``__init__``)."""
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = ["rummykit", *path.relative_to(ROOT).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """The import statements of ``tree`` at any depth, without those under ``if TYPE_CHECKING:``."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def imported_by(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that module ``name`` (at ``path``) imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in _imports(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            pairs = [(alias.name, "") for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join([*parts[: len(parts) - node.level + 1], *([base] if base else [])])
            pairs = [(base, alias.name) for alias in node.names]
        for base, alias in pairs:
            if base != "rummykit" and not base.startswith("rummykit."):
                continue
            target = f"{base}.{alias}" if f"{base}.{alias}" in modules else base
            while target not in modules:  # ``import rummykit.x.y`` of a name that is no module
                target = target.rpartition(".")[0]
            targets.add(target)
            # A module in a subpackage runs that subpackage's ``__init__`` first, unless the importer
            # is inside it (then that ``__init__`` is already running or done).
            parent = target.rpartition(".")[0]
            while parent.startswith("rummykit.") and not (name == parent or name.startswith(f"{parent}.")):
                targets.add(parent)
                parent = parent.rpartition(".")[0]
    targets.discard(name)
    return targets


def import_graph() -> dict[str, set[str]]:
    modules = module_names()
    return {name: imported_by(name, path, modules) for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of ``graph`` as a list of modules (the first one again at its end), or None."""
    state: dict[str, int] = {}  # 1 on the path being walked, 2 finished
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                found = walk(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = walk(node)
            if found:
                return found
    return None


def is_face(name: str) -> bool:
    short = name.removeprefix("rummykit.")
    return any(short == face or short.startswith(f"{face}.") for face in FACES)


def test_the_graph_sees_every_kind_of_import() -> None:
    """The parser itself: relative and absolute, nested in functions, skipping TYPE_CHECKING."""
    graph = import_graph()
    assert "rummykit.cards" in graph["rummykit.engine"]
    assert "rummykit.engine" in graph["rummykit.envs"]  # ``from ..engine import`` in a package __init__
    assert "rummykit.envs.encoding" in graph["rummykit.envs"]
    assert "rummykit.envs" not in graph["rummykit.envs.vector"]  # its own package's __init__ is running
    assert "rummykit.web" in graph["rummykit.cli"]  # a module of a subpackage runs that package first
    assert "rummykit.web.app" in graph["rummykit.cli"]  # imported inside a function
    assert "rummykit.engine" not in graph["rummykit.hookspecs"]  # only under TYPE_CHECKING


def test_find_cycle_reports_a_circle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_no_import_circle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


@pytest.mark.parametrize("name", sorted(n for n in module_names() if n != "rummykit" and not is_face(n)))
def test_the_kernel_imports_no_face(name: str) -> None:
    faces = sorted(target for target in import_graph()[name] if is_face(target))
    assert not faces, f"{name} (kernel) imports {', '.join(faces)} (faces)"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("rummykit.engine.UntrustedPlugins", "rummykit.records.UntrustedPlugins"),
        ("rummykit.engine.load_record", "rummykit.records.load_record"),
        ("rummykit.engine.play_record", "rummykit.records.play_record"),
        ("rummykit.variant.validate", "rummykit.validation.validate"),
        ("rummykit.variant.PLAY_CHECK", "rummykit.validation.PLAY_CHECK"),
    ],
)
def test_moved_names_keep_working_with_a_warning(old: str, new: str) -> None:
    """A public name that moved up (where importing it back would close a circle) is still found where it
    was, the same object, with a DeprecationWarning naming where it is now."""
    old_module, _, name = old.rpartition(".")
    new_module, _, _ = new.rpartition(".")
    with pytest.warns(DeprecationWarning, match=new.replace(".", r"\.")):
        found = getattr(importlib.import_module(old_module), name)
    assert found is getattr(importlib.import_module(new_module), name)


def test_names_moved_down_are_the_same_objects_where_they_were() -> None:
    """Names that moved to a lower module are exported, unchanged, where they were (no warning)."""
    from rummykit import bots, dispatch, errors, simulate

    assert (dispatch.PluginError, dispatch.GameBroken) == (errors.PluginError, errors.GameBroken)
    assert (simulate.make_bots, simulate.bot_seed, simulate.derive_seed) == (
        bots.make_bots,
        bots.bot_seed,
        bots.derive_seed,
    )


def test_game_from_json_reads_through_records() -> None:
    import rummykit

    game = rummykit.load_variant("gin").new_game(seed=4)
    for _ in range(6):
        game.apply(game.legal_actions()[-1])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = rummykit.Game.from_json(game.to_json())
    assert again.to_json() == game.to_json()
