"""JupyterLab as a new user meets it: ``make lab``, each notebook opened and run in Chromium.

``make lab`` is started on the kit's folder (127.0.0.1, a token, a free port, no browser
opened, JupyterLab's own folders in a temporary one, nothing fetched from the network),
then, in the system Chromium:

- the teaching notebook opens unmodified, *Run ▸ Run All Cells* gives no error output and
  live widgets; moving the candidate slider from 12 to 14 changes the readout to z = 1,
  Phi(z) = 0.8413 and redraws the curve; the direction toggle's label sits beside its
  buttons; the tasks-per-track slider moved from 20 to 80 with the keyboard narrows the
  intervals, the close pair then differs, and the picture is redrawn; the folded solutions
  stay folded (their code hidden, their output a closed box); exercise 1 answered with
  text says what is expected in one line (no traceback), and each of the eight exercises
  answered wrongly gets the hint aimed at that mistake, then rightly is right;
- each report notebook opens unmodified and runs with its defaults (the SIMULATED demo):
  no error output, the banner, at least one chart, its tables sortable (the long
  instance table of the solver notebook searchable and paged).

Every process it starts is stopped at the end, also on failure (the server with its
kernels; any process left is killed by its id), and the kit's notebooks are checked to be
byte for byte as before (JupyterLab's autosave is off in the kit's settings).

``TCSEXAM_LAB_SCREENSHOTS=DIR`` also writes the screenshots of ``docs/`` into ``DIR``.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import re
import secrets
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import isolate_jupyter_state

from tcsexam_lib.paths import KIT_ROOT

NOTEBOOKS = KIT_ROOT / "notebooks"
REPORTS = ["cohort", "solver_scoring", "index", "diagnostics"]
SCREENSHOTS = os.environ.get("TCSEXAM_LAB_SCREENSHOTS", "")
#: How long the server may take to answer, and one notebook to run (a loaded machine).
START_TIMEOUT_S = 180
RUN_TIMEOUT_MS = 240_000


@dataclass(frozen=True)
class Lab:
    url: str
    token: str
    log: Path

    def api(self, path: str, method: str = "GET") -> Any:
        request = urllib.request.Request(
            f"{self.url}{path}", method=method, headers={"Authorization": f"token {self.token}"}
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            body = response.read()
        return json.loads(body) if body else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _fingerprint(folder: Path) -> dict[str, str]:
    return {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.iterdir())
        if path.is_file()
    }


def _descendants(pid: int) -> set[int]:
    """Every process whose parent chain leads to ``pid`` (read from /proc)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _stop(process: subprocess.Popen) -> list[int]:
    """Stop ``make lab`` and everything it started; return the ids still alive (none)."""
    started = _descendants(process.pid) | {process.pid}
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)  # make and jupyter; jupyter stops its kernels
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
    deadline = time.monotonic() + 15
    while any(_alive(pid) for pid in started) and time.monotonic() < deadline:
        time.sleep(0.2)
    for pid in [pid for pid in started if _alive(pid)]:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    time.sleep(0.5)
    return [pid for pid in started if _alive(pid)]


@pytest.fixture(scope="module")
def lab(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """``make lab`` on the kit's folder, stopped (with every process it started) after."""
    state = tmp_path_factory.mktemp("jupyterlab")
    env = dict(os.environ)
    isolate_jupyter_state(env, state)
    env.pop("JPY_SESSION_NAME", None)
    port, token = _free_port(), secrets.token_hex(16)
    options = (
        f"--no-browser --ip=127.0.0.1 --port={port} --ServerApp.port_retries=0 "
        f"--IdentityProvider.token={token}"
    )
    before = _fingerprint(NOTEBOOKS)
    log = state / "jupyterlab.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            ["make", "-s", "lab", f"LAB_ARGS={options}"],
            cwd=KIT_ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    server = Lab(f"http://127.0.0.1:{port}", token, log)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if process.poll() is not None:
                pytest.fail(f"make lab exited with {process.returncode}:\n{log.read_text()}")
            try:
                server.api("/api/status")
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"JupyterLab did not answer in {START_TIMEOUT_S} s")
                time.sleep(0.5)
        yield server
    finally:
        left = _stop(process)
    assert left == [], f"processes left running: {left}"
    assert _fingerprint(NOTEBOOKS) == before, "the kit's notebooks were changed"


# --- driving JupyterLab ---------------------------------------------------------------

_ALL_RUN = """() => {
  const prompts = Array.from(document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt'));
  return prompts.length > 0 && prompts.every(p => /^\\[\\d+\\]:$/.test(p.textContent.trim()));
}"""


def open_notebook(open_page: Any, lab: Lab, name: str) -> Any:
    """Open ``notebooks/<name>.ipynb`` in a fresh workspace; wait for its idle kernel."""
    page = open_page(
        f"{lab.url}/lab/workspaces/{name}/tree/notebooks/{name}.ipynb?reset&token={lab.token}",
        width=1280,
        height=1000,
    )
    page.wait_for_function(
        "() => /\\| Idle/.test(document.querySelector('#jp-main-statusbar')?.innerText || '')",
        timeout=RUN_TIMEOUT_MS,
        polling=250,
    )
    return page


def is_marked_modified(page: Any) -> bool:
    tab = page.locator(".lm-TabBar-tab.lm-mod-current[data-type='document-title']")
    return "jp-mod-dirty" in (tab.get_attribute("class") or "")


def stored_python_is_this_one(name: str) -> bool:
    """JupyterLab records the kernel's Python release on opening: equal, it changes nothing."""
    stored = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text())["metadata"]["language_info"]
    return stored["version"] == platform.python_version()


def run_all(page: Any) -> float:
    """*Run ▸ Run All Cells*; wait until every code cell has run; return the seconds."""
    start = time.monotonic()
    page.locator(".lm-MenuBar-item", has_text=re.compile("^Run$")).click()
    page.locator(".lm-Menu-item[data-command='runmenu:run-all']").click()
    page.wait_for_function(_ALL_RUN, timeout=RUN_TIMEOUT_MS, polling=250)
    return time.monotonic() - start


def error_outputs(page: Any) -> list[str]:
    """The text of every error (traceback) or stderr output of the notebook."""
    outputs = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    return [outputs.nth(k).text_content() for k in range(outputs.count())]


def answer_cell(page: Any, number: int) -> Any:
    """The answer cell of exercise ``number`` of the teaching notebook, by its position in
    the notebook (``data-windowed-list-index``: it stays when the cell is edited, and the
    cell's editor is rendered once it is scrolled into view)."""
    heading = page.locator(".jp-MarkdownCell").filter(
        has=page.locator("h3", has_text=re.compile(f"^Exercise {number}:"))
    )
    start = int(heading.first.get_attribute("data-windowed-list-index"))
    for index in range(start + 1, start + 4):
        cell = page.locator(f".jp-Notebook-cell[data-windowed-list-index='{index}']")
        cell.scroll_into_view_if_needed()
        source = cell.locator(".cm-content")
        source.wait_for(timeout=30_000)
        if source.text_content().startswith(f"answer_{number} = "):
            return cell
    raise AssertionError(f"no answer cell after the heading of exercise {number}")


def run_cell_with(page: Any, cell: Any, source: str) -> str:
    """Replace a cell's code, run it (Shift+Enter), return its output's text."""
    prompt = cell.locator(".jp-InputArea-prompt")
    before = prompt.text_content()
    cell.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(source)  # no key events: no bracket or quote closed for us
    page.keyboard.press("Shift+Enter")
    page.wait_for_function(
        "([node, before]) => { const t = node.textContent.trim();"
        " return t !== before.trim() && /^\\[\\d+\\]:$/.test(t); }",
        arg=[prompt.element_handle(), before],
        timeout=60_000,
    )
    return output_text(cell)


def output_text(cell: Any) -> str:
    """The text of a cell's outputs (from the DOM: cells out of view have no rendered text)."""
    outputs = cell.locator(".jp-OutputArea-output")
    return "\n".join(outputs.nth(k).text_content() for k in range(outputs.count()))


def shut_down_kernels(lab: Lab) -> None:
    for session in lab.api("/api/sessions"):
        lab.api(f"/api/sessions/{session['id']}", method="DELETE")


def scroll_to(page: Any, locator: Any) -> None:
    """Scroll the notebook so that ``locator`` is at the top (again as cells out of view
    are rendered and change height)."""
    for _ in range(4):
        locator.evaluate("node => node.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(400)


def screenshot(page: Any, name: str) -> None:
    if SCREENSHOTS:
        page.screenshot(path=str(Path(SCREENSHOTS) / name))


def hide_file_browser(page: Any) -> None:
    page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current").click()


# --- the tests ------------------------------------------------------------------------


#: Each exercise of the teaching notebook: its id, a wrong answer and what the check says of
#: it, then the right answer (a student's, rounded to 3 decimals where asked).
EXERCISE_ANSWERS = [
    ("relative-score", "0.6915", "instance score alone", "0.346"),
    ("floor-case", "1.0", "you took the sample std s = 0.2 as the scale", "0.933"),
    ("minimize", "0.559", "inst-2: A = 2e-9 is not the reference mean 0", "0.320"),
    # P to 3 decimals gives 76.51 (right); 73.86 is how the pooled-attempts hint prints it
    ("index", "73.86", "you pooled the attempts of each track", "76.51"),
    (
        "statuses",
        '{"model-x": "incomplete", "model-y": "provisional", "model-z": "complete"}',
        "model-y right; model-x and model-z not right.",
        '{"model-x": "complete", "model-y": "provisional", "model-z": "incomplete"}',
    ),
    (
        "could-be-first",
        '["osprey"]',
        "heron: is any model shown to be ahead",
        '["osprey", "heron"]',
    ),
    ("differ", '"yes"', "Read the row heron - wren alone", '"no"'),
    (
        "self-check",
        '{"status": "incomplete", "index": None}',  # the feedback never says the status
        "look at how each row is adopted",
        '{"status": "provisional", "index": 47.25}',
    ),
]


def move_solver_slider_and_check(page: Any) -> None:
    """The candidate slider, 12 -> 14: the readout and the curve follow; the direction
    toggle's label sits on the line of its buttons."""
    widget = page.locator(".jupyter-widgets.widget-vbox").filter(has_text="candidate A").first
    readout = widget.locator("pre").first
    image = widget.locator("img").first
    assert "z = (A - mu)/scale = 0\n" in readout.text_content()
    before = image.get_attribute("src")
    type_into_slider(page, widget, "candidate A", "14", "instance score Phi(z) = 0.8413")
    assert "z = (A - mu)/scale = 1\n" in readout.text_content()
    assert "candidate A = 14" in readout.text_content()
    page.wait_for_function(
        "([node, before]) => node.getAttribute('src') !== before",
        arg=[image.element_handle(), before],
        timeout=30_000,
    )
    toggle = widget.locator(".widget-toggle-buttons")
    label = toggle.locator(".widget-label").bounding_box()
    button = toggle.locator("button").first.bounding_box()
    assert abs(label["y"] - button["y"]) < 5 and label["x"] < button["x"]


def type_into_slider(page: Any, widget: Any, label: str, value: str, then: str) -> None:
    """Type ``value`` into the slider ``label``'s readout, as a student does; wait until the
    widget shows ``then`` (its readout's HTML is replaced: watch the widget)."""
    slider = widget.locator(".widget-slider").filter(has_text=label)
    slider.locator(".widget-readout").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(value)
    page.keyboard.press("Enter")
    page.wait_for_function(
        "([node, then]) => node.textContent.includes(then)",
        arg=[widget.element_handle(), then],
        timeout=30_000,
    )


def tighten_the_reference_and_check(page: Any) -> None:
    """Section 3.1's second bullet, tried as it reads: reference values 11.9, 12 (already
    there) and 12.1, A = 12.1: the relative floor sets the scale, z = 0.42, score 0.66."""
    widget = page.locator(".jupyter-widgets.widget-vbox").filter(has_text="candidate A").first
    type_into_slider(page, widget, "reference 1", "11.9", "reference values [11.9, 12, 14]")
    type_into_slider(page, widget, "reference 3", "12.1", "reference values [11.9, 12, 12.1]")
    type_into_slider(page, widget, "candidate A", "12.1", "candidate A = 12.1")
    readout = widget.locator("pre").first.text_content()
    assert "reference values [11.9, 12, 12.1], maximize, candidate A = 12.1" in readout
    assert "relative_floor 0.02*|mu|    0.24  <- sets the scale" in readout
    assert "z = (A - mu)/scale = 0.416667" in readout and "Phi(z) = 0.6615" in readout


def move_tasks_slider_and_check(page: Any) -> None:
    """Tasks per track, 20 -> 80 with the keyboard: the intervals narrow, the close pair now
    differs, and the picture is redrawn."""
    widget = page.locator(".jupyter-widgets.widget-vbox").filter(has_text="tasks per track").first
    readout = widget.locator("pre").first
    image = widget.locator("img").first
    text = readout.text_content()
    assert "20 tasks per track" in text
    assert "illustrative-b - illustrative-a: 3.00 points" in text and "not shown to differ" in text
    before = image.get_attribute("src")
    handle = widget.locator(".noUi-handle").first
    handle.scroll_into_view_if_needed()
    handle.click()
    for _ in range(2):  # 20 -> 40 -> 80
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(300)
    page.wait_for_function(
        "node => node.textContent.includes('80 tasks per track')",
        arg=widget.element_handle(),
        timeout=30_000,
    )
    text = readout.text_content()
    assert "not shown to differ" not in text
    assert "illustrative-b - illustrative-a: 3.00 points, interval [0.67, 5.33]: shown" in text
    page.wait_for_function(
        "([node, before]) => node.getAttribute('src') !== before",
        arg=[image.element_handle(), before],
        timeout=30_000,
    )


def test_teaching_notebook_runs_and_its_widgets_and_exercises_respond(lab, open_page):
    page = open_notebook(open_page, lab, "teaching")
    if stored_python_is_this_one("teaching"):
        assert not is_marked_modified(page), "opening the notebook marked it modified"
    seconds = run_all(page)
    print(f"teaching: Run All in {seconds:.1f} s")
    assert error_outputs(page) == []
    assert page.locator(".widget-slider").count() >= 11  # 6 solver, 4 track means, 1 tasks
    assert page.locator("text=Error displaying widget").count() == 0
    move_solver_slider_and_check(page)
    if SCREENSHOTS:
        page.evaluate("() => document.activeElement.blur()")
        hide_file_browser(page)
        scroll_to(page, page.locator(".jp-MarkdownCell").filter(has_text="3.1 Try it: move"))
        screenshot(page, "teaching.png")
    tighten_the_reference_and_check(page)
    move_tasks_slider_and_check(page)
    # the solutions stay folded after Run All: their code hidden, their output a closed box
    folded = page.locator(".jp-CodeCell").filter(has=page.locator(".jp-InputPlaceholder"))
    assert folded.count() == len(EXERCISE_ANSWERS)
    for k in range(folded.count()):
        solution = folded.nth(k)
        assert output_text(solution).startswith(f"Solution to exercise {k + 1} (click to unfold)")
        assert solution.locator("details.tcs-solution:not([open])").count() == 1
    # exercise 1 answered with text first: one line saying what is expected, no traceback
    exercise = answer_cell(page, 1)
    check = 'teaching.check_answer("relative-score", answer_1)'
    said = run_cell_with(page, exercise, f'answer_1 = "0.346"\n{check}')
    assert said.startswith("✘ Exercise 1: not the kind of answer expected. expected a number")
    assert "write the number without quotes, e.g. 0.346" in said and "\n" not in said.strip()
    # every exercise: a wrong answer gets a hint aimed at the mistake, then the right one
    for number, (name, wrong, hint, right) in enumerate(EXERCISE_ANSWERS, start=1):
        cell = answer_cell(page, number)
        check = f'teaching.check_answer("{name}", answer_{number})'
        said = run_cell_with(page, cell, f"answer_{number} = {wrong}\n{check}")
        assert said.startswith(f"✘ Exercise {number}: not right yet."), said
        assert hint in said and (name != "self-check" or "provisional" not in said), said
        said = run_cell_with(page, cell, f"answer_{number} = {right}\n{check}")
        assert said.startswith(f"✔ Exercise {number}: right."), said
    assert error_outputs(page) == []
    assert page.problems == []
    shut_down_kernels(lab)


@pytest.mark.parametrize("name", REPORTS)
def test_report_notebook_runs_with_its_defaults(lab, open_page, name):
    page = open_notebook(open_page, lab, name)
    if stored_python_is_this_one(name):
        assert not is_marked_modified(page), "opening the notebook marked it modified"
    seconds = run_all(page)
    print(f"{name}: Run All in {seconds:.1f} s")
    assert error_outputs(page) == []
    banner = page.locator(".tcs-banner")
    assert banner.count() == 1 and "SIMULATED DEMO DATA" in banner.text_content()
    charts = page.locator(".jp-OutputArea-output[data-mime-type='image/png'] img")
    assert charts.count() >= 1
    tables = page.locator("table.tcs-table")
    assert tables.count() >= 1 and tables.count() == page.locator("table.dataTable").count()
    if name == "index" and SCREENSHOTS:
        hide_file_browser(page)
        page.locator(".lm-MenuBar-item", has_text=re.compile("^View$")).click()
        page.locator(".lm-Menu-item[data-command='notebook:hide-all-cell-code']").click()
        page.wait_for_timeout(1000)
        scroll_to(page, page.locator(".jp-CodeCell").filter(has=banner))
        page.mouse.move(0, 500)
        screenshot(page, "lab-index.png")
    if name == "cohort":
        leaderboard = tables.first
        names = [text.strip() for text in leaderboard.locator("thead th").all_text_contents()]
        first_model = leaderboard.locator(f"tbody tr td:nth-child({names.index('model') + 1})")
        assert first_model.first.text_content() == "sim-alpha"
        header = leaderboard.locator("thead th", has_text=re.compile("^model$"))
        for order in ("ascending", "descending"):  # descending: the model ids backwards
            header.click()
            page.wait_for_function(
                "([node, order]) => node.getAttribute('aria-sort') === order",
                arg=[header.element_handle(), order],
                timeout=10_000,
            )
        assert first_model.first.text_content() == "sim-gamma"
    if name == "solver_scoring":
        instances = (
            page.locator(".dt-container")
            .filter(  # the instances, not the floors
                has=page.locator("th", has_text="scale set by")
            )
            .filter(has=page.locator("th", has_text="attempt"))
        )
        assert instances.locator(".dt-paging").count() == 1  # long: paged
        rows = instances.locator("tbody tr")
        assert rows.count() == 25
        instances.locator(".dt-search input").fill("sim-tsp")
        page.wait_for_function(  # the filter has settled: every row shown is sim-tsp's
            "node => [...node.querySelectorAll('tbody tr')]"
            ".every(row => row.textContent.includes('sim-tsp'))",
            arg=instances.element_handle(),
            timeout=30_000,
        )
        assert 0 < rows.count() <= 25
        assert all("sim-tsp" in rows.nth(k).text_content() for k in range(rows.count()))
    assert page.problems == []
    shut_down_kernels(lab)
