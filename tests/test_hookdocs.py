"""The hooks page is generated from the hook specifications and must be current."""

from pathlib import Path

import pluggy

from rummykit import hookdocs, hookspecs

PAGE = Path(__file__).resolve().parent.parent / "docs" / "hooks.md"


def test_every_hook_is_documented() -> None:
    names = [name for name, _ in hookdocs.hook_functions()]
    pm = pluggy.PluginManager("rummykit")
    pm.add_hookspecs(hookspecs)
    assert sorted(names) == sorted(n for n in dir(pm.hook) if n.startswith("rummykit_"))
    for name, fn in hookdocs.hook_functions():
        assert (fn.__doc__ or "").strip(), f"{name} has no docstring"


def test_hooks_page_is_current() -> None:
    assert PAGE.read_text(encoding="utf-8") == hookdocs.render(), (
        "docs/hooks.md is stale: run `python -m rummykit.hookdocs > docs/hooks.md`"
    )
