"""Where the kit finds its references, suites and schemas.

Suites and references are looked up under the kit's own ``references/`` folder
unless ``references_dir`` is given or the environment variable
``TCSEXAM_REFERENCES`` names another folder. The JSON Schemas always come from the
kit itself (``references/schemas/``), whichever folder holds the data.
"""

from __future__ import annotations

import os
from pathlib import Path

#: The kit's checkout (the folder that holds ``tcsexam_lib/`` and ``references/``).
KIT_ROOT = Path(__file__).resolve().parent.parent

#: Environment variable that points every command at another references folder.
REFERENCES_ENV = "TCSEXAM_REFERENCES"


def kit_references_dir() -> Path:
    """The ``references/`` folder shipped with the kit."""
    return KIT_ROOT / "references"


def resolve_references_dir(references_dir: str | os.PathLike[str] | None = None) -> Path:
    """The folder to read suites and references from.

    Order: the explicit argument, then ``$TCSEXAM_REFERENCES``, then the kit's own.
    """
    if references_dir is not None:
        return Path(references_dir)
    from_env = os.environ.get(REFERENCES_ENV)
    if from_env:
        return Path(from_env)
    return kit_references_dir()


def schema_path(name: str) -> Path:
    """Path of the published schema ``references/schemas/<name>.schema.json``."""
    return kit_references_dir() / "schemas" / f"{name}.schema.json"
