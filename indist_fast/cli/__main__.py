"""``python -m indist_fast.cli``: the ``indist-fast`` command."""

import sys

from . import main

if __name__ == "__main__":       # (importing the module, as doctest collectors do, runs nothing)
    sys.exit(main())
