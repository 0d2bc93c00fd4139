"""``python -m tcsexam_lib.cli``: the ``tcsexam`` command."""

import sys

from . import main

sys.exit(main())
