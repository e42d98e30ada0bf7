"""The project stands alone: nothing a user reads points to a document or issue the user cannot open.

The rules documents the project was built from, its internal rules notes and its issue tracker are not
shipped. So README.md, every page under docs/, the rulesets in variants/, and the code and messages in
rummykit/ and plugins/ must not cite them: no ``shared/`` path, no ``seeds/`` folder, no rules document by
number (``seed 000``, ``seeds 000``), no ``issue 15``. A game's rules and the decisions taken where the
published rules are silent live in the docs (each game's page, "Rules decisions"); each ruleset's
``source`` names that page and section, and the section must exist.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
TEXT_SUFFIXES = {".md", ".py", ".yaml", ".yml", ".json", ".js", ".html", ".css", ".txt", ".toml", ".pyi", ".tmpl"}
OUTSIDE = re.compile(
    r"shared/"  # ../shared/seeds, shared/rules/README.md
    r"|seeds/"  # the rules documents' folder
    r"|\bseeds? 0\d\d\b"  # a rules document by number: "seed 000", "seeds 000, 001"
    r"|\bissue[ -]?#?\d+",  # the issue tracker: "issue 15", "issue-15", "issue #6"
    re.IGNORECASE,
)


def scanned_files() -> list[Path]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    for folder in ("variants", "rummykit", "plugins"):
        files += sorted(
            path
            for path in (ROOT / folder).rglob("*")
            if path.is_file() and path.suffix in TEXT_SUFFIXES and "__pycache__" not in path.parts
        )
    return files


def outside_references() -> list[str]:
    hits = []
    for path in scanned_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            for match in OUTSIDE.finditer(line):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {match.group(0)!r} in {line.strip()[:140]}")
    return hits


def test_the_pattern_catches_what_it_should_and_nothing_else() -> None:
    for text in ("../shared/seeds/", "Seed 000", "seeds 000 (Gin section)", "issue 15", "Issue-15", "issue #6"):
        assert OUTSIDE.search(text), text
    for text in ("seed 1", "--seed 7", "the seed's moves", "2 cores, shared)", "an issue with", "1,000 hands"):
        assert not OUTSIDE.search(text), text


def test_nothing_points_outside_the_project() -> None:
    hits = outside_references()
    assert not hits, f"{len(hits)} references to documents or issues users cannot open:\n" + "\n".join(hits)


def heading_texts(page: Path) -> set[str]:
    return {line.lstrip("#").strip() for line in page.read_text(encoding="utf-8").splitlines() if line.startswith("#")}


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


@pytest.mark.parametrize("ruleset", sorted((ROOT / "variants").glob("*.yaml")), ids=lambda path: path.name)
def test_each_rulesets_source_names_a_rules_decisions_section_that_exists(ruleset: Path) -> None:
    source = yaml.safe_load(ruleset.read_text(encoding="utf-8"))["source"]
    match = re.fullmatch(r'(?P<page>docs/[\w.-]+\.md), section "(?P<section>[^"]+)"', source)
    assert match, f"{ruleset.name}: source {source!r} names no docs page and section"
    page = ROOT / match["page"]
    assert page.is_file(), f"{ruleset.name}: {match['page']} does not exist"
    assert match["section"] in heading_texts(page), f"{ruleset.name}: no heading {match['section']!r} in {page.name}"
    assert match["section"].startswith("Rules decisions"), source


def test_links_to_rules_decisions_sections_resolve() -> None:
    link = re.compile(r"\]\((?P<page>[\w.-]*\.md)?#(?P<anchor>rules-decisions[\w-]*)\)")
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    broken = []
    for page in pages:
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            for found in link.finditer(line):
                target = page.parent / found["page"] if found["page"] else page
                anchors = {slug(text) for text in heading_texts(target)} if target.is_file() else set()
                if found["anchor"] not in anchors:
                    broken.append(f"{page.relative_to(ROOT)}:{number}: {found.group(0)}")
    assert not broken, "links to missing sections:\n" + "\n".join(broken)
