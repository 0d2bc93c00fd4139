"""The README's shell commands, and the manual's quick-start blocks, on a fresh copy of the kit.

Smoke tier (``make test-smoke``): slow, it makes a real ``.venv``.

The commands are read from the pages themselves: every ``sh`` block of ``README.md``, and
each block of ``docs/`` preceded by the marker :data:`MARKER` (an HTML comment, invisible on
the rendered page). They run **as written and in the order shown** in a fresh copy of the
checkout (the files git tracks or would track: no ``.venv``, no ``build/``): the README's
first (``make report``) creates the environment there, as on a fresh clone. Each docs
block then runs on that copy with ``build/`` removed again (a reader may run it first,
after any ``make`` target); the commands of one block share one shell (``. .venv/bin/
activate`` holds for the commands after it), as a reader types them in one terminal.

The README's commands run under the golden digests' ``SOURCE_DATE_EPOCH``: the fresh
``.venv`` must be installed from the lock (``requirements.lock``, hash-checked; every
package at its locked version), and ``make report`` must publish the demo with the bytes
of ``tests/golden/demo-digests.json`` (see tests/golden_digests.py: every file whose bytes
changed is named, with how the environment differs; on another Python or platform than
the digests', the bytes are not compared, and a warning says so).

Two commands are not run as a plain shell command, each for a reason kept in
:data:`NOT_PLAIN`: ``make test`` (it is the command that runs this test; ``.ci/run`` runs it
on a clean clone) and ``make lab`` (a server that runs until stopped: it is started, must
serve the teaching notebook, and is stopped with every process it started).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
import warnings
from pathlib import Path

import golden_digests
import pytest
from conftest import isolate_jupyter_state

from tcsexam_lib.paths import KIT_ROOT

pytestmark = pytest.mark.smoke

#: Marks a block of docs/ that runs on a fresh clone (put on the line before its fence).
MARKER = "<!-- quick start: runs on a fresh clone (tests/test_quick_start.py) -->"
#: Marks the blocks of docs/own-results.md: they run on a fresh clone too, once a seeded
#: generator (tests/owndata.py) has written the files they name into my-work/.
OWN_MARKER = "<!-- own results: runs on generated data (tests/test_quick_start.py) -->"
#: Commands run otherwise than as written, and why.
NOT_PLAIN = {
    "make test": "not run here: it is the command that runs this test (.ci/run runs it)",
    "make lab": "started, checked to serve the teaching notebook, then stopped",
}
TIMEOUT_S = 1800

_FENCE = re.compile(r"^```sh\n(.*?)^```", re.M | re.S)


def blocks(page: Path, marked_only: bool, marker: str = MARKER) -> list[list[str]]:
    """The ``sh`` blocks of a page (those after ``marker``), each a list of commands.

    A command is a line with its continuation lines (ending in ``\\``) joined; comment
    lines and blank lines are not commands (a trailing comment stays: bash ignores it).
    """
    text = page.read_text(encoding="utf-8")
    found = []
    for match in _FENCE.finditer(text):
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        if marked_only and before.strip() != marker:
            continue
        commands, current = [], ""
        for line in match.group(1).splitlines():
            if not current and (not line.strip() or line.lstrip().startswith("#")):
                continue
            current = f"{current}\n{line}" if current else line
            if not line.endswith("\\"):
                commands.append(current)
                current = ""
        found.append(commands)
    return found


def _plain_key(command: str) -> str | None:
    words = command.split("#", 1)[0].split()
    key = " ".join(words[:2])
    return key if key in NOT_PLAIN else None


def test_commands_are_read_as_a_reader_types_them(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "```sh\n# a note\nmake a   # why\n\nb \\\n  c\n```\n\n"
        f"{MARKER}\n```sh\nd\n```\n```text\nnot a command\n```\n"
    )
    assert blocks(page, marked_only=False) == [["make a   # why", "b \\\n  c"], ["d"]]
    assert blocks(page, marked_only=True) == [["d"]]
    assert _plain_key("make lab   # JupyterLab") == "make lab" and _plain_key("make report") is None


def test_the_readme_and_the_marked_blocks_hold_the_commands_we_expect():
    """The extraction finds them (it does not pass by finding nothing)."""
    readme = [c for block in blocks(KIT_ROOT / "README.md", False) for c in block]
    assert [c.split()[:2] for c in readme[:3]] == [["make", "report"], ["make", "test"],
                                                   ["make", "lab"]]  # fmt: skip
    assert any(c.startswith("tcsexam score") for c in readme)
    marked = {p.name: blocks(p, True) for p in sorted((KIT_ROOT / "docs").glob("*.md"))}
    assert any("papermill notebooks/index.ipynb" in c for b in marked["reports.md"] for c in b)
    assert sum(len(b) for b in marked.values()) >= 3
    ci = (KIT_ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^TCSEXAM_REQUIRE_BROWSER=1 make test$", ci, re.M)  # CI runs make test


def _fresh_copy(target: Path) -> None:
    """The checkout's files as a fresh clone would hold them (untracked new files too)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=KIT_ROOT, capture_output=True, check=True,
    ).stdout.decode().split("\0")  # fmt: skip
    for name in filter(None, listed):
        source = KIT_ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def _environment(home: Path) -> dict[str, str]:
    """The caller's environment without the kit's own virtual environment or make state."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("VIRTUAL_ENV", "MAKEFLAGS", "MAKELEVEL", "MFLAGS", "TCSEXAM_REFERENCES",
                        "JPY_SESSION_NAME", "PYTHONPATH")}  # fmt: skip
    kit_bin = str(Path(sys.prefix) / "bin")
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != kit_bin)
    isolate_jupyter_state(env, home)
    env["BROWSER"] = "true"  # make lab would open a browser: here, none
    env["SOURCE_DATE_EPOCH"] = golden_digests.EPOCH  # the golden digests' build date
    return env


def _run_shell(commands: list[str], cwd: Path, env: dict[str, str], log: list[str]) -> None:
    script = "set -e\n" + "\n".join(commands) + "\n"
    done = subprocess.run(
        ["bash", "-c", script], cwd=cwd, env=env, capture_output=True, text=True,
        timeout=TIMEOUT_S,
    )  # fmt: skip
    log.append(f"$ {script}{done.stdout[-3000:]}{done.stderr[-3000:]}")
    assert done.returncode == 0, "\n".join(log[-1:])


def _run_lab(command: str, cwd: Path, env: dict[str, str], log: list[str]) -> None:
    """``make lab`` as written: it must serve the teaching notebook; then it is stopped."""
    runtime = Path(env["JUPYTER_RUNTIME_DIR"])
    out = cwd.parent / "make-lab.log"
    with out.open("wb") as sink:
        process = subprocess.Popen(
            ["bash", "-c", command], cwd=cwd, env=env, stdout=sink, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 300
        served = None
        while served is None:
            assert process.poll() is None, out.read_text()
            assert time.monotonic() < deadline, out.read_text()
            for info in runtime.glob("jpserver-*.json"):
                import json

                server = json.loads(info.read_text())
                url = f"{server['url'].rstrip('/')}/lab/tree/notebooks/teaching.ipynb"
                try:
                    with urllib.request.urlopen(f"{url}?token={server['token']}", timeout=10) as r:
                        served = r.status, server
                except OSError:
                    pass
            time.sleep(0.5)
        status, server = served
        assert status == 200 and Path(server["root_dir"]) == cwd
        log.append(f"$ {command}\n(served {server['url']}, then stopped)")
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
    text = out.read_text(errors="replace")
    assert "/lab/tree/notebooks/teaching.ipynb?token=" in text


def _run_page(
    page: Path,
    marked_only: bool,
    cwd: Path,
    env: dict[str, str],
    log: list[str],
    marker: str = MARKER,
):
    for block in blocks(page, marked_only, marker):
        plain: list[str] = []
        for command in block:
            key = _plain_key(command)
            if key is None:
                plain.append(command)
                continue
            if plain:
                _run_shell(plain, cwd, env, log)
                plain = []
            if key == "make lab":
                _run_lab(command, cwd, env, log)
            else:
                log.append(f"$ {command}\n({NOT_PLAIN[key]})")
        if plain:
            _run_shell(plain, cwd, env, log)


def _clone_python(clone: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(clone / ".venv" / "bin" / "python"), *args], cwd=clone, env=env,
        capture_output=True, text=True, timeout=TIMEOUT_S,
    )  # fmt: skip


def _check_installed_from_the_lock(clone: Path, env: dict[str, str]) -> None:
    """The fresh .venv holds the lock's versions, and records the lock's sha256."""
    script = (
        "from tcsexam_lib.environment import installed_lock_sha256, lock_differences\n"
        "from tcsexam_lib.digests import sha256_file\n"
        "assert installed_lock_sha256() == sha256_file('requirements.lock'), 'lock not recorded'\n"
        "print('\\n'.join(str(d) for d in lock_differences('requirements.lock')))"
    )
    done = _clone_python(clone, env, "-c", script)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "", f"not the locked versions: {done.stdout}"


def _check_golden_digests(clone: Path, env: dict[str, str]) -> None:
    """``make report`` published the demo with the golden digests' bytes."""
    done = _clone_python(clone, env, "tests/golden_digests.py", "--compare", "build/reports")
    if done.returncode == 3:  # another interpreter or platform than the digests'
        warnings.warn(done.stdout.strip(), stacklevel=2)
        return
    assert done.returncode == 0, (
        f"make report under SOURCE_DATE_EPOCH={golden_digests.EPOCH} did not reproduce "
        f"tests/golden/demo-digests.json:\n{done.stdout}{done.stderr[-3000:]}"
    )


@pytest.fixture(scope="module")
def fresh_clone(tmp_path_factory):
    """A fresh copy of the kit (no ``.venv``, no ``build/``) and the environment to run it in,
    shared by this module's tests in file order: the README's ``make report`` creates
    ``.venv`` there, as on a fresh clone."""
    root = tmp_path_factory.mktemp("clone")
    clone = root / "tcsexam-kit"
    _fresh_copy(clone)
    return clone, _environment(root / "home")


def test_every_readme_command_and_quick_start_block_runs_on_a_fresh_clone(fresh_clone):
    clone, env = fresh_clone
    assert not (clone / ".venv").exists() and not (clone / "build").exists()
    log: list[str] = []
    _run_page(clone / "README.md", False, clone, env, log)
    assert (clone / "build" / "reports" / "index.html").is_file()  # make report's landing page
    _check_installed_from_the_lock(clone, env)
    _check_golden_digests(clone, env)
    for page in sorted((clone / "docs").glob("*.md")):
        if blocks(page, True):
            shutil.rmtree(clone / "build", ignore_errors=True)  # fresh: only .venv is there
            _run_page(page, True, clone, env, log)
    print("\n".join(log))


def test_the_own_results_walk_through_runs_on_generated_data(fresh_clone):
    """docs/own-results.md as written: build a reference from K runs, solver-score, fill,
    score, stats, verify and report, on SIMULATED files of a model builder's own."""
    from owndata import write_own_results

    clone, env = fresh_clone
    log: list[str] = []
    if not (clone / ".venv").is_dir():  # run alone (-k): any make target makes it
        _run_shell(["make venv"], clone, env, log)
    work = write_own_results(clone)
    kit_files = {p: p.stat().st_mtime_ns for p in (clone / "references").rglob("*")}
    page = clone / "docs" / "own-results.md"
    assert blocks(page, True, OWN_MARKER), "the page has no own-results block"
    _run_page(page, True, clone, env, log, marker=OWN_MARKER)
    print("\n".join(log))
    # what solver-score and reference check print about floors and failures (run again
    # alone: the block's log keeps only its tail)
    (block,) = blocks(page, True, OWN_MARKER)
    again = [c for c in block if c.startswith(("tcsexam solver-score", "tcsexam reference check"))]
    _run_shell([". .venv/bin/activate", *again], clone, env, log)
    for line in (
        "floor sets the scale of 's6': absolute_floor",
        "2 completed failures scored 0 (timeout 2)",
        "scale set by: sample std 5, relative floor 0, absolute floor 1",
        "absolute floor sets the scale of 1 instance(s): 's6'; there a value equal to mu "
        "scores 0.5",
    ):
        assert line in log[-1], line
    index = json.loads((work / "out" / "index.json").read_text(encoding="utf-8"))
    assert {m: e["status"] for m, e in index["models"].items()} == {
        "model-a": "complete",
        "model-b": "complete",
    }
    assert index["solver_evidence"]["consistent"] is True
    assert (work / "out" / "index.attempts.csv").is_file()
    assert sorted(p.name for p in (work / "out" / "index.evidence" / "model-b").iterdir()) == [
        "my-maxcut-1.json", "my-maxcut-2.json", "my-sat-1.json"
    ]  # fmt: skip
    assert "verify: MATCH" in log[-1] or any("verify: MATCH" in entry for entry in log)
    checked = "checked: 5 evidence files and their 5 records files, reference my-ref-k3-v1 ("
    assert any(checked in entry for entry in log)  # verify followed the chain to the records
    assert (work / "out" / "reports" / "index.html").is_file()
    # nothing was written into the kit's own folders
    assert {p: p.stat().st_mtime_ns for p in (clone / "references").rglob("*")} == kit_files
