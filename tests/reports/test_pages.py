"""The kit's HTML exporter (``reports/pages.py``): nbconvert's ``HTMLExporter`` without its
BeautifulSoup pass, giving the same document, and nbconvert's own exporter, said loudly,
when nbconvert no longer does what the kit redoes."""

from __future__ import annotations

import warnings

import nbformat
import pytest
from bs4 import BeautifulSoup
from jinja2 import DictLoader
from nbconvert import HTMLExporter

from tcsexam_lib.internals import LibraryWarning
from tcsexam_lib.reports import pages

RESOURCES = {
    "metadata": {"name": "a page"},
    "tcs_assets": "_assets",
    "tcs_nav": "<a href='index.html'>run set</a>",
    "tcs_footer": "footer",
    "tcs_environment": "",
    "tcs_default_alt": "A chart (no description given)",
}
# a 1x1 PNG
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/"
    "iZk9HQAAAABJRU5ErkJggg=="
)


def _notebook() -> nbformat.NotebookNode:
    v4 = nbformat.v4
    code = v4.new_code_cell("print('x')\n1 + 1", execution_count=1)
    figure = {"image/png": PNG, "text/plain": "<Figure>"}
    code.outputs = [
        v4.new_output("stream", name="stdout", text="x\n"),
        v4.new_output("execute_result", {"text/plain": "2", "text/html": "<b>2</b>"}),
        v4.new_output("display_data", figure, metadata={"image/png": {"alt": "a dot"}}),
        v4.new_output("display_data", figure),
    ]
    notebook = v4.new_notebook(cells=[v4.new_markdown_cell("# Title\n\nSome *text*."), code])
    notebook.metadata["language_info"] = {"name": "python", "pygments_lexer": "ipython3"}
    return notebook


NOTEBOOK = _notebook()


def _page(exporter) -> str:
    return exporter.from_notebook_node(NOTEBOOK, resources=dict(RESOURCES))[0]


def test_the_kit_page_is_nbconverts_document_without_its_second_pass():
    templates = DictLoader({"tcsexam.html.j2": pages.PAGE_TEMPLATE})
    theirs = HTMLExporter(
        template_name="lab", template_file="tcsexam.html.j2", extra_loaders=[templates]
    )
    ours = _page(pages._exporter())
    assert type(pages._exporter()) is not HTMLExporter  # the kit's exporter is in use
    assert str(BeautifulSoup(ours, "html.parser")) == str(
        BeautifulSoup(_page(theirs), "html.parser")
    )
    assert ours.count('tabindex="0"') == 6  # the two cells' inputs, the four outputs
    assert 'alt="a dot"' in ours and 'alt="A chart (no description given)"' in ours


@pytest.mark.parametrize("names", [
    pages._HTML_EXPORTER_NAMES | {"gone"},  # a name it no longer refers to
    pages._HTML_EXPORTER_NAMES - {"register_filter"},  # a name the kit does not know
])  # fmt: skip
def test_nbconvert_that_changed_what_is_redone_is_used_as_it_is(monkeypatch, names):
    monkeypatch.setattr(pages, "_HTML_EXPORTER_NAMES", frozenset(names))
    pages._exporter_class.cache_clear()
    try:
        said = r"no longer does just .* \(names changed: (gone|register_filter)\); pages are"
        with pytest.warns(LibraryWarning, match=said):
            assert pages._exporter_class() is HTMLExporter
    finally:
        monkeypatch.undo()
        pages._exporter_class.cache_clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert pages._exporter_class() is not HTMLExporter
