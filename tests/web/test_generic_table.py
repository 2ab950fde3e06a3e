"""The generic table in the browser: a game without a page of its own is playable from its view and legal
actions, typed inputs included. Driven with the core's reference game (tests/reference_game.py, registered
in the test server through ``MINDTABLE_GAMES``): a person picks topics from buttons and types answers and
wagers into the forms the page builds from the actions' input schemas, against a random bot, to the end."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import get_json, post_json

pytestmark = pytest.mark.browser
TIMEOUT_MS = 10_000


def test_a_person_types_answers_into_the_generic_table(browser: Any, server_url: str, screenshots: Path) -> None:
    answer = post_json(
        f"{server_url}/api/rooms",
        {
            "game": "riddle-relay",
            "players": 2,
            "name": "Ana",
            "options": {"target": 2},
            "bots": {"1": "random"},
            "bot_params": {"1": {"min_delay_ms": 50, "max_delay_ms": 150}},
        },
    )
    code, seat, token = answer["code"], answer["seat"], answer["token"]
    context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server_url}/index.html")
    page.evaluate(
        "([code, seat, token]) => localStorage.setItem(`mindtable:seat:${code}`,"
        " JSON.stringify({seat, token, name: 'Ana', game: 'riddle-relay', saved: Date.now()}))",
        [code, seat, token],
    )
    page.goto(f"{server_url}/room.html?code={code}")
    page.wait_for_selector('[data-testid="generic-view"] tr')
    typed = 0
    shot = False
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if get_json(f"{server_url}/api/rooms/{code}")["status"] == "over":
            break
        page.wait_for_function("() => window.mindtableShell && window.mindtableShell.lastState")
        state = page.evaluate("window.mindtableShell.lastState")
        if seat not in state["view"].get("to_act", []) or not state.get("legal"):
            page.wait_for_timeout(150)
            continue
        assert page.locator('[data-testid="generic-turn"]').inner_text() == "Your turn."
        form = page.locator('[data-testid="form-answer"]')
        if form.count():
            assert "answer" not in (state["view"]["card"] or {}), "the answerer must not see the answer"
            page.fill('[data-testid="input-answer-text"]', "mars")
            page.fill('[data-testid="input-answer-wager"]', "2")
            if not shot:
                page.screenshot(path=str(screenshots / "generic-table-answer.png"), full_page=True)
                shot = True
            form.locator('button[type="submit"]').click()
            typed += 1
        else:
            page.locator('[data-testid="generic-actions"] button').first.click()
        page.wait_for_function(
            "(n) => window.mindtableShell.lastState && window.mindtableShell.lastState.seq > n",
            arg=state.get("seq", -1),
        )
    page.wait_for_selector("#over-panel:not([hidden])")
    page.screenshot(path=str(screenshots / "generic-table-over.png"), full_page=True)
    record = get_json(f"{server_url}/api/rooms/{code}/record")
    mine = [a for a in record["actions"] if a["type"] == "answer" and a["seat"] == seat]
    assert typed and len(mine) == typed and all(a["text"] == "mars" and a["wager"] == 2 for a in mine)
    assert errors == []
    context.close()
