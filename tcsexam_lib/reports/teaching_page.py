"""The teaching notebook (stored executed) as ``teaching.html``, readable offline, with formulas.

MathJax 3 is copied from the ``django-static-mathjax`` package, never fetched (docs/teaching.md,
"The page that reads offline"); the page's bytes depend only on the notebook and the kit.
"""

from __future__ import annotations

import functools
import html
import importlib.util
import json
import os
from pathlib import Path

from ..digests import sha256_text
from ..environment import describe_environment
from ..errors import TcsexamError
from ..outputfiles import write_text_atomic
from ..paths import KIT_ROOT
from .pages import PAGE_TEMPLATE, environment_html, html_exporter, write_assets
from .publish import ASSETS, ensure_real_folder, make_output_folder

#: The committed teaching notebook and the page it becomes.
TEACHING_NOTEBOOK = KIT_ROOT / "notebooks" / "teaching.ipynb"
TEACHING_PAGE = "teaching.html"
#: Where MathJax goes in the assets, and the MathJax build used.
MATHJAX_FOLDER = "mathjax"
MATHJAX_BUILD = "tex-svg-full.js"
#: The MathJax major version the page's configuration is written for, and the names its
#: ``package.json`` goes by (the package ships the ``mathjax-full`` source tree).
MATHJAX_MAJOR = 3
MATHJAX_NAMES = ("mathjax", "mathjax-full")

TEACHING_CSS = """
.tcs-teaching main{max-width:60em;margin:0 auto;padding:0 0.6em}
.tcs-teaching main .jp-CodeCell .jp-Cell-inputWrapper{display:flex}
.tcs-teaching main .tcs-folded .jp-CodeCell .jp-Cell-inputWrapper{display:none}
.tcs-teaching .jp-OutputArea-output pre{overflow-x:auto;white-space:pre;overflow-wrap:normal}
.tcs-teaching .jp-InputArea-editor pre{white-space:pre-wrap;overflow-wrap:anywhere}
.tcs-teaching .jp-OutputArea-output{overflow-x:auto;max-width:100%}
.tcs-teaching mjx-container[display="true"]{overflow-x:auto;overflow-y:hidden;max-width:100%}
.tcs-teaching mjx-container svg{max-width:none}
.tcs-teaching .jp-RenderedMarkdown table{display:block;overflow-x:auto;max-width:100%}
.tcs-teaching .tcs-scrolls:focus{outline:2px solid #0072B2}
.tcs-teaching .jp-RenderedMarkdown a{text-decoration:underline}
.tcs-teaching .tcs-static{padding:6px 12px;margin:8px 0;border-left:6px solid #0072B2;
background:#f2f7fb}
.tcs-teaching details summary{cursor:pointer}
"""

#: The page's template: the report pages' (:data:`~.pages.PAGE_TEMPLATE`) with the teaching
#: CSS instead of the tables', a local MathJax, folded solutions and no table script.
_TEMPLATE = """{%- extends 'tcsexam.html.j2' -%}
{%- block notebook_css -%}
<link rel="stylesheet" href="{{ resources.tcs_assets }}/notebook.css">
<link rel="stylesheet" href="{{ resources.tcs_assets }}/report.css">
<link rel="stylesheet" href="{{ resources.tcs_assets }}/teaching.css">
{%- endblock notebook_css -%}
{%- block html_head_js_mathjax -%}
<script>
window.MathJax = {
  tex: {inlineMath: [["$", "$"], ["\\\\(", "\\\\)"]],
        displayMath: [["$$", "$$"], ["\\\\[", "\\\\]"]], processEscapes: true},
  svg: {fontCache: "global"},
  options: {skipHtmlTags: ["script", "noscript", "style", "textarea", "pre", "code"]}
};
</script>
<script defer src="{{ resources.tcs_assets }}/mathjax/tex-svg-full.js"></script>
{%- endblock html_head_js_mathjax -%}
{%- block body_header -%}
<body class="jp-Notebook tcs-page tcs-teaching" data-jp-theme-light="true"
 data-jp-theme-name="JupyterLab Light">
<nav class="tcs-nav">{{ resources.tcs_nav }}</nav>
<main>
<p class="tcs-static">{{ resources.tcs_note }}</p>
{%- endblock body_header -%}
{% block codecell %}
{%- if cell.metadata.get("jupyter", {}).get("source_hidden") -%}
<div class="tcs-folded">{{ super() }}</div>
{%- else -%}
{{ super() }}
{%- endif -%}
{%- endblock codecell %}
{% block body_footer %}
{{ resources.tcs_environment }}
</main>
<footer class="tcs-footer">{{ resources.tcs_footer }}</footer>
<script>{{ resources.tcs_scroll_script }}</script>
</body>
{% endblock body_footer %}
{% block footer_js %}
{% endblock footer_js %}
"""

#: Formulas, outputs and tables keep their size and columns on a phone and scroll sideways
#: instead: each box that does scroll is made reachable by the keyboard (after MathJax).
_SCROLL_SCRIPT = (
    "window.addEventListener('load',()=>(window.MathJax&&MathJax.startup?MathJax.startup.promise"
    ':Promise.resolve()).then(()=>document.querySelectorAll(\'mjx-container[display="true"],'
    ".jp-OutputArea-output pre,.jp-RenderedMarkdown table').forEach(e=>{if(e.scrollWidth>"
    "e.clientWidth+1){e.tabIndex=0;e.classList.add('tcs-scrolls');e.setAttribute('role',"
    "'region');e.setAttribute('aria-label','scrolls sideways')}})));"
)

_NOTE = (
    "A static copy of the kit's teaching notebook (notebooks/teaching.ipynb), as it is "
    "stored: its numbers are the ones <code>make test-nbval</code> checks. The sliders "
    "show their starting values as text, and the answer cells cannot run here: open the "
    "notebook in JupyterLab (<code>make lab</code>, then <i>Run ▸ Run All Cells</i>) to "
    "move the sliders and have your answers checked. Each exercise's solution is folded "
    "below it."
)


def mathjax_files() -> tuple[Path, Path]:
    """MathJax's build and licence as ``django-static-mathjax`` installs them; else
    :class:`~tcsexam_lib.errors.TcsexamError` naming what is missing (no raw TeX pages).

    >>> build, licence = mathjax_files()
    >>> build.name, licence.name
    ('tex-svg-full.js', 'LICENSE')
    """
    fix = "run `make venv` (pyproject.toml installs django-static-mathjax, MathJax 3)"
    spec = importlib.util.find_spec("mathjax")
    locations = list(spec.submodule_search_locations or []) if spec else []
    if not locations:
        raise TcsexamError(f"MathJax is not installed: {fix}")
    root = Path(locations[0]) / "static" / "mathjax"
    build, licence, package = root / "es5" / MATHJAX_BUILD, root / "LICENSE", root / "package.json"
    missing = [str(p) for p in (build, licence, package) if not p.is_file()]
    if missing:
        raise TcsexamError(
            f"MathJax's files are not where django-static-mathjax kept them: "
            f"{', '.join(missing)} missing; {fix}"
        )
    about = json.loads(package.read_text(encoding="utf-8"))
    version = str(about.get("version", ""))
    if about.get("name") not in MATHJAX_NAMES or version.split(".")[0] != str(MATHJAX_MAJOR):
        raise TcsexamError(
            f"{package} describes {about.get('name')!r} {version!r}, not MathJax "
            f"{MATHJAX_MAJOR}.x, which the teaching page is configured for; {fix}"
        )
    return build, licence


def _write_if_changed(path: Path, text: str) -> None:
    if path.is_symlink() or not path.is_file() or path.read_text(encoding="utf-8") != text:
        write_text_atomic(path, text)


def write_teaching_assets(output: Path, unchanged: bool = False) -> Path:
    """Write ``<output>/_assets/`` for the teaching page (plus ``teaching.css``, ``mathjax/``);
    ``unchanged`` as for :func:`~.pages.write_assets`. Returns the folder."""
    folder = write_assets(output, unchanged=unchanged)
    _write_if_changed(folder / "teaching.css", TEACHING_CSS)
    mathjax = ensure_real_folder(folder / MATHJAX_FOLDER)
    for source in mathjax_files():
        _write_if_changed(mathjax / source.name, source.read_text(encoding="utf-8"))
    return folder


@functools.lru_cache(maxsize=4)
def _render(notebook_sha256: str, notebook_text: str, nav: str) -> str:
    import nbformat

    from ..provenance import kit_version

    notebook = nbformat.reads(notebook_text, as_version=4)
    title = notebook.cells[0].source.splitlines()[0].lstrip("# ").strip()
    resources = {
        "metadata": {"name": title},
        "tcs_assets": ASSETS,
        "tcs_nav": nav,
        "tcs_note": _NOTE,
        "tcs_scroll_script": _SCROLL_SCRIPT,
        "tcs_default_alt": "A chart of the teaching notebook (see the text above it)",
        "tcs_environment": environment_html(describe_environment("report")),
        "tcs_footer": f"TCSExam scoring kit {html.escape(kit_version())} · teaching "
        f"notebook sha256 <code>{notebook_sha256[:12]}</code>",
    }
    templates = {"tcsexam.html.j2": PAGE_TEMPLATE, "tcsexam-teaching.html.j2": _TEMPLATE}
    exporter = html_exporter("tcsexam-teaching.html.j2", templates)
    page, _ = exporter.from_notebook_node(notebook, resources=resources)
    return page


def write_teaching_page(
    output: str | os.PathLike[str],
    *,
    landing: bool = False,
    notebook: str | os.PathLike[str] = TEACHING_NOTEBOOK,
    unchanged: bool = False,
) -> Path:
    """Write ``<output>/teaching.html`` and its assets; return the page's path.

    ``landing``: link to the folder's ``index.html``. ``unchanged`` (same kit and
    environment): a page naming this notebook's sha256 and navigation is kept.
    """
    output = Path(output)
    make_output_folder(
        output, "tcsexam teaching-html --output", "a folder that exists or can be created"
    )
    text = Path(notebook).read_text(encoding="utf-8")
    digest = sha256_text(text)
    write_teaching_assets(output, unchanged=unchanged)
    path = output / TEACHING_PAGE
    nav = "<span class='tcs-here'>The teaching notebook (static copy)</span>"
    if landing:
        nav = f"<a href='index.html'>All reports</a> {nav}"
    if unchanged and path.is_file() and not path.is_symlink():
        page = path.read_text(encoding="utf-8")
        marks = (f"notebook sha256 <code>{digest[:12]}</code>", f'<nav class="tcs-nav">{nav}</nav>')
        if all(mark in page for mark in marks):  # this notebook, this navigation
            return path
    _write_if_changed(path, _render(digest, text, nav))
    return path
