"""What runs the kit: the environment and the kit's own code, each as one digest.

A published page depends on more than its inputs: on the Python and the libraries that
executed its notebook and rendered it (pandas, matplotlib, nbconvert...), and on the kit's
own code (its views). The report runner reuses a stored page only when both are what they
were (see :mod:`tcsexam_lib.reports.reuse`):

- :func:`environment_fingerprint`: the Python (implementation and version), the platform
  and every installed distribution with its version. It is the one definition of "the
  environment" for reuse; point it at a recorded environment (a lock file) by changing
  :func:`environment_description` alone.
- :func:`kit_fingerprint`: the kit's version and the bytes of its code and schemas, so
  that a kit changed without a new version number still counts as changed.
"""

from __future__ import annotations

import hashlib
import json
import platform
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from .paths import KIT_ROOT
from .version import VERSION


@lru_cache(maxsize=1)
def environment_description() -> dict[str, Any]:
    """The Python, the platform and every installed distribution (``name-version``).

    The distributions are read from the names of their ``.dist-info`` (and ``.egg-info``)
    folders on ``sys.path``, which hold name and version (reading every one's metadata
    takes a second).

    Examples
    --------
    >>> described = environment_description()
    >>> described["python"].startswith(platform.python_implementation())
    True
    >>> any(d.startswith("tcsexam_kit-") for d in described["distributions"])
    True
    """
    distributions = sorted(
        {
            entry.name.rsplit(".", 1)[0].lower()
            for folder in map(Path, sys.path)
            if folder.is_dir()
            for entry in folder.iterdir()
            if entry.name.endswith((".dist-info", ".egg-info"))
        }
    )
    return {
        "python": f"{platform.python_implementation()} {sys.version.split()[0]}",
        "platform": f"{sys.platform} {platform.machine()}",
        "distributions": distributions,
    }


def environment_fingerprint() -> str:
    """The sha256 of :func:`environment_description` (the environment that runs notebooks).

    Examples
    --------
    >>> len(environment_fingerprint())
    64
    """
    text = json.dumps(environment_description(), sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@lru_cache(maxsize=1)
def kit_fingerprint() -> str:
    """The sha256 of the kit's version, code (``tcsexam_lib/**/*.py``) and published schemas.

    Examples
    --------
    >>> kit_fingerprint() == kit_fingerprint() and len(kit_fingerprint())
    64
    """
    digest = hashlib.sha256(f"tcsexam-kit {VERSION}\n".encode())
    package = Path(__file__).resolve().parent
    files = [*sorted(package.rglob("*.py")), *sorted((KIT_ROOT / "references" / "schemas").glob(
        "*.json"))]  # fmt: skip
    for path in files:
        digest.update(path.relative_to(KIT_ROOT).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()
