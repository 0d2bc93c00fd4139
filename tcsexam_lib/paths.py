"""Where the kit finds references and suites (``references_dir``, ``$TCSEXAM_REFERENCES``,
else its own ``references/``) and its schemas (always its own ``references/schemas/``)."""

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
    """The folder of suites and references: the argument, ``$TCSEXAM_REFERENCES``, the kit's."""
    if references_dir is not None:
        return Path(references_dir)
    from_env = os.environ.get(REFERENCES_ENV)
    if from_env:
        return Path(from_env)
    return kit_references_dir()


def schema_path(name: str) -> Path:
    """Path of the published schema ``references/schemas/<name>.schema.json``."""
    return kit_references_dir() / "schemas" / f"{name}.schema.json"
