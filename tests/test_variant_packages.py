"""Variants registered by an installed package (the ``rummykit.variants`` entry-point group) are found by
name like the built-in ones; a name clashing with another package's is refused, naming both packages.

The package is "installed" by writing it with its ``*.dist-info`` (``entry_points.txt``) into a folder put
on ``sys.path``: what ``pip install`` leaves in site-packages, without the minutes a venv takes."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from rummykit import cli
from rummykit.catalogue import find_ruleset, list_variants, refresh_catalogue
from rummykit.ruleset import RulesetError
from rummykit.variant import load_variant

PLUGIN = """
import rummykit


@rummykit.hookimpl
def rummykit_house_rules():
    return {"pkg-short": {"summary": "Hands of six cards.", "set": {"deal": {"hand_size": 6}},
                          "variants": ["pkg-gin"]}}
"""


def _install(root: Path, dist: str, package: str, rulesets: dict[str, str], plugin: str | None = None) -> None:
    """Write ``package`` (its rulesets, and a plugin module) and the distribution's metadata into ``root``."""
    folder = root / package
    (folder / "variants").mkdir(parents=True)
    (folder / "__init__.py").write_text("")
    (folder / "variants" / "__init__.py").write_text("")
    for name, text in rulesets.items():
        (folder / "variants" / name).write_text(textwrap.dedent(text))
    info = root / f"{dist.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    points = f"[rummykit.variants]\n{dist} = {package}.variants\n"
    if plugin is not None:
        (folder / "plugin.py").write_text(plugin)
        points += f"\n[rummykit]\n{dist} = {package}.plugin\n"
    (info / "entry_points.txt").write_text(points)


GIN_SIX = """\
    name: pkg-gin
    title: Packaged Gin
    aliases: [packaged-gin]
    summary: Gin from a package.
    extends: gin
    plugins: [gin, pkg-games]
    """


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.syspath_prepend(str(tmp_path))
    refresh_catalogue()
    yield tmp_path
    monkeypatch.undo()
    refresh_catalogue()


def test_a_packaged_variant_is_found_by_name(installed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _install(installed, "pkg-games", "pkg_games", {"pkg-gin.yaml": GIN_SIX}, PLUGIN)
    refresh_catalogue()
    infos = {info.name: info for info in list_variants()}
    assert infos["pkg-gin"].package == "pkg-games" and infos["gin"].package == "rummykit"
    assert find_ruleset("pkg-gin") == find_ruleset("packaged-gin") == infos["pkg-gin"].path
    variant = load_variant("pkg-gin")
    assert variant.title == "Packaged Gin" and variant.ruleset["deal"]["hand_size"] == 10
    short = load_variant("pkg-gin", house_rules=["pkg-short"])  # a house rule of the package's plugin
    assert short.ruleset["deal"]["hand_size"] == 6

    assert cli.main(["list"]) == 0
    assert "pkg-gin" in capsys.readouterr().out
    assert cli.main(["show", "packaged-gin"]) == 0
    assert "# Packaged Gin (pkg-gin)" in capsys.readouterr().out
    assert cli.main(["validate", "pkg-gin"]) == 0
    capsys.readouterr()
    assert cli.main(["play", "pkg-gin", "--bots", "random", "--seed", "3", "--max-hands", "1"]) == 0
    assert "Packaged Gin" in capsys.readouterr().out


def test_a_name_clashing_with_a_built_in_one_is_refused(installed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _install(installed, "clash-games", "clash_games", {"gin.yaml": "name: gin\nextends: oklahoma-gin\n"})
    refresh_catalogue()
    with pytest.raises(RulesetError) as error:
        list_variants()
    message = str(error.value)
    assert "package 'clash-games' registers a variant named 'gin'" in message
    assert "package 'rummykit' (built in)" in message and "gin.yaml" in message
    assert cli.main(["list"]) != 0
    assert "clash-games" in capsys.readouterr().err


def test_an_alias_clashing_between_two_packages_is_refused(installed: Path) -> None:
    _install(installed, "one-games", "one_games", {"a.yaml": "name: pkg-a\naliases: [shared]\nextends: gin\n"})
    _install(installed, "two-games", "two_games", {"b.yaml": "name: pkg-b\naliases: [shared]\nextends: gin\n"})
    refresh_catalogue()
    with pytest.raises(RulesetError, match="package 'two-games' registers a variant named 'shared'.*'one-games'"):
        find_ruleset("pkg-a")
