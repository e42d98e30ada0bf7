# Broken: a rules-schema hook that raises.
# command: show gin --plugin {file}
# exit: 1
# expect: rummykit: plugin 'rules-schema-raises' failed in hook rummykit_rules_schema: TypeError: unsupported operand type(s) for +: 'dict' and 'dict'
import rummykit


@rummykit.hookimpl
def rummykit_rules_schema():
    return {"type": "object", "properties": {"bonus": {"type": "integer"}}} + {}
