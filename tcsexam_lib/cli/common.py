"""What every ``tcsexam`` command shares: the references option, printing, the simulated note."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from ..errors import visible

#: Printed under every output computed from simulated (demo) inputs.
SIMULATED_NOTE = "SIMULATED demo data: these numbers are not TCSExam results"


def add_references_dir(parser: argparse.ArgumentParser) -> None:
    """The ``--references-dir`` option of every command that reads references."""
    parser.add_argument(
        "--references-dir",
        metavar="DIR",
        default=None,
        help="folder of suites and references (default: $TCSEXAM_REFERENCES or the kit's own "
        "references/)",
    )


def say(text: str = "", file: TextIO | None = None) -> None:
    """Print a line, every invisible or direction-changing character shown escaped (ids and
    notes come from the user's files)."""
    print(visible(text), file=file or sys.stdout)
