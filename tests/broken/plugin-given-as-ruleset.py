# Broken: a plugin given where a ruleset is expected (read as YAML, its first line would be the problem told).
# command: validate {file}
# expect: plugin-given-as-ruleset.py: a Python file is a plugin, not a ruleset: give it with --plugin after a variant (gin --plugin plugin-given-as-ruleset.py)
import rummykit


@rummykit.hookimpl
def rummykit_turn_ended(deal, seat):
    pass
