"""The example plugin (examples/stepping-stones) in the browser: its page comes from its own package, and a
person plays a whole game against a knowing bot through it — the river, the shared quiz components, her typed
answers, the bot's questions read from her card and confirmed, the end."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

import mindtable
from tests.web.conftest import get_json, post_json

pytestmark = pytest.mark.browser
if "stepping-stones" not in mindtable.available_game_ids():
    pytest.skip(
        "the example plugin is not installed: pip install -e examples/stepping-stones (scripts/test.sh does)",
        allow_module_level=True,
    )


def test_a_person_crosses_the_river_in_the_plugins_page(browser: Any, server_url: str, screenshots: Path) -> None:
    created = post_json(
        f"{server_url}/api/rooms",
        {"game": "stepping-stones", "players": 2, "name": "Ana", "bots": {"1": "knowing"}, "options": {"stones": 4}},
    )
    code, seat, token = created["code"], created["seat"], created["token"]
    context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="es-ES")
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server_url}/index.html")
    page.evaluate(
        "([code, seat, token]) => localStorage.setItem(`mindtable:seat:${code}`,"
        " JSON.stringify({seat, token, name: 'Ana', game: 'stepping-stones', saved: Date.now()}))",
        [code, seat, token],
    )
    page.goto(f"{server_url}/room.html?code={code}")
    page.wait_for_selector('[data-testid="ss-river"] .ss-stone')
    assert page.locator('[data-testid="ss-river"] .ss-stone').count() == 8  # two players, four stones each
    assert "piedras" in page.locator('[data-testid="ss-river"]').inner_text()  # the plugin's own Spanish words
    done: set[str] = set()
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        state = page.evaluate("window.mindtableShell && window.mindtableShell.lastState")
        if not state:
            page.wait_for_timeout(100)
            continue
        if state["view"]["phase"] == "over":
            break
        legal = {a["type"] for a in state.get("legal") or []}
        if "ask_confirm" in legal:
            page.wait_for_selector('[data-testid="quiz-reader-card"]')
            page.click('[data-testid="quiz-confirm"]')
            done.add("read")
        elif "ask_answer" in legal:
            page.wait_for_selector('[data-testid="quiz-prompt"]')
            if page.locator('[data-testid="quiz-true"]').count():
                page.click('[data-testid="quiz-true"]')
            elif page.locator('[data-testid="quiz-input"]').count():
                page.fill('[data-testid="quiz-input"]', "no lo sé")
                page.click('[data-testid="quiz-send"]')
            else:
                page.click('[data-testid="quiz-pass"]')
            done.add("answered")
        page.wait_for_function("(seq) => window.mindtableShell.lastState.seq > seq", arg=state["seq"])
    room = get_json(f"{server_url}/api/rooms/{code}")
    assert room["status"] == "over", f"not over; done: {sorted(done)}"
    assert {"answered", "read"} <= done  # she answered, and read the bot its questions
    page.wait_for_selector("#over-panel:not([hidden])")
    page.screenshot(path=str(screenshots / "stepping-stones-over.png"), full_page=True)
    assert errors == []
    context.close()
