"""What every ``tcsexam`` command shares: options, the call into the library, notes."""

from __future__ import annotations

import argparse

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


def run_with(function, args: argparse.Namespace):
    """Call a library function with the command-line options named as its parameters."""
    code = function.__code__
    names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
    return function(**{name: value for name, value in vars(args).items() if name in names})
