"""``python -m rummykit``: the ``rummykit`` command, for an environment whose scripts are not on the PATH."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
