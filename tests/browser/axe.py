"""axe-core, the accessibility engine the browser tier audits every kind of page with.

The kit does not ship axe-core (MPL-2.0): ``make test-browser`` fetches one pinned release
from the npm registry (``python tests/browser/axe.py``), checks the tarball against the
registry's sha512 integrity written here, and keeps its ``axe.min.js`` inside ``.venv``
(the kit's own environment, made by ``make``). No npm is needed; nothing else is fetched.
"""

from __future__ import annotations

import base64
import hashlib
import io
import sys
import tarfile
import urllib.request
from pathlib import Path
from typing import Any

VERSION = "4.14.1"
TARBALL = f"https://registry.npmjs.org/axe-core/-/axe-core-{VERSION}.tgz"
#: The npm registry's ``dist.integrity`` of that tarball.
INTEGRITY = (
    "sha512-"
    "FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="
)
#: Where the script is kept (inside the kit's .venv, made by make).
SCRIPT = Path(sys.prefix) / "share" / f"axe-core-{VERSION}" / "axe.min.js"
#: The WCAG 2.1 level AA rules (axe's tags).
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def violations(page: Any) -> list[str]:
    """What axe-core finds against WCAG 2.1 AA on ``page`` (a Playwright page): one line
    per rule broken, with its first places."""
    page.add_script_tag(path=str(fetch_axe()))
    found = page.evaluate(
        "async tags => (await axe.run(document, {runOnly: {type: 'tag', values: tags}}))"
        ".violations.map(v => `${v.id} (${v.impact}): ${v.help}: ` + v.nodes.slice(0, 3)"
        ".map(n => `${n.target.join(' ')}: ${n.failureSummary}`).join(' | '))",
        WCAG_21_AA,
    )
    return list(found)


def integrity_of(data: bytes) -> str:
    """The npm ``integrity`` string (``sha512-<base64>``) of ``data``.

    >>> integrity_of(b"")[:20]
    'sha512-z4PhNX7vuL3xV'
    """
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")


def fetch_axe(target: Path = SCRIPT) -> Path:
    """``axe.min.js`` of :data:`VERSION` at ``target``, fetched once and checked."""
    if target.is_file():
        return target
    with urllib.request.urlopen(TARBALL, timeout=120) as response:
        data = response.read()
    found = integrity_of(data)
    if found != INTEGRITY:
        raise RuntimeError(f"{TARBALL}: integrity {found}, expected {INTEGRITY}")
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        script = archive.extractfile("package/axe.min.js")
        licence = archive.extractfile("package/LICENSE")
        assert script is not None and licence is not None
        target.parent.mkdir(parents=True, exist_ok=True)
        (target.parent / "LICENSE").write_bytes(licence.read())
        partial = target.with_suffix(".part")
        partial.write_bytes(script.read())
        partial.replace(target)
    return target


if __name__ == "__main__":
    print(fetch_axe())
