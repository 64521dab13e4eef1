"""Headless Chromium for the browser tests (the live web board, ``live_server``, is in tests/conftest.py)."""

import os
import shutil

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture
def browser():
    """Headless Chromium through Playwright (Debian's chromium; Playwright cannot download its own here)."""
    required = os.environ.get("MEMORY_SOLVER_REQUIRE_BROWSER") == "1"
    if required:
        from playwright import sync_api
    else:
        sync_api = pytest.importorskip("playwright.sync_api", reason="pip install 'memory-solver[browser]'")
    if CHROMIUM is None:
        message = "Chromium is not installed: apt-get install chromium (the browser tests drive it with Playwright)"
        if required:
            pytest.fail(message)
        pytest.skip(message)
    with sync_api.sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            yield instance
        finally:
            instance.close()
