"""Loud assumptions: every place the kit leans on another library's internals checks them.

Each check runs on the installed (locked) library and says nothing; on a stand-in that
lacks what the kit relies on, or on an untested version, it warns or refuses, naming the
library, its version and what the kit loses. The tested version ranges hold the lock's
versions (a lock moved to another release must be tested again, and the range moved).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import ipykernel
import IPython
import jupyter_client
import pytest
from ipykernel.kernelapp import IPKernelApp
from jupyter_client.manager import AsyncKernelManager

from tcsexam_lib.environment import LOCK_FILE, locked_versions
from tcsexam_lib.internals import LibraryChanged, LibraryWarning, untested_version
from tcsexam_lib.reports import kernel_client, kernel_launch
from tcsexam_lib.views import notebook

LOCK = Path(__file__).resolve().parent.parent / LOCK_FILE


@pytest.mark.parametrize(
    ("version", "tested", "untested"),
    [
        ("7.4.0", ("7.4", "7.5"), False),
        ("7.4.12", ("7.4", "7.5"), False),
        ("7.5.0", ("7.4", "7.5"), True),
        ("7.3.9", ("7.4", "7.5"), True),
        ("8.10.0rc1", ("8.9", "8.11"), False),
        ("10.0", ("8.9", "8.11"), True),
    ],
)
def test_a_version_is_tested_within_its_range(version, tested, untested):
    assert (untested_version("lib", version, tested) is not None) == untested


def test_the_tested_ranges_hold_the_locked_versions():
    locked = locked_versions(LOCK)
    assert (
        untested_version("ipykernel", locked["ipykernel"], kernel_launch.TESTED_IPYKERNEL) is None
    )
    assert (
        untested_version(
            "jupyter_client", locked["jupyter-client"], kernel_client.TESTED_JUPYTER_CLIENT
        )
        is None
    )


# --- ipykernel: the launcher's channel threads -------------------------------------------


def test_the_installed_ipykernel_has_what_the_launcher_stops():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert kernel_launch.check_ipykernel(IPKernelApp, ipykernel.__version__) == []


class _AppWithoutShellThread:
    control_thread = None


class _AppWithoutThreads:
    pass


@pytest.mark.parametrize(
    ("app", "missing"),
    [
        (_AppWithoutShellThread, ["shell_channel_thread"]),
        (_AppWithoutThreads, ["control_thread", "shell_channel_thread"]),
    ],
)
def test_an_ipykernel_without_a_channel_thread_is_named_and_the_fix_said_off(app, missing):
    with pytest.warns(LibraryWarning, match=r"^ipykernel 7\.4\.0 has no IPKernelApp\.") as caught:
        assert kernel_launch.check_ipykernel(app, "7.4.0") == missing
    text = str(caught[0].message)
    assert all(f"IPKernelApp.{name}" in text for name in missing)
    assert "that fix is OFF" in text and "kernel_launch.py" in text


def test_an_untested_ipykernel_is_warned_about():
    with pytest.warns(LibraryWarning, match=r"ipykernel 8\.0\.0 is not a version the kit was"):
        assert kernel_launch.check_ipykernel(IPKernelApp, "8.0.0") == []


# --- jupyter_client: the kernel manager's overrides --------------------------------------


def test_the_installed_jupyter_client_has_and_calls_what_the_manager_overrides():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kernel_client.check_jupyter_client(AsyncKernelManager, jupyter_client.__version__)


def _calling(*names: str):
    """An async method whose code calls ``self.<name>()`` for each name, and no other."""
    body = "".join(f"    await self.{name}()\n" for name in names) or "    pass\n"
    namespace: dict = {}
    exec(f"async def method(self):\n{body}", namespace)
    return namespace["method"]


def _manager(drop: str = "", uncalled: str = "") -> type:
    """A stand-in for jupyter_client's KernelManager, one private method gone or uncalled."""
    calls = {
        caller: [n for n, c in kernel_client.OVERRIDDEN.items() if c == caller and n != uncalled]
        for caller in kernel_client.OVERRIDDEN.values()
    }
    members = {"shutting_down": False, **{n: _calling() for n in kernel_client.OVERRIDDEN}}
    members |= {caller: _calling(*names) for caller, names in calls.items()}
    members.pop(drop, None)
    return type("Manager", (), members)


def test_the_stand_in_manager_passes_as_the_real_one_does():
    kernel_client.check_jupyter_client(_manager(), "8.10.0")


@pytest.mark.parametrize("name", list(kernel_client.OVERRIDDEN) + ["_async_shutdown_kernel"])
def test_a_jupyter_client_without_an_overridden_method_is_refused(name):
    with pytest.raises(LibraryChanged, match=rf"^jupyter_client 9\.0\.0 has no .*{name}"):
        kernel_client.check_jupyter_client(_manager(drop=name), "9.0.0")


@pytest.mark.parametrize("name", list(kernel_client.OVERRIDDEN))
def test_a_jupyter_client_that_no_longer_calls_an_overridden_method_is_refused(name):
    caller = kernel_client.OVERRIDDEN[name]
    with pytest.raises(LibraryChanged, match=rf"KernelManager\.{caller} calling {name}: "):
        kernel_client.check_jupyter_client(_manager(uncalled=name), "8.10.0")


def test_an_untested_jupyter_client_is_warned_about():
    with pytest.warns(LibraryWarning, match=r"^jupyter_client 9\.1\.0 is not a version"):
        kernel_client.check_jupyter_client(_manager(), "9.1.0")


# --- IPython: the notebooks' one-line errors ---------------------------------------------


class _ShellWithoutHook:
    def set_custom_exc(self, *_):
        raise AssertionError("no handler may be set without IPython's _showtraceback")


def test_a_shell_without_ipythons_traceback_hook_is_named_and_left_alone(monkeypatch):
    import IPython as ipython_module

    monkeypatch.setattr(ipython_module, "get_ipython", lambda: _ShellWithoutHook())
    with pytest.warns(LibraryWarning, match=rf"^IPython {IPython.__version__} has no "):
        notebook.one_line_errors()


def test_ipythons_shell_has_the_traceback_hook():
    from IPython.core.interactiveshell import InteractiveShell

    assert hasattr(InteractiveShell, "_showtraceback")


def _run_python(code: str, *path: str) -> str:
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([*path, os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-W", "always", "-c", code], env=env, text=True,
                          capture_output=True, check=True)  # fmt: skip
    return done.stdout + done.stderr


def test_jsonschema_is_imported_without_the_iri_grammar_which_stays_importable():
    out = _run_python(
        "import sys; from tcsexam_lib.internals import import_jsonschema\n"
        "js = import_jsonschema(); print(js.__name__, 'rfc3987_syntax' in sys.modules)\n"
        "import rfc3987_syntax; print(rfc3987_syntax.__name__)"
    )
    assert out.split() == ["jsonschema", "False", "rfc3987_syntax"]


def test_a_jsonschema_that_needs_the_grammar_is_imported_with_it_and_said(tmp_path):
    (tmp_path / "jsonschema").mkdir()
    (tmp_path / "jsonschema" / "__init__.py").write_text("import rfc3987_syntax\n")
    (tmp_path / "rfc3987_syntax.py").write_text("")
    out = _run_python(
        "from tcsexam_lib.internals import import_jsonschema\nprint(import_jsonschema().__file__)",
        str(tmp_path),
    )
    assert str(tmp_path / "jsonschema") in out
    assert "LibraryWarning: jsonschema needs rfc3987_syntax" in out
    assert "waits about 1.3 s" in out


def test_no_schema_of_the_kit_names_a_format_so_the_grammar_is_never_needed():
    import json

    from tcsexam_lib.paths import schema_path

    def formats(node):
        if isinstance(node, dict):
            yield from (["format"] if isinstance(node.get("format"), str) else [])
            for value in node.values():
                yield from formats(value)
        elif isinstance(node, list):
            for value in node:
                yield from formats(value)

    folder = schema_path("index-output").parent
    schemas = sorted(folder.glob("*.schema.json"))
    assert len(schemas) >= 5
    assert [p.name for p in schemas if list(formats(json.loads(p.read_text())))] == []
