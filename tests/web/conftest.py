"""Fixtures for the browser tests: a real mindtable server on loopback and headless Debian Chromium.

The server is started with ``create_app(db_url=...)`` from :mod:`mindtable.server` under uvicorn, on a free
127.0.0.1 port with a fresh SQLite file, and stopped at the end of the session. Set
``MINDTABLE_TEST_SERVER_URL`` to run the tests against a server that is already running instead.
Screenshots go to ``artifacts/screenshots/`` (gitignored).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO / "artifacts" / "screenshots"
#: The example plugin of this checkout (a separate package): on the path of the tests and of their server, and
#: registered in both, so the web tests run over it as over any installed game (an installed copy of another
#: checkout is not the one tested).
PLUGIN = REPO / "examples" / "stepping-stones"
PLUGIN_GAMES = "stepping-stones=stepping_stones:GAME"


def _with_plugin() -> None:
    """This process sees the checkout's plugin (before any installed copy of it), registered as it is."""
    if str(PLUGIN) not in sys.path:
        sys.path.insert(0, str(PLUGIN))
    from stepping_stones import GAME

    from mindtable.core.registry import register_game

    register_game(GAME)


_with_plugin()

LAUNCHER = """
import sys, uvicorn
from mindtable.server import create_app
uvicorn.run(create_app(db_url=sys.argv[1]), host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if CHROMIUM.exists():
        return
    skip = pytest.mark.skip(reason=f"browser tests need Debian's Chromium at {CHROMIUM}; it is not installed")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def room_code(page: Any) -> str:
    """The room's code from the page's address, once the room page shows that code: the page fills the element
    when the room has loaded, a moment after the address changes (read too early it is empty or the last room's)."""
    code = parse_qs(urlparse(page.url).query)["code"][0]
    page.wait_for_selector(f'[data-testid="room-code"]:text-is("{code}")')
    return str(code)


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.loads(response.read())


def post_json(url: str, body: dict[str, Any], timeout: float = 20) -> Any:
    """POST ``body`` as JSON and read the answer (a room's creation deals its cards: slow on a busy machine)."""
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read())


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a running mindtable server (started here, on loopback, with a temporary database)."""
    given = os.environ.get("MINDTABLE_TEST_SERVER_URL")
    if given:
        yield given.rstrip("/")
        return
    port = _free_port()
    folder = tmp_path_factory.mktemp("web-server")
    db_url = f"sqlite:///{folder / 'mindtable.sqlite3'}"
    log = (folder / "server.log").open("w+b")
    # The reference game of the core (tests/reference_game.py) is added for the generic table's tests.
    env = {
        **os.environ,
        "MINDTABLE_GAMES": ",".join(
            ("riddle-relay=tests.reference_game:GAME", "quiz-relay=tests.reference_quiz:GAME", PLUGIN_GAMES)
        ),
        "PYTHONPATH": os.pathsep.join((str(REPO), str(PLUGIN))),
        # Rooms only bots play stand still while nobody watches them (30 s by default). Tests make all-bot rooms
        # at the start and look at them later, on a slow machine minutes later: they must play on unwatched.
        "MINDTABLE_LIMIT_BOT_ROOM_GRACE_S": os.environ.get("MINDTABLE_LIMIT_BOT_ROOM_GRACE_S", "3600"),
    }
    process = subprocess.Popen(
        [sys.executable, "-c", LAUNCHER, db_url, str(port)], cwd=REPO, stdout=log, stderr=subprocess.STDOUT, env=env
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                log.seek(0)
                pytest.fail(f"the server exited with {process.returncode}:\n{log.read().decode(errors='replace')}")
            try:
                get_json(f"{url}/api/games")
                break
            except (urllib.error.URLError, ConnectionError, OSError):
                if time.monotonic() > deadline:
                    pytest.fail(f"the server did not answer on {url} within 30 s")
                time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield instance
        finally:
            instance.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
