# Broken: a hook name with a typo.
# command: validate --plugin {file} gin
# expect: hook-typo.py:8:1: rummykit_scor_hand: plugin 'hook-typo': rummykit_scor_hand is not a rummykit hook (did you mean 'rummykit_score_hand'?)
import rummykit


@rummykit.hookimpl
def rummykit_scor_hand(deal, kind):
    return None
