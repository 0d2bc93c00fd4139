"""What every ``tcsexam`` command shares: how a command and its options are declared, the
references option, printing, the simulated note."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from ..errors import visible
from ..vocab import SIMULATED

#: Printed under every output computed from simulated (demo) inputs.
SIMULATED_NOTE = f"{SIMULATED}: these numbers are not TCSExam results"


def option(*flags: str, **settings: Any) -> tuple[tuple[str, ...], dict[str, Any]]:
    """One option of a command, as ``argparse`` takes it (see :func:`add_command`)."""
    return flags, settings


def add_command(sub: Any, name: str, text: str, handler: Any, *options: tuple) -> Any:
    """A subcommand: its help ``text``, its options (:func:`option`) and what runs it."""
    command = sub.add_parser(name, help=text)
    for flags, settings in options:
        command.add_argument(*flags, **settings)
    command.set_defaults(handler=handler)
    return command


def arguments(args: argparse.Namespace, *names: str) -> dict[str, Any]:
    """The options ``names`` of a parsed command line by name: what its library call takes."""
    return {name: getattr(args, name) for name in names}


#: The ``--references-dir`` option of every command that reads references.
REFERENCES_DIR = option(
    "--references-dir",
    metavar="DIR",
    default=None,
    help="folder of suites and references (default: $TCSEXAM_REFERENCES or the kit's own "
    "references/)",
)
#: The ``--output`` option of a command that writes one JSON file.
OUTPUT_JSON = option("--output", required=True, help="where to write the JSON result")


def say(text: str = "", file: TextIO | None = None) -> None:
    """Print a line with invisible or direction-changing characters escaped (user text)."""
    print(visible(text), file=file or sys.stdout)


def say_json(data: Any, file: TextIO | None = None) -> None:
    """Print ``data`` as indented JSON with every invisible or direction-changing character
    in its strings escaped as ``\\uXXXX`` (the same text for a JSON reader)."""
    import json

    text = json.dumps(data, indent=2, ensure_ascii=False)
    # json.dumps escapes every control character inside a string, so "\n" only ever
    # separates lines of the layout; split there, never on other line breaks (U+2028...)
    for line in text.split("\n"):
        say(line, file)
