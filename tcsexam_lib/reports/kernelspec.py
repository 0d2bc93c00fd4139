"""The environment's ``python3`` kernelspec, started through the kit's launcher.

``make venv`` installs it: ipykernel's spec and names, with the kit's launcher and
``"interrupt_mode": "message"``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

#: ipykernel's entry point and the kit's (see :mod:`.kernel_launch`).
IPYKERNEL_LAUNCHER = "ipykernel_launcher"
KIT_LAUNCHER = "tcsexam_lib.reports.kernel_launch"


def with_launcher(argv: list[str], launcher: str = KIT_LAUNCHER) -> list[str]:
    """A kernel command with ``launcher`` as its ``-m`` module (ipykernel's or the kit's).

    >>> with_launcher(["/env/python", "-Xfrozen_modules=off", "-m", "ipykernel_launcher",
    ...                "-f", "{connection_file}"])[2:4]
    ['-m', 'tcsexam_lib.reports.kernel_launch']
    >>> with_launcher(["python", "-m", KIT_LAUNCHER], IPYKERNEL_LAUNCHER)
    ['python', '-m', 'ipykernel_launcher']
    """
    out = list(argv)
    for at in range(len(out) - 1):
        if out[at] == "-m" and out[at + 1] in (IPYKERNEL_LAUNCHER, KIT_LAUNCHER):
            out[at + 1] = launcher
    return out


def install_kernelspec(prefix: str | None = None, launcher: str = KIT_LAUNCHER) -> Path:
    """Install the ``python3`` kernelspec with ``launcher`` into ``prefix``; return its folder."""
    from ipykernel.kernelspec import install

    folder = Path(install(kernel_name="python3", prefix=prefix or sys.prefix))
    spec_file = folder / "kernel.json"
    spec = json.loads(spec_file.read_text(encoding="utf-8"))
    spec["argv"] = with_launcher(spec["argv"], launcher)
    if launcher == KIT_LAUNCHER:
        spec["interrupt_mode"] = "message"  # see kernel_launch: interrupts reach code only
    else:
        spec.pop("interrupt_mode", None)
    spec_file.write_text(json.dumps(spec, indent=1) + "\n", encoding="utf-8")
    return folder


if __name__ == "__main__":
    install_kernelspec()
