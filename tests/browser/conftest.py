"""The browser tier: Playwright for Python driving the system's Chromium.

No browser is ever downloaded: the Chromium is Debian's (``apt-get install chromium``),
found on ``PATH`` or named by ``TCSEXAM_CHROMIUM``. Without one the tier skips with that
reason, unless ``TCSEXAM_REQUIRE_BROWSER`` is set (``.ci/run`` sets it), where a missing
browser is an error.

Fixtures: ``browser`` (one Chromium for the session), ``open_page(url, width)`` (a fresh
page at a viewport width, its console errors, script errors and failed requests collected
in ``page.problems``; ``page.overflow()`` says how far the page is wider than the screen).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from typing import Any

import pytest

#: Chromium's flags on a machine with no network beyond the package registries: no
#: background connections (each would be refused, and logged), no first-run dialogs.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def chromium_path() -> str | None:
    """The system Chromium: ``TCSEXAM_CHROMIUM``, else ``chromium`` on ``PATH``."""
    given = os.environ.get("TCSEXAM_CHROMIUM", "").strip()
    if given:
        return given if os.path.exists(given) else None
    return shutil.which("chromium") or shutil.which("chromium-browser")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test under tests/browser/ is in the browser tier."""
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    path = chromium_path()
    if path is None:
        reason = "no Chromium found (apt-get install chromium, or set TCSEXAM_CHROMIUM)"
        if os.environ.get("TCSEXAM_REQUIRE_BROWSER"):
            pytest.fail(f"the browser tier is required here, but {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="tcsexam-chromium-") as profile:
        with sync_playwright() as playwright:
            context = playwright.chromium.launch_persistent_context(
                profile, executable_path=path, headless=True, args=CHROMIUM_ARGS
            )
            try:
                yield context
            finally:
                context.close()


@pytest.fixture
def open_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """Open ``url`` in a new page of ``width`` x 900 CSS pixels; problems are collected."""
    pages = []

    def open_(url: str, width: int = 1400, height: int = 900) -> Any:
        page = browser.new_page()
        page.set_viewport_size({"width": width, "height": height})
        page.problems = []
        page.on(
            "console",
            lambda message: (
                message.type == "error" and page.problems.append(f"console: {message.text}")
            ),
        )
        page.on("pageerror", lambda error: page.problems.append(f"page error: {error}"))
        page.on(
            "requestfailed",
            lambda request: page.problems.append(f"request failed: {request.url}"),
        )
        page.overflow = lambda: horizontal_overflow(page)
        page.goto(url)
        pages.append(page)
        return page

    yield open_
    for page in pages:
        page.close()


def horizontal_overflow(page: Any) -> int:
    """How many CSS pixels the page body is wider than the viewport (0: none)."""
    return page.evaluate(
        "() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth)"
    )
