"""The environment's kernelspec (``reports/kernelspec.py``): papermill run directly and
JupyterLab start the kit's launcher, the kernel that stops cleanly."""

from __future__ import annotations

import json

import nbformat
import papermill

from tcsexam_lib.reports.kernelspec import IPYKERNEL_LAUNCHER, KIT_LAUNCHER, install_kernelspec


def test_the_kernelspec_names_the_kits_launcher_and_ipykernels_names(tmp_path):
    folder = install_kernelspec(str(tmp_path))
    spec = json.loads((folder / "kernel.json").read_text())
    assert folder.name == "python3" and spec["display_name"] == "Python 3 (ipykernel)"
    assert spec["argv"][spec["argv"].index("-m") + 1] == KIT_LAUNCHER
    back = install_kernelspec(str(tmp_path), IPYKERNEL_LAUNCHER)
    assert IPYKERNEL_LAUNCHER in json.loads((back / "kernel.json").read_text())["argv"]


def test_papermill_run_directly_starts_the_kits_launcher(tmp_path):
    """The environment's python3 kernelspec, as make venv installs it."""
    cell = nbformat.v4.new_code_cell("import sys\nprint(sys.argv[0])")
    notebook = nbformat.v4.new_notebook(cells=[cell])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nbformat.write(notebook, tmp_path / "argv.ipynb")
    papermill.execute_notebook(
        str(tmp_path / "argv.ipynb"), str(tmp_path / "out.ipynb"), progress_bar=False
    )
    out = nbformat.read(tmp_path / "out.ipynb", as_version=4)
    assert out.cells[0].outputs[0]["text"].strip().endswith("reports/kernel_launch.py")
