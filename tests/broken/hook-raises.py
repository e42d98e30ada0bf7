# Broken: a scoring hook that raises during a game.
# command: play gin --plugin {file} --bots greedy,greedy --seed 1
# exit: 1
# expect: rummykit: plugin 'hook-raises' failed in hook rummykit_score_hand: ZeroDivisionError: integer division or modulo by zero
import rummykit


@rummykit.hookimpl
def rummykit_score_hand(deal, kind):
    return 1 // 0
