# Broken: selecting a house rule the plugin does not offer.
# command: play gin --plugin {file} --house-rule knock-8 --bots greedy,greedy
# exit: 2
# expect: rummykit: house rule 'knock-8': gin has no house rule 'knock-8' (did you mean 'knock-7'?); it accepts: alternate-deal, big-gin, eleven-card-start, fiftieth-card, gin-only, gra-retake, knock-7, last-chance, modern, norwegian, shutout-double, target-150, target-200, target-300, undercut-20, winner-deals
import rummykit


@rummykit.hookimpl
def rummykit_house_rules():
    return {"knock-7": {"summary": "Knock with 7.", "variants": ["gin"], "set": {"rules": {"knock_limit": 7}}}}
