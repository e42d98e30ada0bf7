# Broken: a plugin importing a module that does not exist.
# command: validate --plugin {file} gin
# expect: plugin-import-error.py:5:1: (module): plugin 'plugin-import-error' cannot be imported: ModuleNotFoundError: No module named 'rummykit_turbo_engine'
import rummykit
import rummykit_turbo_engine  # noqa: F401
