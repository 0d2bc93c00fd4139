"""A living leaderboard at scale: publishing only what changed, against publishing everything.

Run with ``make bench-incremental`` (part of ``make bench``) or ``python
benchmarks/bench_incremental.py [--models 200] [--baseline CHECKOUT]``. On the SIMULATED
many-model run set (``tcsexam demo generate --models N``, every notebook: the cohort report
and each model's three pages), ``-j 2``, each publication a day after the one before
(``SOURCE_DATE_EPOCH``, as a date taken from the last commit moves), it times the whole
``tcsexam report`` command:

1. from scratch with the kit of ``--baseline`` (a checkout from before incremental
   publication, with its own ``.venv``), then from scratch with this kit, side by side;
   and from scratch with this kit's kernels forked warm against kernels started cold
   (``TCSEXAM_KERNEL_SERVER=off``), ``--cold-pairs`` pairs in alternating order (goal:
   forked at most 0.4x of cold; ``--scratch-only`` stops there);
2. adding one model (the generator's model N+1, its rows appended to the table);
3. changing one attempt of one model (a theorem of the middle model, failed <-> proved);
4. nothing changed but the date: then no published file may be rewritten (every file's
   inode and modification time kept).

Each incremental time is printed as a ratio of this kit's from-scratch time, with its
goal (5 %, 5 %, 2 %), and from scratch against the baseline (goal 1.05x). Cases 2 and 3
are also published with ``--force`` from the same previous state, at the same place and
date, and every published file compared byte for byte, history included. Nothing is
asserted: the figures are printed with PASS or MISS. A 200-model publication from scratch
took about 10 minutes on two idle cores with kernels started cold; the whole benchmark
(five from scratch: the baseline, this kit forked and cold, and the two forced ones)
about an hour.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KIT = Path(__file__).resolve().parent.parent
#: The build date of the first publication of the benchmark (each next one: a day later).
EPOCH = "1764633600"
DAY = 86400
STORE = ".tcsexam-store"
GOALS = {"add": 0.05, "change": 0.05, "nothing": 0.02, "scratch": 1.05, "forked": 0.4}


def _tcsexam(kit: Path) -> str:
    return str(kit / ".venv" / "bin" / "tcsexam")


def _report(
    kit: Path, params: Path, output: Path, *extra: str, day: int = 0, cold: bool = False
) -> tuple[float, str]:
    """Run ``tcsexam report`` of ``kit`` on the ``day``-th day (``cold``: its kernels
    started cold, not forked by its kernel server); its wall time and last line."""
    env = {**os.environ, "SOURCE_DATE_EPOCH": str(int(EPOCH) + DAY * day),
           "TCSEXAM_KERNEL_SERVER": "off" if cold else "on"}  # fmt: skip
    command = [_tcsexam(kit), "report", str(params), "-j", "2", "--output", str(output), *extra]
    started = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    lines = done.stdout.strip().splitlines()
    return seconds, lines[-1] if lines else ""


def _published(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and STORE not in p.relative_to(folder).parts
    }


def _stamps(folder: Path) -> dict[str, tuple[int, int]]:
    return {
        p.relative_to(folder).as_posix(): (p.stat().st_ino, p.stat().st_mtime_ns)
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _generate(count: int, root: Path) -> Path:
    subprocess.run([_tcsexam(KIT), "demo", "generate", "--models", str(count), "--root",
                    str(root)], check=True, capture_output=True)  # fmt: skip
    params = root / f"demo-models-{count}.yaml"
    text = params.read_text(encoding="utf-8").replace(
        "notebooks: [cohort]", "notebooks: [cohort, index, solver_scoring, diagnostics]"
    )
    params.write_text(text, encoding="utf-8")
    return params


def _add_model(run_set: Path, bigger: Path, model: str) -> None:
    """The generator's next model joins: its cohort entry, its rows (appended), its records."""
    for name in ("cohort.json", "attempts.csv"):
        shutil.copyfile(bigger / name, run_set / name)
    shutil.copytree(bigger / "records" / model, run_set / "records" / model)


def _change_attempt(run_set: Path, model: str) -> str:
    """One theorem attempt of ``model``: failed <-> proved (in place: no line moves)."""
    table = run_set / "attempts.csv"
    lines = table.read_text(encoding="utf-8").splitlines()
    at = next(k for k, line in enumerate(lines) if line.startswith(f"{model},theorem,")
              and ",selected,valid," in line)  # fmt: skip
    fields = lines[at].split(",")
    old, fields[4] = fields[4], "1" if fields[4] == "0" else "0"
    lines[at] = ",".join(fields)
    table.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return f"{model} {fields[2]} attempt {fields[3]}: {old} -> {fields[4]}"


def _same_as_forced(params: Path, out: Path, before: Path, scratch: Path, day: int) -> str:
    """Publish with --force from the state kept in ``before``, at ``out``'s place, and
    compare with what is at ``out`` now; leave ``out`` as it was."""
    reused = scratch / "reused"
    out.rename(reused)
    shutil.copytree(before, out, symlinks=True)
    seconds, _ = _report(KIT, params, out, "--force", day=day)
    mine, theirs = _published(reused), _published(out)
    differing = sorted(set(mine) ^ set(theirs)) + [
        name for name in sorted(set(mine) & set(theirs)) if mine[name] != theirs[name]
    ]
    shutil.rmtree(out)
    reused.rename(out)
    if differing:
        return f"MISS: {len(differing)} of {len(mine)} files differ, e.g. {differing[:3]}"
    return f"PASS: all {len(mine)} published files byte-identical (--force took {seconds:.0f} s)"


def _goal(ratio: float, goal: float) -> str:
    return "PASS" if ratio <= goal else "MISS"


def _forked_vs_cold(params: Path, out: Path, pairs: int) -> tuple[float, str, list[str]]:
    """From scratch, kernels forked and cold, ``pairs`` pairs in alternating order (forked
    first, then cold first, ...); the first forked publication is left at ``out``.
    Returns the forked median, the last line said, and the figures' lines."""
    times: dict[str, list[float]] = {"forked": [], "cold": []}
    said = ""
    for turn in range(pairs):
        for name in ("forked", "cold") if turn % 2 == 0 else ("cold", "forked"):
            where = out if name == "forked" and not times["forked"] else out.with_name(name)
            seconds, last = _report(KIT, params, where, cold=name == "cold")
            times[name].append(seconds)
            said = said or last
            if where != out:
                shutil.rmtree(where)
    medians = {name: statistics.median(values) for name, values in times.items()}
    ratios = [f / c for f, c in zip(times["forked"], times["cold"], strict=True)]
    ratio = statistics.median(ratios)
    lines = [
        f"  from scratch, kernels {name} (median of {pairs}): {medians[name]:.1f} s "
        f"({', '.join(f'{v:.1f}' for v in values)})"
        for name, values in times.items()
    ]
    lines.append(f"  from scratch, forked vs cold (TCSEXAM_KERNEL_SERVER=off), median of the "
                 f"paired ratios: {ratio:.3f}x ({', '.join(f'{r:.3f}' for r in ratios)}; goal: "
                 f"{GOALS['forked']}x or less) {_goal(ratio, GOALS['forked'])}")  # fmt: skip
    return medians["forked"], said, lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", type=int, default=200, help="models (default 200)")
    parser.add_argument("--baseline", type=Path, default=None, metavar="CHECKOUT",
                        help="a checkout of the kit before incremental publication, with its "
                        "own .venv (default: $TCSEXAM_BASELINE; none: not timed)")  # fmt: skip
    parser.add_argument("--no-force", action="store_true",
                        help="skip the --force publications (no byte comparison)")  # fmt: skip
    parser.add_argument("--cold-pairs", type=int, default=1,
                        help="from-scratch pairs, kernels forked and cold (default 1)")  # fmt: skip
    parser.add_argument("--scratch-only", action="store_true",
                        help="stop after from scratch (no incremental case)")  # fmt: skip
    args = parser.parse_args()
    baseline = args.baseline or (Path(os.environ["TCSEXAM_BASELINE"]) if os.environ.get(
        "TCSEXAM_BASELINE") else None)  # fmt: skip
    count = args.models
    started = time.monotonic()
    with tempfile.TemporaryDirectory(
        dir=KIT / "build" if (KIT / "build").is_dir() else None
    ) as tmp:
        root = Path(tmp)
        params = _generate(count, root / "set")
        _generate(count + 1, root / "bigger")  # the same models, and one more
        run_set = root / "set" / "demo-full-offline"
        out = root / "out"
        times: dict[str, float] = {}
        if baseline is not None:
            times["baseline"], _ = _report(baseline, params, root / "baseline-out")
            shutil.rmtree(root / "baseline-out")
        times["scratch"], said, forked = _forked_vs_cold(params, out, args.cold_pairs)
        print(f"living leaderboard: SIMULATED {count}-model run set, every notebook, -j 2 "
              f"({said.split(', in ')[0].removeprefix('report: ')})")  # fmt: skip
        print("\n".join(forked))
        if args.scratch_only:
            return 0
        results = {}
        for day, case in enumerate(("add", "change"), 1):
            before = root / "before"
            shutil.copytree(out, before, symlinks=True)
            if case == "add":
                bigger = root / "bigger" / "demo-full-offline"
                _add_model(run_set, bigger, f"sim-m{count + 1:03d}")
                what = f"sim-m{count + 1:03d} added"
            else:
                what = _change_attempt(run_set, f"sim-m{count // 2:03d}")
            times[case], said = _report(KIT, params, out, day=day)
            results[case] = (what, said.split(", in ")[0].removeprefix("report: "))
            if not args.no_force:
                results[case] += (_same_as_forced(params, out, before, root, day),)
            shutil.rmtree(before)
        stamps = _stamps(out)
        times["nothing"], said = _report(KIT, params, out, day=3)
        kept = _stamps(out) == stamps
        results["nothing"] = ("SOURCE_DATE_EPOCH a day later", said.removeprefix("report: "))
    scratch = times["scratch"]
    print(f"  from scratch: {scratch:.1f} s")
    if "baseline" in times:
        ratio = scratch / times["baseline"]
        print(f"  from scratch vs the kit before incremental publication ({times['baseline']:.1f}"
              f" s): {ratio:.3f}x (goal: {GOALS['scratch']}x or less) "
              f"{_goal(ratio, GOALS['scratch'])}")  # fmt: skip
    else:
        print("  (no baseline checkout given: --baseline or TCSEXAM_BASELINE)")
    for case, label in (("add", "adding one model"), ("change", "changing one attempt"),
                        ("nothing", "nothing changed but the date")):  # fmt: skip
        ratio = times[case] / scratch
        what, said, *same = results[case]
        print(
            f"  {label} ({what}): {times[case]:.1f} s, {ratio:.2%} of from scratch "
            f"(goal: {GOALS[case]:.0%} or less) {_goal(ratio, GOALS[case])}; {said}"
        )
        if same:
            print(f"    byte-identical to --force from the same previous state: {same[0]}")
    print(f"    no published file rewritten (inode and mtime of every file kept): "
          f"{'PASS' if kept else 'MISS'}")  # fmt: skip
    print(f"  ({time.monotonic() - started:.0f} s in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
