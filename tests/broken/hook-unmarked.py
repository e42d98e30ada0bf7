# Broken: a hook implementation without @rummykit.hookimpl.
# command: validate --plugin {file} gin
# expect: hook-unmarked.py:4:1: rummykit_observe: plugin 'hook-unmarked': rummykit_observe is not marked @rummykit.hookimpl, so it would never be called
def rummykit_observe(deal, seat, view):
    view["hello"] = True
