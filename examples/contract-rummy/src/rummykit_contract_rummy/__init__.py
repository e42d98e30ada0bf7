"""Contract Rummy (Shanghai) for rummykit: the ruleset ``contract-rummy.yaml`` and its plugin."""

from pathlib import Path

RULESET = Path(__file__).with_name("contract-rummy.yaml")
"""The ruleset file, for ``rummykit.load_variant(RULESET)`` where the package's variants are not registered."""

__all__ = ["RULESET"]
