# Broken: a wrapper that never yields.
# command: validate --plugin {file} gin
# expect: hook-wrapper-without-yield.py:8:1: rummykit_score_hand: plugin 'hook-wrapper-without-yield': rummykit_score_hand is marked wrapper=True, so it must 'yield' once to get the game's result
import rummykit


@rummykit.hookimpl(wrapper=True)
def rummykit_score_hand(deal, kind):
    return None
