# Broken: a plugin that is not valid Python.
# command: validate --plugin {file} gin
# expect: plugin-syntax-error.py:6:39: (module): plugin 'plugin-syntax-error' cannot be imported: SyntaxError: expected ':'
import rummykit

def rummykit_observe(deal, seat, view)
    pass
