"""Smoke tier (``make test-smoke``, ``pytest -m smoke``): the real notebooks on the demo.

The runner over one committed run set end to end (its landing page must list every
model with the status and index that ``run_score`` gives on the demo's attempts
table), and each notebook run directly with its ``params/notebooks/*.yaml``, as
``papermill notebooks/X.ipynb out.ipynb -f params/notebooks/X.yaml`` does. Slow (a
kernel per notebook): excluded from ``make test-unit``.
"""

from __future__ import annotations

import html
import html.parser
import json
import re
from pathlib import Path

import nbformat
import papermill
import pytest
import yaml
from bs4 import BeautifulSoup

from tcsexam_lib import load_report_params, run_report, run_score, run_solver_score
from tcsexam_lib.number_format import index_with_interval, interval_reach
from tcsexam_lib.paths import KIT_ROOT
from tcsexam_lib.stats.command import compute_stats

pytestmark = pytest.mark.smoke

PARAMS = KIT_ROOT / "params"
RUN_SET = PARAMS / "demo-lite-offline.yaml"


#: The build date the smoke run publishes under (``SOURCE_DATE_EPOCH``): reruns are equal.
EPOCH = "1764633600"


def _document(path: Path) -> str:
    """A page as one printing of its document (the kit writes attributes in either quote)."""
    return str(BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser"))


def _landing_rows(page: str) -> dict[str, tuple[str, str]]:
    """model -> (status, index cell text) from the landing page's table rows."""
    pattern = (
        r"<tr><td class='num' data-order='[^']*'>[^<]*</td>"
        r"<td class='tcs-nowrap tcs-model'><a [^>]*>"
        r"([^<]+)</a></td><td class='num' data-order='[^']*'>(.*?)</td><td>[^<]*</td>"
        r"<td class='(\w+)'"
    )
    found = re.findall(pattern, page)
    return {model: (status, re.sub(r"<[^>]*>", "", index)) for model, index, status in found}


def _publish(output: Path) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", EPOCH)
        result = run_report([RUN_SET], jobs=2, output=output)
    assert result.ok, [f.error for f in result.failures]


@pytest.fixture(scope="module")
def published(tmp_path_factory) -> Path:
    """The runner over one demo run set (every notebook), under a fixed build date."""
    output = tmp_path_factory.mktemp("published")
    _publish(output)
    return output


def test_runner_on_a_demo_run_set_lists_every_model_as_run_score_does(published):
    tmp_path = published
    params = load_report_params(RUN_SET)
    expected = run_score(suite=params.suite, attempts=params.attempts, cohort=params.cohort)
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert page.count("SIMULATED DEMO DATA — not TCSExam results") == 1  # the banner, once
    rows = _landing_rows(page)
    assert set(rows) == set(expected["models"]) == set(params.models)
    assert list(rows) == ["sim-alpha", "sim-beta", "sim-gamma"]  # by rank, incomplete last
    stats = compute_stats(expected)  # what tcsexam stats gives with its defaults
    for model, entry in expected["models"].items():
        ci = stats["models"][model]["index_ci"]  # both sides when asymmetric, never a ± past one
        index = "no index" if entry["index"] is None else index_with_interval(entry["index"], *ci)
        assert rows[model] == (entry["status"], index), model
        for name in params.notebooks:
            if name == "cohort":
                continue
            executed = tmp_path / params.name / "models" / model / f"{name}.ipynb"
            assert executed.with_suffix(".html").is_file()
            notebook = nbformat.read(executed, as_version=4)
            meta = notebook.metadata.papermill
            assert meta["parameters"]["model"] == model and meta["exception"] is None
            tables = [
                output["data"]["text/html"]
                for cell in notebook.cells
                for output in cell.get("outputs", [])
                if "<table" in output.get("data", {}).get("text/html", "")
            ]
            assert tables, (model, name)
            for table in tables:  # a missing value reads as —, never NaN or None
                assert not re.search(r"<td[^>]*>(NaN|None|nan|null)</td>", table), (model, name)
                assert "<th></th>" not in table  # no pandas row index
    gamma = params.name + "/models/sim-gamma/index.ipynb"
    assert "data-order=''>—</td>" in (tmp_path / gamma).read_text(encoding="utf-8")
    cohort = _document(tmp_path / params.name / "cohort.html")
    for heading in ("Ranking", "How sure the ranking is", "Which models differ",
                    "Task x model"):  # fmt: skip
        assert f">{heading}<" in cohort
    assert "The lead is not established: sim-alpha and sim-beta could each be first" in cohort
    ties = (
        "Tie groups down the ranking (no pair inside one is shown to differ; a model may be "
        "in two): "
    )
    assert ties in cohort
    assert cohort.count('class="tcs-banner"') == 1  # the banner once; each chart its label
    alpha = expected["models"]["sim-alpha"]["index"]
    alpha_half = stats["models"]["sim-alpha"]["index_ci_half_width"]
    alpha_ci = stats["models"]["sim-alpha"]["index_ci"]  # asymmetric: both sides shown
    assert (
        f'<td class="num" data-order="{alpha!r}">{alpha:.2f}</td><td class="num" '
        f'data-order="{alpha_half!r}">{html.escape(interval_reach(alpha, *alpha_ci))}</td>'
    ) in cohort
    assert '<a href="models/sim-alpha/index.html">sim-alpha</a>' in cohort  # to its pages
    page = (tmp_path / params.name / "models/sim-alpha/index.html").read_text(encoding="utf-8")
    assert ">How precise the index is<" in page
    assert f"index {index_with_interval(alpha, *alpha_ci)} points (95% interval)" in page
    # publishable: world-readable under umask 022, no machine path, nothing remote
    for path in sorted(tmp_path.rglob("*")):
        if path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            # paths are relative: the kit's folder may appear only after "../" steps
            assert not re.search(r"(?<!\.\.)" + re.escape(str(KIT_ROOT)), text), path
            assert str(tmp_path) not in text, path
            if path.suffix == ".html":
                assert not re.search(r"""(src|href)=["']?(https?:)?//""", text), path
                assert not re.search(r"\d %", text), path  # one spelling of a level: 95%
    statuses = sorted(entry["status"] for entry in expected["models"].values())
    assert statuses == ["complete", "incomplete", "provisional"]  # the demo's three stories
    # the kernel log: how kernels were reached, and nothing else for a normal run (no
    # transport warning, no error of a kernel on its way out, no kernel stopped by force)
    log = (tmp_path / params.name / "report-kernels.log").read_text(encoding="utf-8")
    assert log.startswith("[report runner] kernels started over IPC")
    assert [line for line in log.splitlines() if not line.startswith("[report runner] ")] == []


class _Tables(html.parser.HTMLParser):
    """Every report table of a page: its column names and each row's cell texts."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[tuple[list[str], list[list[str]]]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table" and "tcs-table" in (dict(attrs).get("class") or ""):
            self.tables.append(([], []))
        elif self.tables and tag == "tr":
            self._row: list[str] = []
        elif self.tables and tag in ("th", "td"):
            self._cell = []

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)

    def handle_endtag(self, tag):
        if tag in ("th", "td") and self._cell is not None and self.tables:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self.tables and self._row:
            head, body = self.tables[-1]
            if not head:
                head.extend(self._row)
            else:
                body.append(self._row)
            self._row = []


POINTS = r"-?\d+\.\d{2}"
MEAN = r"-?\d+\.\d{3}"
#: Columns in points (2 decimals) and in track units (3 decimals; 0/1 results pass/fail).
POINT_COLUMNS = "index ± Δ-index Δ-on-common-tasks Δ-to-the-next contribution detectable-Δ"
MEAN_COLUMNS = "P S C O Δ-P Δ-S Δ-C Δ-O relative-score score standard-error 95%-low 95%-high"
#: The number policy, by column name (docs/reports.md): each cell must match its pattern.
POLICY = {
    **{name.replace("-", " "): POINTS for name in POINT_COLUMNS.split()},
    **{name.replace("-", " "): MEAN for name in MEAN_COLUMNS.split()},
    **{name: MEAN for name in ("range", "std")},
    **{name: rf"{MEAN}|pass|fail" for name in ("mean", "min", "max")},
    **{name: rf"{MEAN}|pass|fail" for name in ("sim-alpha", "sim-beta", "sim-gamma")},
    # how far an index's interval reaches: one number, or both sides when it is asymmetric
    "±": rf"{POINTS}|\+{POINTS} / −{POINTS}",
    "index ± interval": rf"{POINTS} (± {POINTS}|\(\+{POINTS} / −{POINTS}\))|no index",
    "interval": rf"\[{POINTS}, {POINTS}\]",
    "p": r"< 0\.001|\d\.\d{3}",
    "p (Holm)": r"< 0\.001|\d\.\d{3}",
    "z": POINTS,
    "scores": rf"(({MEAN}|pass|fail)(, )?)+",
}


def test_every_published_number_follows_the_number_policy(published):
    """Index and differences in points with 2 decimals, means with 3, 0/1 as pass/fail."""
    checked = set()
    for page in sorted(published.rglob("*.html")):
        parser = _Tables()
        parser.feed(page.read_text(encoding="utf-8"))
        for head, rows in parser.tables:
            for row in rows:
                for name, text in zip(head, row, strict=True):
                    assert not re.fullmatch(r"-?\d+\.\d{4,}", text) or name in (
                        "A", "mu", "s", "scale"), (page.name, name, text)  # fmt: skip
                    pattern = POLICY.get(name)
                    if pattern is None or text == "—":
                        continue
                    assert re.fullmatch(pattern, text), (page.relative_to(published), name, text)
                    checked.add(name)
    assert {"index", "±", "P", "interval", "p", "mean", "sim-alpha", "z", "scores",
            "index ± interval", "contribution", "relative score"} <= checked  # fmt: skip


def _published_files(folder: Path) -> dict[str, bytes]:
    """Every published file (the hidden store of pages aside), by relative path."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and ".tcsexam-store" not in p.relative_to(folder).parts
    }


def test_a_rerun_publishes_the_same_bytes(published, tmp_path):
    """Under the same SOURCE_DATE_EPOCH every page, output, executed notebook and log is
    byte-identical (papermill's times dropped)."""
    _publish(tmp_path)
    first, second = _published_files(published), _published_files(tmp_path)
    assert set(first) == set(second)
    assert [name for name in first if first[name] != second[name]] == []
    executed = nbformat.read(published / "demo-lite-offline" / "cohort.ipynb", as_version=4)
    injected = [c for c in executed.cells if "injected-parameters" in c.metadata.get("tags", [])]
    assert [c.id for c in injected] == ["injected-parameters"]


def _demo_copy(root: Path) -> Path:
    """The demo run set demo-lite-offline copied under ``root``, with its parameter file."""
    import shutil

    shutil.copytree(KIT_ROOT / "demo" / "demo-lite-offline", root / "demo")
    path = root / "run-set.yaml"
    path.write_text(
        "suite: demo-lite\nprotocol: offline\ncohort: demo/cohort.json\n"
        "attempts: demo/attempts.csv\nrecords: demo/records\n",
        encoding="utf-8",
    )
    return path


def _add_model(demo: Path) -> None:
    """sim-delta joins the cohort: sim-alpha's plan, attempts and records under its name."""
    import shutil

    cohort = json.loads((demo / "cohort.json").read_text(encoding="utf-8"))
    cohort["models"]["sim-delta"] = cohort["models"]["sim-alpha"]
    (demo / "cohort.json").write_text(json.dumps(cohort, indent=1), encoding="utf-8")
    lines = (demo / "attempts.csv").read_text(encoding="utf-8").splitlines()
    added = [line.replace("sim-alpha,", "sim-delta,", 1) for line in lines
             if line.startswith("sim-alpha,")]  # fmt: skip
    (demo / "attempts.csv").write_text("\n".join([*lines, *added]) + "\n", encoding="utf-8")
    shutil.copytree(demo / "records" / "sim-alpha", demo / "records" / "sim-delta")


def _change_attempt(demo: Path) -> None:
    """One attempt of sim-beta: a theorem proved that was not."""
    lines = (demo / "attempts.csv").read_text(encoding="utf-8").splitlines()
    at = next(k for k, line in enumerate(lines) if line.startswith("sim-beta,theorem,sim-thm-01,"))
    fields = lines[at].split(",")
    fields[4] = "1" if fields[4] == "0" else "0"
    lines[at] = ",".join(fields)
    (demo / "attempts.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _remove_model(demo: Path) -> None:
    """sim-gamma leaves the cohort, its attempts and its records."""
    import shutil

    cohort = json.loads((demo / "cohort.json").read_text(encoding="utf-8"))
    del cohort["models"]["sim-gamma"]
    (demo / "cohort.json").write_text(json.dumps(cohort, indent=1), encoding="utf-8")
    lines = (demo / "attempts.csv").read_text(encoding="utf-8").splitlines()
    kept = [line for line in lines if not line.startswith("sim-gamma,")]
    (demo / "attempts.csv").write_text("\n".join(kept) + "\n", encoding="utf-8")
    shutil.rmtree(demo / "records" / "sim-gamma")


#: Each change, the notebooks it must run (all others reused) and what the pages say.
CHANGES = [
    (
        _add_model,
        {"cohort", "sim-delta/index", "sim-delta/solver_scoring", "sim-delta/diagnostics"},
        "Added: sim-delta.",
    ),  # fmt: skip
    (
        _change_attempt,
        {"cohort", "sim-beta/index", "sim-beta/solver_scoring", "sim-beta/diagnostics"},
        "Since the previous publication",
    ),  # fmt: skip
    # sim-delta's rows come after sim-gamma's in the table: their line numbers, which its
    # pages cite, move up; sim-alpha's and sim-beta's pages stay
    (
        _remove_model,
        {"cohort", "sim-delta/index", "sim-delta/solver_scoring", "sim-delta/diagnostics"},
        "Removed: sim-gamma.",
    ),  # fmt: skip
]


def test_reusing_stored_pages_publishes_the_bytes_of_force_after_each_change(tmp_path):
    """The demo published, then changed three times, each on the next day (a model added,
    an attempt changed, a model removed): each time only what read the change runs, and the
    publication equals, byte for byte, history included, the one made with --force from the
    same previous state at that date; then only the date changed: nothing is written."""
    import shutil

    path = _demo_copy(tmp_path / "kit")
    out, before, reused = tmp_path / "kit" / "out", tmp_path / "before", tmp_path / "reused"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", EPOCH)
        assert run_report([path], jobs=2, output=out).ok
        for day, (change, expected, said) in enumerate(CHANGES, 1):
            patch.setenv("SOURCE_DATE_EPOCH", str(int(EPOCH) + 86400 * day))
            change(tmp_path / "kit" / "demo")
            shutil.copytree(out, before, symlinks=True)  # the previous state, kept aside
            lines: list[str] = []
            result = run_report([path], jobs=2, output=out, progress=lines.append)
            assert result.ok, [f.error for f in result.failures]
            ran = {nb.label.split("/", 1)[1] for rs in result.run_sets for nb in rs.notebooks
                   if not nb.reused}  # fmt: skip
            assert ran == expected, (change.__name__, lines)
            for page in ("index.html", "demo-lite-offline/cohort.html"):
                assert said in (out / page).read_text(encoding="utf-8"), (change.__name__, page)
            out.rename(reused)
            before.rename(out)  # the same previous state, at the same place: now --force
            assert run_report([path], jobs=2, output=out, force=True).ok
            mine, theirs = _published_files(reused), _published_files(out)
            assert set(mine) == set(theirs), change.__name__
            assert [name for name in mine if mine[name] != theirs[name]] == [], change.__name__
            shutil.rmtree(out)
            reused.rename(out)  # go on from the publication that reused pages
        history = (out / "history.jsonl").read_text(encoding="utf-8").splitlines()
        assert len(history) == 4  # one record per publication, none rewritten
        before = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}
        patch.setenv("SOURCE_DATE_EPOCH", str(int(EPOCH) + 86400 * 9))
        lines = []
        result = run_report([path], jobs=2, output=out, progress=lines.append)
        assert result.unchanged == ["demo-lite-offline"], lines
        assert {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()} == before


@pytest.mark.parametrize("name", ["cohort", "solver_scoring", "index", "diagnostics"])
def test_notebook_runs_directly_with_its_papermill_parameter_file(tmp_path, name, monkeypatch):
    parameters = yaml.safe_load((PARAMS / "notebooks" / f"{name}.yaml").read_text())
    for key in ("output", "output_dir"):  # keep the smoke run out of build/
        if parameters.get(key):
            parameters[key] = str(tmp_path / key)
    monkeypatch.chdir(KIT_ROOT)  # the parameter files' paths are relative to the kit
    out = tmp_path / f"{name}.ipynb"
    papermill.execute_notebook(
        str(KIT_ROOT / "notebooks" / f"{name}.ipynb"),
        str(out),
        parameters=parameters,
        progress_bar=False,
    )
    executed = nbformat.read(out, as_version=4)
    banner = executed.cells[3].outputs[0]["data"]["text/plain"]
    assert banner.startswith("SIMULATED DEMO DATA — not TCSExam results")
    # the notebooks write the same JSON as the commands (provenance aside: producer, time)
    if name == "index":
        written = json.loads((tmp_path / "output").read_text(encoding="utf-8"))
        expected = run_score(
            suite=parameters["suite"], attempts=parameters["attempts"], cohort=parameters["cohort"]
        )
        assert _without_provenance(written) == _without_provenance(expected)
    if name == "solver_scoring":
        outputs = sorted((tmp_path / "output_dir").iterdir())
        assert outputs
        for path in outputs:
            task, attempt = path.stem.rsplit("-", 1)
            expected = run_solver_score(
                task=task,
                records=Path(parameters["records_dir"])
                / parameters["model"]
                / task
                / f"{attempt}.json",
                reference=parameters["suite"],
                reference_id=parameters["reference_id"],
                model=parameters["model"],
                attempt=attempt,
            )
            written = json.loads(path.read_text(encoding="utf-8"))
            assert _without_provenance(written) == _without_provenance(expected)


def _without_provenance(output: dict) -> dict:
    return {key: value for key, value in output.items() if key != "provenance"}


def test_a_typo_in_a_notebook_parameter_is_an_error(tmp_path, monkeypatch):
    """papermill only warns about an unknown parameter; the notebook refuses it."""
    parameters = yaml.safe_load((PARAMS / "notebooks" / "index.yaml").read_text())
    parameters["solver_evidenc"] = parameters.pop("solver_evidence")
    monkeypatch.chdir(KIT_ROOT)
    with pytest.raises(papermill.PapermillExecutionError, match=r"did you mean 'solver_evidence'"):
        papermill.execute_notebook(
            str(KIT_ROOT / "notebooks" / "index.ipynb"),
            str(tmp_path / "typo.ipynb"),
            parameters=parameters,
            progress_bar=False,
        )


@pytest.mark.parametrize("name", ["solver_scoring", "index", "diagnostics"])
def test_a_model_outside_the_cohort_is_refused_first_in_one_line(tmp_path, name, monkeypatch):
    parameters = yaml.safe_load((PARAMS / "notebooks" / f"{name}.yaml").read_text())
    parameters["model"] = "sim-delta"
    monkeypatch.chdir(KIT_ROOT)
    out = tmp_path / f"{name}.ipynb"
    with pytest.raises(papermill.PapermillExecutionError, match="is not in the cohort"):
        papermill.execute_notebook(
            str(KIT_ROOT / "notebooks" / f"{name}.ipynb"),
            str(out),
            parameters=parameters,
            progress_bar=False,
        )
    executed = nbformat.read(out, as_version=4)
    first = next(c for c in executed.cells if c.source.startswith("from tcsexam_lib import views"))
    (error,) = [o for o in first.outputs if o["output_type"] == "error"]
    assert error["traceback"] == [
        "InputRefused: Model 'sim-delta' is not in the cohort "
        "(allowed: sim-alpha, sim-beta, sim-gamma)"
    ]
