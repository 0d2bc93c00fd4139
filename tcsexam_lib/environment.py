"""The environment an output was made in: Python, platform, the lock's sha256, the versions
of the packages on its computation path; and how two environments differ.

No timestamp, host or path: two runs in one environment record the same bytes.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from functools import cache
from pathlib import Path
from typing import Annotated, Any, NamedTuple

from .digests import sha256_file, sha256_text
from .documents import Doc, Record, Sha256

#: The lock file, in the kit's checkout: every package of the environment, pinned.
LOCK_FILE = "requirements.lock"
#: Where ``make`` records, inside the environment (``sys.prefix``), the sha256 of the
#: lock file the environment was installed from.
LOCK_RECORD = "tcsexam-lock.sha256"

_NUMBERS = ("numpy", "scipy")
_JSON = ("fastjsonschema", "msgspec")
#: The packages whose version can change an output's bytes, by what computed it (the
#: library function recorded as the provenance's ``entry_point``, or ``report`` for the
#: report runner's pages and ``run-set.json``).
COMPUTATION_PATH: dict[str, tuple[str, ...]] = {
    "run_solver_score": (*_NUMBERS, *_JSON),
    "run_score": _JSON,
    "run_stats": (*_NUMBERS, *_JSON),
    "run_model_index": _JSON,
    "report": (
        *_NUMBERS,
        *_JSON,
        "pandas",
        "matplotlib",
        "pillow",
        "pyyaml",
        "papermill",
        "nbclient",
        "nbformat",
        "nbconvert",
        "jinja2",
        "mistune",
        "pygments",
        "jupyterlab-pygments",
        "ipykernel",
        "ipython",
        "jupyter-client",
        "traitlets",
        "itables",
        "ipywidgets",
    ),  # fmt: skip
}


class Environment(Record):
    """The environment recorded in an output's provenance (and in ``run-set.json``).

    >>> env = Environment({"python": "3.11.7", "implementation": "CPython",
    ...     "platform": "linux-x86_64", "lock_sha256": None, "packages": {"numpy": "2.4.6"}})
    >>> env.python, env.packages["numpy"]
    ('3.11.7', '2.4.6')
    """

    SCHEMA = ("provenance", "/$defs/environment")
    DESCRIPTION = (
        "the environment an output was computed in: Python, platform, the lock's sha256, "
        "the versions of the packages on its computation path"
    )
    python: Annotated[str, Doc("the Python version, e.g. 3.11.7")]
    implementation: Annotated[str, Doc("the Python implementation, e.g. CPython")]
    platform: Annotated[str, Doc("operating system and machine, e.g. linux-x86_64")]
    lock_sha256: Annotated[
        Sha256 | None,
        Doc(
            "the sha256 of the lock file the environment was installed from, or null (not "
            "installed from the kit's lock)"
        ),
    ]
    packages: Annotated[
        dict[str, str | None],
        Doc("package name (normalised) -> installed version, or null (not installed)"),
    ]


def normalize_name(name: str) -> str:
    """A package name as PyPI compares names (PEP 503).

    >>> normalize_name("Jupyter_Client"), normalize_name("python.rapidjson")
    ('jupyter-client', 'python-rapidjson')
    """
    return re.sub(r"[-_.]+", "-", name).lower()


@cache
def _dist_info_versions() -> dict[str, str]:
    """Every installed version from ``.dist-info`` names on ``sys.path`` (first wins)."""
    found: dict[str, str] = {}
    for entry in sys.path:
        if not entry or not os.path.isdir(entry):
            continue  # the working folder is not where an environment's packages live
        try:
            names = os.listdir(entry)
        except OSError:
            continue
        for name in names:
            if name.endswith(".dist-info"):
                package, _, version = name[: -len(".dist-info")].partition("-")
                if version[:1].isdigit():  # names are escaped: "-" written "_"
                    name = normalize_name(package)
                    found.setdefault(name, version)
    return found


def package_version(name: str) -> str | None:
    """The installed version of package ``name`` (``None`` when it is not installed).

    >>> package_version("numpy") == __import__("numpy").__version__
    True
    >>> package_version("no-such-package-here") is None
    True
    """
    version = _dist_info_versions().get(normalize_name(name))
    if version is not None:
        return version
    from importlib import metadata  # an egg-info or a zipped install: the slow way

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def installed_lock_sha256(prefix: str | os.PathLike[str] | None = None) -> str | None:
    """The sha256 of the lock this environment (``prefix``) was installed from, or ``None``."""
    path = Path(sys.prefix if prefix is None else prefix, LOCK_RECORD)
    try:
        text = path.read_text(encoding="utf-8").split()
    except (OSError, UnicodeDecodeError):
        return None
    digest = text[0] if text else ""
    return digest if re.fullmatch(r"[0-9a-f]{64}", digest) else None


def record_installed_lock(lock: str | os.PathLike[str], prefix: str | None = None) -> Path:
    """Record in the environment (``prefix``) the sha256 of the lock it was installed from."""
    path = Path(sys.prefix if prefix is None else prefix, LOCK_RECORD)
    path.write_text(f"{sha256_file(lock)}  {Path(lock).name}\n", encoding="utf-8")
    return path


class EnvironmentDifference(NamedTuple):
    """One difference from a recorded environment (a named tuple: cheap to make at start-up)."""

    what: str  # python, implementation, platform, lock, or "package NAME"
    recorded: str | None
    current: str | None

    @property
    def package(self) -> str | None:
        """The package's name when the difference is a package's version."""
        return self.what.removeprefix("package ") if self.what.startswith("package ") else None

    def __str__(self) -> str:
        def shown(value: str | None) -> str:
            return "(none)" if value is None else value

        return f"{self.what}: recorded {shown(self.recorded)}, current {shown(self.current)}"


#: A pin of the lock: ``name==version`` and its marker (``; python_version < '3.12'``).
_PIN = r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$"


def locked_versions(
    lock: str | os.PathLike[str], marker_environment: dict[str, str] | None = None
) -> dict[str, str]:
    """The lock's pins whose marker holds for this interpreter (``marker_environment``
    overrides marker variables to read it for another).

    >>> import pathlib, tempfile
    >>> lock = pathlib.Path(tempfile.mkdtemp(), "requirements.lock")
    >>> _ = lock.write_text("numpy==2.4.6 \\\\\\n    --hash=sha256:00\\n"
    ...     "colorama==0.4.6 ; sys_platform == 'win32' \\\\\\n    --hash=sha256:11\\n")
    >>> locked_versions(lock, {"sys_platform": "linux"})
    {'numpy': '2.4.6'}
    """
    from packaging.markers import Marker

    pins = {}
    for line in Path(lock).read_text(encoding="utf-8").splitlines():
        match = re.match(_PIN, line)
        if match is None:
            continue
        name, version, marker = match.groups()
        if marker and not Marker(marker).evaluate(marker_environment):
            continue
        pins[normalize_name(name)] = version
    return pins


def lock_differences(lock: str | os.PathLike[str]) -> list[EnvironmentDifference]:
    """Each locked package installed at another version or not at all (``package NAME``)."""
    return [
        EnvironmentDifference(f"package {name}", version, installed)
        for name, version in sorted(locked_versions(lock).items())
        if (installed := package_version(name)) != version
    ]


def describe_environment(path: str = "report") -> dict[str, Any]:
    """The environment block of an output computed by ``path`` (a :data:`COMPUTATION_PATH` key).

    >>> env = describe_environment("run_score")
    >>> sorted(env)
    ['implementation', 'lock_sha256', 'packages', 'platform', 'python']
    >>> sorted(env["packages"])
    ['fastjsonschema', 'msgspec']
    """
    import platform

    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": f"{sys.platform}-{platform.machine().lower()}",
        "lock_sha256": installed_lock_sha256(),
        "packages": {name: package_version(name) for name in sorted(COMPUTATION_PATH[path])},
    }


def environment_differences(
    recorded: dict[str, Any] | None, current: dict[str, Any]
) -> list[EnvironmentDifference]:
    """Every difference from a recorded environment: Python, implementation, platform,
    the lock, then each package either side names, by name.

    >>> old = {"python": "3.11.7", "implementation": "CPython", "platform": "linux-x86_64",
    ...        "lock_sha256": "a" * 64, "packages": {"numpy": "2.4.6", "scipy": "1.17.1"}}
    >>> new = dict(old, packages={"numpy": "2.4.6", "scipy": "1.18.0"})
    >>> [str(d) for d in environment_differences(old, new)]
    ['package scipy: recorded 1.17.1, current 1.18.0']
    """
    recorded_env = Environment(recorded or {})
    current_env = Environment(current)
    found = [
        EnvironmentDifference(what, recorded_env.get(key), current_env.get(key))
        for what, key in (
            ("python", "python"),
            ("implementation", "implementation"),
            ("platform", "platform"),
            ("lock", "lock_sha256"),
        )
        if recorded_env.get(key) != current_env.get(key)
    ]
    old = recorded_env.get("packages") or {}
    new = dict(current_env.get("packages") or {})
    for name in sorted(set(old) | set(new)):
        now = new[name] if name in new else package_version(name)
        if old.get(name) != now:
            found.append(EnvironmentDifference(f"package {name}", old.get(name), now))
    return found


def _main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m tcsexam_lib.environment",
        description="Record in this environment the lock file it was installed from.",
    )
    parser.add_argument("--installed-from", metavar="LOCK", required=True)
    args = parser.parse_args(argv)
    record_installed_lock(args.installed_from)
    return 0


if __name__ == "__main__":
    raise SystemExit(_main())


# --- what the report runner's reuse of stored pages depends on --------------------------


def environment_fingerprint() -> str:
    """The sha256 of the report's environment: a stored page is made again when it changes.

    >>> len(environment_fingerprint())
    64
    """
    import json

    return sha256_text(json.dumps(describe_environment("report"), sort_keys=True))


@cache
def kit_fingerprint() -> str:
    """The sha256 of the kit's version, code and published schemas (a change without a
    new version still counts).

    >>> kit_fingerprint() == kit_fingerprint() and len(kit_fingerprint())
    64
    """
    from .paths import KIT_ROOT
    from .version import VERSION

    digest = hashlib.sha256(f"tcsexam-kit {VERSION}\n".encode())
    package = Path(__file__).resolve().parent
    schemas = sorted((KIT_ROOT / "references" / "schemas").glob("*.json"))
    for path in [*sorted(package.rglob("*.py")), *schemas]:
        digest.update(path.relative_to(KIT_ROOT).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()
