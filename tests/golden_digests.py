"""Golden digests: the sha256 of every file the demo publishes, under a fixed build date.

``make report`` under ``SOURCE_DATE_EPOCH`` = :data:`EPOCH` publishes the SIMULATED demo
(pages, JSON outputs, executed notebooks, the filled attempts tables, the shared
assets; not the kernel logs, :data:`NOT_DIGESTED`) with the same bytes on any machine
with the locked environment and the same Python. :data:`DIGESTS`
(``tests/golden/demo-digests.json``) holds their sha256 and the environment they were
made in; ``make golden`` rebuilds the demo and rewrites it
(after an intended change of a page, a stat or a locked version). The quick-start test
(tests/test_quick_start.py) compares a fresh clone's ``make report`` with it
(:func:`compare_with_golden`), naming every file whose bytes changed and, when the
environment is not the one the digests were made in, how it differs.

The digests hold for the Python and platform they were made with (every output records
them): where the interpreter or platform differs, :func:`interpreter_differences` says
so and the bytes are not compared; any other difference fails.

Run as a script: ``python tests/golden_digests.py [--check | --compare] [FOLDER]``
(``make golden`` rewrites the digests; ``--check`` rebuilds the demo and compares;
``--compare`` compares a folder already published, exit 0 the same bytes, 1 different,
3 not comparable here).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

KIT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(KIT))  # run as a script from any folder

from tcsexam_lib.environment import (  # noqa: E402
    LOCK_FILE,
    describe_environment,
    environment_differences,
    lock_differences,
)

#: The build date of the golden digests (2025-12-02T00:00:00Z), as SOURCE_DATE_EPOCH.
EPOCH = "1764633600"
DIGESTS = KIT / "tests" / "golden" / "demo-digests.json"
#: The command that publishes the demo (the README's `make report`), run by `make golden`.
REPORT = ["report", "-j", "2"]
#: How many differing files a comparison names before it counts the rest.
SHOWN = 40
HOW_TO_REFRESH = (
    "after an intended change (a page, a statistic, a locked version), run `make golden` "
    "and commit tests/golden/demo-digests.json"
)


#: Published files that are not digested, and why: each run set's kernel log records how
#: this machine ran the kernels (a kernel it had to stop by force when it was overloaded),
#: not what the kit computed; the smoke tier checks that a normal run's log holds its
#: header alone (tests/test_report_smoke.py).
NOT_DIGESTED = ("report-kernels.log",)
#: The report runner's store of pages (hidden; not published: see docs/reports.md).
NOT_PUBLISHED = ".tcsexam-store"


def digest_folder(folder: Path) -> dict[str, str]:
    """The sha256 of every file under ``folder`` (but :data:`NOT_DIGESTED` and the store),
    by its POSIX path relative to it."""
    return {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
        and path.name not in NOT_DIGESTED
        and NOT_PUBLISHED not in path.relative_to(folder).parts
    }


def demo_params(kit: Path = KIT) -> list[str]:
    """The run-set parameter files `make report` publishes (params/demo-*.yaml)."""
    return sorted(p.relative_to(kit).as_posix() for p in (kit / "params").glob("demo-*.yaml"))


def build_demo(output: Path, kit: Path = KIT) -> None:
    """Publish the demo into ``output`` (emptied first) as `make report` does, under EPOCH."""
    shutil.rmtree(output, ignore_errors=True)
    tcsexam = Path(sys.executable).parent / "tcsexam"
    env = dict(os.environ, SOURCE_DATE_EPOCH=EPOCH)
    command = [str(tcsexam), *REPORT, *demo_params(kit), "--output", str(output)]
    subprocess.run(command, cwd=kit, env=env, check=True)


def golden_record(folder: Path) -> dict:
    """The digests file's content for a published demo in ``folder``."""
    return {
        "description": "sha256 of every file `make report` publishes (SIMULATED demo data) "
        f"under SOURCE_DATE_EPOCH={EPOCH}, and the environment they were made in; "
        "rewritten by `make golden` (tests/golden_digests.py)",
        "source_date_epoch": EPOCH,
        "environment": describe_environment("report"),
        "files": digest_folder(folder),
    }


def interpreter_differences(golden: dict) -> list[str]:
    """How this interpreter and platform differ from those the digests were made with."""
    current = describe_environment("report")
    recorded = golden["environment"]
    return [
        f"{what}: digests made with {recorded.get(what)}, this is {current[what]}"
        for what in ("implementation", "python", "platform")
        if recorded.get(what) != current[what]
    ]


def compare_with_golden(folder: Path, golden: dict | None = None) -> list[str]:
    """What differs between a published demo in ``folder`` and the golden digests: every
    file whose bytes changed, that is missing or new; and, when anything does, how the
    environment differs from the digests' and from the lock. Empty: the same bytes."""
    golden = golden if golden is not None else json.loads(DIGESTS.read_text(encoding="utf-8"))
    mine = digest_folder(folder)
    wanted = golden["files"]
    problems = [f"changed: {name}" for name in sorted(wanted) if name in mine and
                mine[name] != wanted[name]]  # fmt: skip
    problems += [f"missing: {name}" for name in sorted(set(wanted) - set(mine))]
    problems += [f"new: {name}" for name in sorted(set(mine) - set(wanted))]
    if not problems:
        return []
    if len(problems) > SHOWN:
        problems = [*problems[:SHOWN], f"... and {len(problems) - SHOWN} more file(s)"]
    current = describe_environment("report")
    found = environment_differences(golden["environment"], current)
    if found:
        problems.append(
            "the environment differs from the one the digests were made in: "
            + "; ".join(str(d) for d in found)
        )
    against_lock = lock_differences(KIT / LOCK_FILE)
    if against_lock:
        problems.append(
            f"the installed packages are not the locked ones ({LOCK_FILE} = recorded): "
            + "; ".join(str(d) for d in against_lock)
        )
    problems.append(HOW_TO_REFRESH)
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", nargs="?", default="build/golden", type=Path,
                        help="where the demo is published (emptied first)")  # fmt: skip
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--check", action="store_true",
                     help="rebuild, then compare with the committed digests")  # fmt: skip
    how.add_argument("--compare", action="store_true",
                     help="compare FOLDER, already published, with the digests")  # fmt: skip
    args = parser.parse_args(argv)
    folder = args.folder if args.folder.is_absolute() else Path.cwd() / args.folder
    if args.compare or args.check:
        golden = json.loads(DIGESTS.read_text(encoding="utf-8"))
        other = interpreter_differences(golden)
        if other:
            print("not compared: the digests hold for another interpreter or platform ("
                  + "; ".join(other) + ")")  # fmt: skip
            return 3
    if not args.compare:
        build_demo(folder)
    if args.check or args.compare:
        problems = compare_with_golden(folder)
        print("\n".join(problems) or f"the same bytes as {DIGESTS.relative_to(KIT)}")
        return 1 if problems else 0
    record = golden_record(folder)
    DIGESTS.parent.mkdir(parents=True, exist_ok=True)
    DIGESTS.write_text(json.dumps(record, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    print(f"wrote {DIGESTS.relative_to(KIT)}: {len(record['files'])} files")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
