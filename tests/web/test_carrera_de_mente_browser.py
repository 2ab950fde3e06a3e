"""Carrera de Mente in the browser (games/carrera-de-mente/): a person plays a whole short game (variant 1 on
the small board) against a knowing bot through the page — rolls the move die and the three number dice from
buttons, chooses booklets, lap prizes and steals, answers in the shared quiz box without ever seeing the answer,
and, as the asker, reads the card with its answer and confirms or overrules the judge — to the end, where the
summary shows every player's prizes. A spectator follows the same room in Spanish."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import get_json, post_json

pytestmark = pytest.mark.browser
TIMEOUT_MS = 10_000
GAME_ID = "carrera-de-mente"


def _seat_page(browser: Any, server_url: str, code: str, seat: int, token: str, locale: str) -> tuple[Any, Any]:
    context = browser.new_context(viewport={"width": 1200, "height": 950}, locale=locale)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server_url}/index.html")
    page.evaluate(
        "([code, seat, token]) => localStorage.setItem(`mindtable:seat:${code}`,"
        " JSON.stringify({seat, token, name: 'Ana', game: 'carrera-de-mente', saved: Date.now()}))",
        [code, seat, token],
    )
    page.goto(f"{server_url}/room.html?code={code}")
    return context, page


def test_a_person_plays_a_short_game_of_carrera_de_mente(browser: Any, server_url: str, screenshots: Path) -> None:
    games = {g["id"]: g for g in get_json(f"{server_url}/api/games")}
    assert games[GAME_ID]["available"] and games[GAME_ID]["web_module"] == GAME_ID
    created = post_json(
        f"{server_url}/api/rooms",
        {
            "game": GAME_ID,
            "players": 2,
            "name": "Ana",
            "bots": {"1": "knowing"},
            "bot_params": {"1": {"knows": 0.35}},
            "options": {"board": "small", "variant_short": True, "turn_limit": 60},
        },
    )
    code, seat, token = created["code"], created["seat"], created["token"]
    context, page = _seat_page(browser, server_url, code, seat, token, "en-US")
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.wait_for_selector('[data-testid="cm-board"] svg.mt-board')
    assert page.locator('[data-testid="cm-board"] .mt-square').count() == 14
    assert page.locator('[data-testid="cm-board"] [data-pawn]').count() == 2
    assert page.locator('[data-testid="cm-board"] .cm-star-token').count() == 6  # a prize token on each star

    # A spectator in Spanish follows the same table.
    watcher = browser.new_context(viewport={"width": 900, "height": 900}, locale="es-ES")
    spectator = watcher.new_page()
    spectator.set_default_timeout(TIMEOUT_MS)
    spectator.goto(f"{server_url}/room.html?code={code}&spectate=1")
    spectator.wait_for_selector('[data-testid="cm-board"] svg.mt-board')

    done: set[str] = set()
    answers = 0
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        if get_json(f"{server_url}/api/rooms/{code}")["status"] == "over":
            break
        page.wait_for_function("() => window.mindtableShell && window.mindtableShell.lastState")
        state = page.evaluate("window.mindtableShell.lastState")
        legal = {a["type"] for a in state.get("legal") or []}
        view = state["view"]
        seq = state.get("seq", -1)
        if not legal:
            page.wait_for_timeout(100)
            continue
        ask = view.get("ask")
        if "roll" in legal:
            assert page.locator('[data-testid="cm-turn"]').inner_text() == "Your turn: roll the die."
            page.click('[data-testid="cm-roll"]')
            done.add("roll")
        elif "roll_number" in legal:
            page.click('[data-testid="cm-roll-number"]')
            done.add("number")
        elif "topic" in legal:
            page.locator('[data-testid^="cm-topic-"]').first.click()
            done.add("topic")
        elif "lap_prize" in legal:
            if "lap" not in done:
                page.screenshot(path=str(screenshots / "carrera-lap-prize.png"), full_page=True)
            page.locator('[data-testid^="cm-lap-"]').first.click()
            done.add("lap")
        elif "steal" in legal:
            page.locator('[data-testid^="cm-steal-"]').first.click()
            done.add("steal")
        elif "ask_confirm" in legal:
            # Ana asks: she holds the card with its answer and the judge's suggestion with its reason in words.
            assert ask["role"] == "reader" and "card" in ask
            page.wait_for_selector('[data-testid="quiz-reader-card"] [data-testid="quiz-reader-answer"]')
            assert page.locator('[data-testid="cm-asker"]').inner_text().startswith("You ask")
            if "reader" not in done:
                page.screenshot(path=str(screenshots / "carrera-asker.png"), full_page=True)
                done.add("reader")
            page.click('[data-testid="quiz-confirm"]')
        elif "ask_answer" in legal:
            assert ask["role"] == "answerer" and "card" not in ask
            page.wait_for_function(
                "(p) => (document.querySelector('[data-testid=\"quiz-prompt\"]') || {}).textContent === p",
                arg=ask["question"]["prompt"],
            )
            if "ask_options" in legal and "options" not in done:
                page.click('[data-testid="quiz-ask-options"]')
                page.wait_for_selector('[data-testid="quiz-letter-a"]')
                page.screenshot(path=str(screenshots / "carrera-options.png"), full_page=True)
                page.click('[data-testid="quiz-letter-a"]')
                done.add("options")
            elif ask["question"].get("options"):
                page.click('[data-testid="quiz-letter-a"]')
            else:
                page.fill('[data-testid="quiz-input"]', "I do not know")
                if "answer" not in done:
                    page.screenshot(path=str(screenshots / "carrera-answer.png"), full_page=True)
                page.click('[data-testid="quiz-send"]')
            done.add("answer")
            answers += 1
        else:
            page.wait_for_timeout(100)
            continue
        page.wait_for_function(
            "(n) => window.mindtableShell.lastState && window.mindtableShell.lastState.seq > n", arg=seq
        )
    assert get_json(f"{server_url}/api/rooms/{code}")["status"] == "over", f"not over; done: {sorted(done)}"
    page.wait_for_selector("#over-panel:not([hidden])")
    page.wait_for_selector('#over-panel [data-testid="cm-summary"]')
    page.screenshot(path=str(screenshots / "carrera-over.png"), full_page=True)
    spectator.wait_for_selector("#over-panel:not([hidden])")
    spectator.screenshot(path=str(screenshots / "carrera-over-es.png"), full_page=True)
    assert "Jugador" in spectator.locator('#over-panel [data-testid="cm-summary"]').inner_text()
    assert {"roll", "number", "answer"} <= done, done
    record = get_json(f"{server_url}/api/rooms/{code}/record")
    mine = {a["type"] for a in record["actions"] if a["seat"] == seat}
    assert {"roll", "roll_number"} <= mine and ({"ask_answer", "ask_confirm"} & mine)
    assert errors == []
    watcher.close()
    context.close()
