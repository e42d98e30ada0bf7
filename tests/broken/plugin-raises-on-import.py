# Broken: a plugin that raises while being imported.
# command: validate --plugin {file} gin
# expect: plugin-raises-on-import.py:5:1: (module): plugin 'plugin-raises-on-import' cannot be imported: KeyError: 'limit'
SETTINGS = {}
LIMIT = SETTINGS["limit"]
