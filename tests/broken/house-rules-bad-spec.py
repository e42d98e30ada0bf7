# Broken: a house rule offered without its summary and with a misspelt key.
# command: validate --plugin {file} gin
# expect: house-rules-bad-spec.py:9:1: rummykit_house_rules().knock-7.sumary: plugin 'house-rules-bad-spec': unknown key 'sumary' (did you mean 'summary'?); expected one of: summary, source, set, plugins, conflicts, variants
# expect: house-rules-bad-spec.py:9:1: rummykit_house_rules().knock-7: plugin 'house-rules-bad-spec': missing required key 'summary'
import rummykit


@rummykit.hookimpl
def rummykit_house_rules():
    return {"knock-7": {"sumary": "Knock with 7.", "set": {"rules": {"knock_limit": 7}}}}
