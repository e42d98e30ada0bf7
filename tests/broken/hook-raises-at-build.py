# Broken: a meld-rules hook that raises when the game is built.
# command: simulate gin --plugin {file} --games 1
# exit: 1
# expect: rummykit: plugin 'hook-raises-at-build' failed in hook rummykit_meld_rules: RuntimeError: no melds today
import rummykit


@rummykit.hookimpl
def rummykit_meld_rules(variant, rules):
    raise RuntimeError("no melds today")
