"""``python -m mtalign``: the ``mtalign`` command."""

import sys

from mtalign.cli import main

sys.exit(main())
