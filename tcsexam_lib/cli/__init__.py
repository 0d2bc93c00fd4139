"""The ``tcsexam`` command: a thin shell over :mod:`tcsexam_lib`.

Exit codes: docs/scoring.md. The command modules here are the only code of the kit that prints.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import traceback
from collections.abc import Sequence

from ..errors import TcsexamError
from ..gcpause import few_collections
from .references import add_reference_commands, add_verify_command
from .reports import add_demo_commands, add_report_command, add_teaching_command
from .scoring import add_scoring_commands, add_stats_command


class _VersionAction(argparse.Action):
    """``--version``: the installed version, looked up only when asked for."""

    def __init__(self, option_strings, dest, help=None):  # noqa: A002 - argparse's name
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from ..provenance import kit_version

        parser.exit(message=f"tcsexam {kit_version()}\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``tcsexam`` command."""
    parser = argparse.ArgumentParser(
        prog="tcsexam",
        description="Score AI models on TCSExam (solver relative scores and the "
        "weighted TCSExam index).",
    )
    parser.add_argument("--version", action=_VersionAction, help="show the kit's version and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_report_command(sub)
    add_teaching_command(sub)
    add_reference_commands(sub)
    add_verify_command(sub)
    add_demo_commands(sub)
    add_stats_command(sub)

    add_scoring_commands(sub)
    return parser


#: Cycle collection thresholds while a command runs: it builds a few hundred thousand small
#: objects (rows, issues, output nodes) that all live until it ends, which the default
#: thresholds would walk again and again (a quarter of ``tcsexam score`` on 60,000 rows).
_THRESHOLDS = (200_000, 50, 100)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tcsexam`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    previous = _stop_on_sigterm()
    try:
        with few_collections(_THRESHOLDS):
            return args.handler(args)
    except KeyboardInterrupt:
        # Ctrl-C (or SIGTERM): the library has already stopped its workers and removed
        # its unfinished files; one line, no traceback.
        signum = getattr(_stop_on_sigterm, "received", signal.SIGINT)
        print(
            f"tcsexam {args.command}: interrupted ({signal.Signals(signum).name}); "
            "nothing unfinished was published",
            file=sys.stderr,
        )
        return 128 + int(signum)
    except BrokenPipeError:
        # the reader of stdout went away (`| head -1`): stop as a closed pipe stops a
        # command, without a word; stdout goes to /dev/null so that its flush at exit is quiet
        with contextlib.suppress(OSError, ValueError):  # a stdout without a file descriptor
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + int(signal.SIGPIPE)
    except TcsexamError as exc:
        label = "refused" if exc.exit_code == 2 else "error"
        print(f"tcsexam {args.command}: {label}: {exc}", file=sys.stderr)
        if exc.exit_code == 2:
            print("Nothing was written.", file=sys.stderr)
        return exc.exit_code
    except Exception:  # noqa: BLE001 - the command line reports any crash as exit 1
        print(f"tcsexam {args.command}: unexpected failure (please report it):", file=sys.stderr)
        traceback.print_exc()
        return 1
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _stop_on_sigterm():
    """Turn SIGTERM into the same prompt stop as Ctrl-C (in the main thread only)."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None

    def handler(signum, _frame):
        _stop_on_sigterm.received = signum
        raise KeyboardInterrupt

    _stop_on_sigterm.received = signal.SIGINT
    return signal.signal(signal.SIGTERM, handler)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
