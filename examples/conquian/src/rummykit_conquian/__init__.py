"""Conquian for rummykit: the ruleset (``conquian.yaml``) and its plugin (:mod:`rummykit_conquian.plugin`)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["RULESET"]

RULESET = Path(str(resources.files(__name__).joinpath("conquian.yaml")))
"""The path of the Conquian ruleset shipped with this package (``rummykit play`` takes it as a file too)."""
