"""Taking a verdict back on the quiz page (issue #28): in a room the asker's verdict waits a few seconds
(``undo_seconds``, 4 in a room unless its creator says otherwise) with an Undo button and the seconds left; Undo
brings the verdict buttons back, and the other verdict then counts. Played in Carrera de Mente (the three quiz
games share the quiz box, ``js/quiz.js``): Ana plays seat 0 against a bot that acts at once, and asks it."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from tests.web.conftest import get_json, post_json
from tests.web.quiz_pages import watched_page
from tests.web.test_quiz_fold import GAMES, SHELL, act, drawn, moment_of

pytestmark = pytest.mark.browser

TIMEOUT_MS = 15_000
GAME = "carrera-de-mente"


def test_a_room_gives_the_asker_seconds_to_undo_unless_its_creator_says_otherwise(server_url: str) -> None:
    made = post_json(f"{server_url}/api/rooms", {"game": GAME, "players": 2, "name": "Ana", "bots": {"1": "knowing"}})
    assert made["room"]["options"]["undo_seconds"] == 4
    chosen = {"game": GAME, "players": 2, "name": "Ana", "bots": {"1": "knowing"}, "options": {"undo_seconds": 0}}
    made = post_json(f"{server_url}/api/rooms", chosen)
    assert made["room"]["options"].get("undo_seconds", 0) == 0
    described = next(g for g in get_json(f"{server_url}/api/games") if g["id"] == GAME)
    option = next(o for o in described["options"] if o["name"] == "undo_seconds")
    assert (option["default"], option["room_default"]) == (0, 4)


def test_the_asker_undoes_a_verdict_and_gives_the_other_one(browser: Any, server_url: str) -> None:
    room = {"game": GAME, "players": 2, "name": "Ana", "bot_pace": "off", "bots": {"1": "knowing"}}
    room["options"] = {"language": "en"}
    grant = post_json(f"{server_url}/api/rooms", room)
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    saved = json.dumps({"seat": grant["seat"], "token": grant["token"], "name": "Ana", "saved": 1})
    context.add_init_script(f"localStorage.setItem('mindtable:seat:{grant['code']}', {json.dumps(saved)});")
    page, errors, _frames = watched_page(context, TIMEOUT_MS)
    page.goto(f"{server_url}/room.html?code={grant['code']}")
    page.wait_for_selector(GAMES[GAME]["root"])

    # Ana plays until the bot has answered and she, asking, decides on its answer.
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, "Ana never came to decide on an answer"
        page.wait_for_function(f"() => {SHELL} && ({SHELL}.legal || []).length > 0")
        state = page.evaluate(SHELL)
        moment = moment_of({a["type"] for a in state["legal"]})
        if moment == "ask_confirm":
            break
        if moment is None:
            page.wait_for_function(f"(n) => {SHELL}.seq > n", arg=state["seq"])
            continue
        drawn(page, GAME, state, moment)
        act(page, GAME, state, moment)
        page.wait_for_function(f"(n) => {SHELL}.seq > n", arg=state["seq"])
    drawn(page, GAME, state, "ask_confirm")
    suggested = state["view"]["ask"]["suggestion"]["correct"]
    decided = len(state["view"]["quiz_history"])

    # The verdict the judge suggests: pending, with Undo and the seconds left.
    page.click('[data-testid="quiz-confirm"]')
    undo = page.wait_for_selector('[data-testid="quiz-undo"]')
    assert undo.text_content().startswith("Undo")
    left = page.locator('[data-testid="quiz-undo"] [data-testid="quiz-countdown"]')
    assert 0 < int(left.get_attribute("data-left") or 0) <= 4_000
    assert left.text_content() in ("1 s", "2 s", "3 s", "4 s")
    verdict = page.locator('[data-testid="quiz-verdict"]')
    assert verdict.get_attribute("data-correct") == str(suggested).lower()
    assert page.evaluate(f"{SHELL}.view.ask.phase") == "pending"

    # Undo: the verdict buttons again, nothing counted.
    page.click('[data-testid="quiz-undo"]')
    page.wait_for_selector('[data-testid="quiz-overrule"]')
    assert page.locator('[data-testid="quiz-undo"]').count() == 0
    assert len(page.evaluate(f"{SHELL}.view.quiz_history")) == decided

    # The other verdict (the change asks a second click), pending in its turn, then counted when the time is up.
    page.click('[data-testid="quiz-overrule"]')
    page.click('[data-testid="quiz-overrule"]')
    page.wait_for_selector('[data-testid="quiz-undo"]')
    assert verdict.get_attribute("data-correct") == str(not suggested).lower()
    page.wait_for_function(f"(n) => {SHELL}.view.quiz_history.length > n", arg=decided, timeout=10_000)
    entry = page.evaluate(f"{SHELL}.view.quiz_history[{SHELL}.view.quiz_history.length - 1]")
    assert entry["correct"] is (not suggested) and entry["overruled"]
    assert page.locator('[data-testid="quiz-undo"]').count() == 0
    context.close()
    assert errors == []
