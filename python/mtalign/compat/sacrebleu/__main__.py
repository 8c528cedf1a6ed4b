"""``python -m mtalign.compat.sacrebleu ARGS``: sacrebleu 2.6.0's command line, computed by
mtalign (see :mod:`mtalign.compat.sacrebleu.cli`).

>>> from mtalign.compat.sacrebleu.cli import main
>>> main(["-i", "hyp.txt"])  # no reference file: sacrebleu's message and exit status
1
"""

import sys

from mtalign.compat.sacrebleu.cli import main

if __name__ == "__main__":
    sys.exit(main())
