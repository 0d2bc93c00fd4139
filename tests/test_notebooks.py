"""What the committed notebooks must look like (read with nbformat; no kernel is started).

- Every notebook of ``notebooks/`` except the teaching one is committed *without* outputs
  (papermill executes it per model and suite) and has exactly one cell tagged
  ``parameters``.
- The teaching notebook is committed *with* its outputs, executed top to bottom, and
  its nbval-checked cells (tagged ``nbval-check-output`` in their metadata, so that no
  marker shows in the reader's view) hold the seed's worked examples (0.25 and 55.5),
  the widgets' static fallbacks and the solutions' checks, so that ``make test-nbval``
  compares the numbers that matter; each exercise has an answer cell and a folded solution
  computed by the library. It keeps no live widget view or widget state
  (:func:`tcsexam_lib.teaching.strip_widget_views`): the widgets' plain-text form stays.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
TEACHING = NOTEBOOKS / "teaching.ipynb"
CHECK_TAG = "nbval-check-output"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def _read(path: Path) -> nbformat.NotebookNode:
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    return notebook


def _code_cells(notebook: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def _text_outputs(cell: nbformat.NotebookNode) -> str:
    parts = []
    for output in cell.get("outputs", []):
        if output.output_type == "stream":
            parts.append(output.text)
        elif output.output_type in ("execute_result", "display_data"):
            parts.append(output.data.get("text/plain", ""))
    return "".join(parts)


def _checked_cells(notebook: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    return [cell for cell in _code_cells(notebook) if CHECK_TAG in cell.metadata.get("tags", [])]


def parameterised_notebooks() -> list[Path]:
    """Every notebook of ``notebooks/`` except the teaching one (possibly none)."""
    return sorted(path for path in NOTEBOOKS.glob("*.ipynb") if path != TEACHING)


def test_parameterised_notebooks_have_no_outputs_and_one_parameters_cell():
    # One test over all of them, so that it passes (rather than skips) when the teaching
    # notebook is the only one.
    problems = []
    for path in parameterised_notebooks():
        notebook = _read(path)
        for position, cell in enumerate(notebook.cells):
            if cell.cell_type == "code" and (cell.outputs or cell.execution_count is not None):
                problems.append(f"{path.name} cell {position}: committed with outputs")
        tagged = [
            position
            for position, cell in enumerate(notebook.cells)
            if "parameters" in cell.get("metadata", {}).get("tags", [])
        ]
        if len(tagged) != 1:
            problems.append(f"{path.name}: {len(tagged)} cells tagged 'parameters' (want 1)")
    assert not problems, "\n".join(problems)


def test_teaching_notebook_is_committed_executed_in_order():
    notebook = _read(TEACHING)
    cells = _code_cells(notebook)
    assert cells, "the teaching notebook has no code cell"
    counts = [cell.execution_count for cell in cells]
    assert counts == list(range(1, len(cells) + 1)), (
        f"execute it top to bottom in a fresh kernel before committing (counts {counts})"
    )
    assert any(cell.outputs for cell in cells), "the teaching notebook has no outputs"
    for cell in cells:
        errors = [o for o in cell.outputs if o.output_type == "error"]
        assert not errors, f"stored error output in cell:\n{cell.source}"


@pytest.mark.parametrize(
    ("needle", "meaning"),
    [
        ("relative_score = 0.25", "the seed's solver relative score"),
        ("index = 55.5\n", "the seed's index, from the four track means"),
        ("status complete, index 55.5\n", "the seed's index, through a cohort"),
        ("mu = 12.0, s = 2.0", "the step-by-step reference statistics"),
        ("z = 0.0, Phi(z) = 0.5", "the step-by-step instance score"),
        ("index = 30*P + 30*S + 30*C + 10*O = 55.5 points", "the track-means widget's fallback"),
        ("instance score Phi(z) = 0.8413", "the solver widget's fallback"),
        ("relative_floor 0.02*|mu|    0.24  <- sets the scale", "the tight reference of 3.1"),
        ("ILLUSTRATIVE (simulated) cohort: 3 models, 80 tasks per track", "the slider's 80"),
        ("Solution to exercise 8 (self-check)", "the self-check's folded solution"),
        ("ddof 0 (contrast only)", "the ddof 1 vs ddof 0 contrast"),
        ("walk-provisional: status provisional", "the status walk-through"),
        ("walk-provisional: status complete", "a provisional result confirmed"),
        ("walk-incomplete: status incomplete", "the status walk-through"),
        ("attempt 1: excluded", "an excluded attempt kept, not aggregated"),
    ],
)
def test_teaching_notebook_checks_the_worked_examples(needle, meaning):
    checked = _checked_cells(_read(TEACHING))
    assert any(needle in _text_outputs(cell) for cell in checked), (
        f"no cell tagged '{CHECK_TAG}' of {TEACHING.name} stores {needle!r} ({meaning})"
    )


def test_teaching_notebook_hides_its_nbval_markers():
    """Checked cells are marked by a metadata tag, never by a comment the reader sees."""
    notebook = _read(TEACHING)
    for cell in _code_cells(notebook):
        assert "NBVAL_" not in cell.source, f"nbval comment marker in a cell:\n{cell.source}"


def test_teaching_notebook_exercises_check_themselves():
    """Each exercise: a heading, an answer cell that checks its answer with the library, and
    right after it a folded solution computed by the library (its input hidden, its output a
    closed ``<details>`` block, checked by nbval)."""
    notebook = _read(TEACHING)
    headings = [
        heading
        for cell in notebook.cells
        if cell.cell_type == "markdown"
        for heading in re.findall(r"^### Exercise \d+", cell.source, flags=re.MULTILINE)
    ]
    assert len(headings) >= 6, f"{len(headings)} exercises (want at least 6)"
    cells = _code_cells(notebook)
    answers = [k for k, cell in enumerate(cells) if "teaching.check_answer(" in cell.source]
    assert len(answers) == len(headings), "one answer cell per exercise"
    for k in answers:
        answer, solution = cells[k], cells[k + 1]
        assert answer.source.startswith("answer_") and "= None" in answer.source.splitlines()[0]
        assert "not answered yet" in _text_outputs(answer), answer.source
        assert "solution" in solution.metadata.get("tags", []), solution.source
        assert solution.metadata.get("jupyter", {}).get("source_hidden") is True
        assert CHECK_TAG in solution.metadata["tags"], solution.source
        assert solution.source.startswith("#"), "its first line shows when folded"
        assert "\nteaching.solution(" in solution.source, solution.source
        html = "".join(o.data.get("text/html", "") for o in solution.outputs if "data" in o)
        assert html.startswith('<details class="tcs-solution"><summary>'), solution.source
        assert _text_outputs(solution).startswith("Solution to exercise")


def test_teaching_notebook_imports_only_the_library():
    """A thin notebook: every helper and every number comes from tcsexam_lib."""
    for cell in _code_cells(_read(TEACHING)):
        for line in cell.source.splitlines():
            if line.startswith(("import ", "from ")):
                assert line.startswith("from tcsexam_lib import"), f"import in a cell: {line}"


def test_teaching_notebook_keeps_no_live_widget_view():
    """Widgets are stored as their plain-text fallback: no per-run model id, no state."""
    notebook = _read(TEACHING)
    assert "widgets" not in notebook.metadata, "strip the widget state (see docs/teaching.md)"
    fallbacks = 0
    for cell in _code_cells(notebook):
        for output in cell.outputs:
            data = output.get("data", {})
            assert WIDGET_VIEW not in data, f"live widget view stored:\n{cell.source}"
            fallbacks += data.get("text/plain", "").startswith("[Interactive widget")
    assert fallbacks >= 3, "the three widgets' plain-text fallbacks are missing"


def test_teaching_notebook_has_no_volatile_outputs():
    """No temporary path or timing metadata that would make the stored notebook churn."""
    notebook = _read(TEACHING)
    for cell in _code_cells(notebook):
        assert "execution" not in cell.metadata, "execute with record_timing=False"
        text = _text_outputs(cell)
        for volatile in ("/tmp/", "/var/folders/", "\\Temp\\"):
            assert volatile not in text, f"temporary path in an output:\n{text}"


def test_teaching_notebook_contents_lists_every_section():
    notebook = _read(TEACHING)
    intro = notebook.cells[0].source
    contents = intro[intro.index("**Contents**") :]
    sections = [
        heading
        for cell in notebook.cells
        if cell.cell_type == "markdown"
        for heading in re.findall(r"^## (.+)$", cell.source, flags=re.MULTILINE)
    ]
    assert len(sections) >= 8
    for position, heading in enumerate(sections, start=1):
        title = re.sub(r"^\d+\. ", "", heading)
        assert f"\n{position}. [{title}" in contents, f"Contents lacks section {heading!r}"
        anchor = "#" + heading.replace(" ", "-")  # JupyterLab's and nbconvert's anchors
        assert f"]({anchor})" in contents, f"Contents does not link {heading!r}"


def _kernel_language_info() -> dict:
    """What the kit's kernel (ipykernel in this environment) reports as ``language_info``."""
    from ipykernel.ipkernel import IPythonKernel

    return dict(IPythonKernel.language_info)


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.name)
def test_notebooks_open_unmodified_in_jupyterlab(path):
    """JupyterLab marks a notebook modified on opening when its kernel's metadata differ
    from the stored ones (kernelspec, language_info) or when a cell's ``outputs_hidden``
    lacks the matching legacy ``collapsed``: store them as JupyterLab would write them."""
    from jupyter_client.kernelspec import KernelSpecManager

    notebook = _read(path)
    spec = KernelSpecManager().get_kernel_spec("python3")
    assert notebook.metadata.kernelspec == {
        "display_name": spec.display_name,
        "language": spec.language,
        "name": "python3",
    }
    stored = dict(notebook.metadata.language_info)
    reported = _kernel_language_info()
    # the Python patch release is the machine's: another one marks the notebook modified
    assert stored.pop("version").split(".")[:2] == reported.pop("version").split(".")[:2]
    assert stored == reported
    for cell in notebook.cells:
        hidden = cell.metadata.get("jupyter", {}).get("outputs_hidden")
        assert hidden is None or cell.metadata.get("collapsed") is hidden, cell.source
