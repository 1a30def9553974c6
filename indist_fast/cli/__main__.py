"""``python -m indist_fast.cli``: the ``indist-fast`` command."""

import sys

from . import main

sys.exit(main())
