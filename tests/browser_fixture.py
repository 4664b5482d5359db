"""A real headless chromium for tests: Debian's package, driven by Playwright's Python API.

A fresh machine (CI) has no chromium, and Playwright cannot download its own browsers here, so the
session fixture installs Debian's `chromium` with apt-get when /usr/bin/chromium is missing (we run
as root) and launches it with `executable_path`. Import the fixtures into a test module:

    from tests.browser_fixture import browser, open_page, screenshot  # noqa: F401
"""
from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


def ensure_chromium() -> Path:
    """/usr/bin/chromium, installed with apt-get when missing."""
    if CHROMIUM.exists():
        return CHROMIUM
    if shutil.which("apt-get") is None:
        pytest.fail("chromium is missing and apt-get is not available to install it")
    if os.geteuid() != 0:
        pytest.fail("chromium is missing; installing it needs root (apt-get install chromium)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    lock = ["-o", "DPkg::Lock::Timeout=600"]
    for cmd in (["apt-get", *lock, "update", "-qq"],
                ["apt-get", *lock, "install", "-y", "-qq", "chromium"]):
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1800)
        if proc.returncode != 0:
            pytest.fail(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    if not CHROMIUM.exists():
        pytest.fail("apt-get installed chromium but /usr/bin/chromium is still missing")
    return CHROMIUM


@pytest.fixture(scope="module")
def browser():
    """One headless chromium per test module. Not per session: while sync_playwright() is open, the
    main thread holds a running asyncio event loop, and Prefect's dual sync/async calls in later tests
    of the same process (`State.result()`) then return coroutines instead of results."""
    from playwright.sync_api import sync_playwright

    path = ensure_chromium()
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(path), headless=True)
        try:
            yield b
        finally:
            b.close()


@dataclass
class OpenedPage:
    page: object  # playwright.sync_api.Page
    dialogs: list[str] = field(default_factory=list)  # alert/confirm/prompt messages
    errors: list[str] = field(default_factory=list)  # uncaught page errors and console errors
    blocked: list[str] = field(default_factory=list)  # any request that is not file: or data:


@pytest.fixture()
def open_page(browser):
    """open_page(path) -> OpenedPage: a fresh context that records dialogs, errors and any request
    leaving the file (which is aborted: the report must load nothing from the network)."""
    contexts = []

    def _open(path: Path, *, width: int = 1280, height: int = 900) -> OpenedPage:
        ctx = browser.new_context(viewport={"width": width, "height": height})
        contexts.append(ctx)
        page = ctx.new_page()
        opened = OpenedPage(page)

        def on_dialog(d):
            opened.dialogs.append(d.message)
            d.dismiss()

        def on_route(route):
            url = route.request.url
            if url.startswith(("file:", "data:")):
                route.continue_()
            else:
                opened.blocked.append(url)
                route.abort()

        page.on("dialog", on_dialog)
        page.on("pageerror", lambda e: opened.errors.append(str(e)))
        page.on("console", lambda m: opened.errors.append(m.text) if m.type == "error" else None)
        ctx.route("**/*", on_route)
        page.goto(Path(path).resolve().as_uri())
        page.wait_for_load_state("load")
        return opened

    yield _open
    for ctx in contexts:
        ctx.close()


def screenshot(page, name: str, *, full_page: bool = True) -> Path:
    """Keep a screenshot under tests/artifacts/ (git-ignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path), full_page=full_page)
    return path
