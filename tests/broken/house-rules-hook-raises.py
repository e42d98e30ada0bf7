# Broken: a house-rules hook that raises.
# command: validate --plugin {file} gin
# expect: house-rules-hook-raises.py:9:1: rummykit_house_rules: plugin 'house-rules-hook-raises' failed in hook rummykit_house_rules: NameError: name 'SEVEN' is not defined
import rummykit


@rummykit.hookimpl
def rummykit_house_rules():
    return {"knock-7": {"summary": "Knock with 7.", "set": {"rules": {"knock_limit": SEVEN}}}}
