"""What every ``tcsexam`` command shares: the references option, printing, the simulated note."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

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


def say_json(data: Any, file: TextIO | None = None) -> None:
    """Print ``data`` as indented JSON that parses: within its strings every invisible or
    direction-changing character is written as a ``\\uXXXX`` escape (the same text for a
    JSON reader), and the lines between them are left as they are."""
    import json

    text = json.dumps(data, indent=2, ensure_ascii=False)
    # json.dumps escapes every control character inside a string, so "\n" only ever
    # separates lines of the layout; split there, never on other line breaks (U+2028...)
    for line in text.split("\n"):
        say(line, file)
