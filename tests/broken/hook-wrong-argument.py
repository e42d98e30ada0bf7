# Broken: a hook implementation with an argument the hook does not have.
# command: validate --plugin {file} gin
# expect: hook-wrong-argument.py:8:1: rummykit_turn_ended: plugin 'hook-wrong-argument': rummykit_turn_ended(deal, seet): argument 'seet' is not among the hook's: rummykit_turn_ended(deal, seat)
import rummykit


@rummykit.hookimpl
def rummykit_turn_ended(deal, seet):
    pass
