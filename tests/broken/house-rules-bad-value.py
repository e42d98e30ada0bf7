# Broken: a house rule offered by a plugin that sets a misspelt key.
# command: validate --plugin {file} gin
# expect: house-rules-bad-value.py:8:1: rummykit_house_rules().knock-7.set.rules.knock_limt: plugin 'house-rules-bad-value': house rule 'knock-7': unknown key 'knock_limt' (did you mean 'knock_limit'?); expected one of: knock_limit, gin_only, gin_bonus, big_gin_bonus, undercut_bonus, box_bonus, game_bonus, shutout, shutout_game_bonus, next_dealer, eleven_card_start, retake_discard, last_chance, dead_hand_stock, settlement
import rummykit


@rummykit.hookimpl
def rummykit_house_rules():
    return {"knock-7": {"summary": "Knock with 7.", "variants": ["gin"], "set": {"rules": {"knock_limt": 7}}}}
