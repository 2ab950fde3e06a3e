"""axe-core (WCAG 2.0/2.1 A and AA rules) over every page of the site, in English and Spanish on a desktop
and on a phone-sized screen, and in Estonian on a desktop (the run is kept short): the lobby, a room waiting
for players, the join-by-link page, The Mind's table, NeuroRace's table during a round, Carrera de Mente's
table with a question showing (to the answering player, and to the asker with the card), the game-over
overlay, the replay page and the generic table; and Eesti mälumäng's table during play, in Estonian and
English, with a question showing both to the answering player and to the asker (the card with its answer,
confirm/overrule). No serious or critical violation may remain, and every page is drawn in the context's
language. The engine comes with the dev dependency ``axe-playwright-python`` (nothing is downloaded at run
time).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import get_json, post_json

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BAD = {"serious", "critical"}


def axe_engine() -> Any:
    module = pytest.importorskip("axe_playwright_python.sync_playwright", reason="pip install -e '.[dev]'")
    return module.Axe()


def finished(server_url: str, code: str, timeout_s: float = 30) -> None:
    import time

    deadline = time.monotonic() + timeout_s
    while get_json(f"{server_url}/api/rooms/{code}")["status"] != "over":
        assert time.monotonic() < deadline, f"room {code} did not finish"
        time.sleep(0.2)


@pytest.fixture(scope="module")
def rooms(server_url: str) -> dict[str, Any]:
    """One room per page type, made through the API (seat tokens kept to open the pages as their players)."""
    waiting = post_json(f"{server_url}/api/rooms", {"game": "the-mind", "players": 2, "name": "Ana"})
    open_room = post_json(f"{server_url}/api/rooms", {"game": "the-mind", "players": 3, "name": "Bea"})
    mind = post_json(
        f"{server_url}/api/rooms",
        {"game": "the-mind", "players": 3, "name": "Ana", "bots": {"1": "proportional", "2": "random"}},
    )
    race = post_json(
        f"{server_url}/api/rooms",
        {"game": "neurorace", "players": 1, "name": "Ana", "options": {"solo_seconds": 900}},
    )
    over = post_json(
        f"{server_url}/api/rooms",
        {
            "game": "the-mind",
            "players": 2,
            "options": {"last_level": 1},
            "bots": {"0": "proportional", "1": "proportional"},
            "bot_params": {"0": {"tempo_ms": 5}, "1": {"tempo_ms": 5}},
        },
    )
    generic = post_json(
        f"{server_url}/api/rooms",
        {"game": "riddle-relay", "players": 2, "name": "Ana", "bots": {"1": "random"}, "options": {"target": 20}},
    )
    carrera = {
        key: post_json(
            f"{server_url}/api/rooms",
            {"game": "carrera-de-mente", "players": 2, "name": "Ana", "bots": {"1": "knowing"}, "bot_pace": "off"},
        )
        for key in ("carrera-answer", "carrera-ask")
    }
    finished(server_url, over["code"])
    return {
        "waiting": waiting,
        "open": open_room,
        "mind": mind,
        "race": race,
        "over": over,
        "generic": generic,
        **carrera,
    }


def seat_script(rooms: dict[str, Any]) -> str:
    """An init script that puts the seat tokens where the lobby keeps them."""
    lines = []
    for key in ("waiting", "mind", "race", "generic", "carrera-answer", "carrera-ask"):
        grant = rooms[key]
        saved = json.dumps({"seat": grant["seat"], "token": grant["token"], "name": "Ana", "saved": 1})
        lines.append(f"localStorage.setItem('mindtable:seat:{grant['code']}', {json.dumps(saved)});")
    return "\n".join(lines)


def pages(rooms: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(name, path, a selector that shows the page is drawn)."""
    return [
        ("lobby", "/index.html", '#game-select option[value="the-mind"]'),
        ("room-waiting", f"/room.html?code={rooms['waiting']['code']}", "#waiting-panel:not([hidden])"),
        ("join-link", f"/room.html?code={rooms['open']['code']}", "#join-panel:not([hidden])"),
        ("the-mind-table", f"/room.html?code={rooms['mind']['code']}", '#game.tm[data-phase="refocus"]'),
        ("neurorace-table", f"/room.html?code={rooms['race']['code']}", '#game.nr[data-phase="playing"]'),
        ("game-over", f"/room.html?code={rooms['over']['code']}", '[data-testid="over-summary"] table'),
        ("replay", f"/replay.html?code={rooms['over']['code']}", '[data-testid="replay-final"] table'),
        ("generic-table", f"/room.html?code={rooms['generic']['code']}", '[data-testid="generic-view"] tr'),
        ("carrera-answer", f"/room.html?code={rooms['carrera-answer']['code']}", '[data-testid="quiz-input"]'),
        ("carrera-ask", f"/room.html?code={rooms['carrera-ask']['code']}", '[data-testid="quiz-reader-answer"]'),
    ]


@pytest.mark.parametrize(
    ("locale", "viewport"),
    [("en-US", DESKTOP), ("es-ES", PHONE), ("es-ES", DESKTOP), ("en-US", PHONE), ("et-EE", DESKTOP)],
    ids=["en-desktop", "es-phone", "es-desktop", "en-phone", "et-desktop"],
)
def test_every_page_has_no_serious_axe_violation(
    browser: Any, server_url: str, rooms: dict[str, Any], screenshots: Path, locale: str, viewport: dict[str, int]
) -> None:
    axe = axe_engine()
    context = browser.new_context(viewport=viewport, locale=locale)
    context.add_init_script(seat_script(rooms))
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    found: list[str] = []
    where = f"{locale[:2]}-{'phone' if viewport is PHONE else 'desktop'}"
    for name, path, ready in pages(rooms):
        page.goto(f"{server_url}{path}")
        page.wait_for_selector(ready, state="attached")
        assert page.evaluate("document.documentElement.lang") == locale[:2], f"{name} is not in {locale}"
        page.wait_for_timeout(150)  # let the last frame settle (toasts, timers)
        results = axe.run(page, options={"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]})
        for violation in results.response["violations"]:
            if violation.get("impact") in BAD:
                targets = [", ".join(node["target"]) for node in violation["nodes"]][:5]
                found.append(f"{where} {name}: {violation['id']} ({violation['impact']}) {targets}")
        if name in ("game-over", "neurorace-table", "join-link", "carrera-answer", "carrera-ask"):
            page.screenshot(path=str(screenshots / f"a11y-{name}-{where}.png"))
    context.close()
    assert found == [], "\n".join(found)
    assert errors == []


@pytest.fixture(scope="module", autouse=True)
def start_the_race(server_url: str, rooms: dict[str, Any], browser: Any) -> None:
    """NeuroRace's table is checked during a round: mark the SOLO seat ready (or say START) once."""
    grant = rooms["race"]
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(seat_script(rooms))
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{server_url}/room.html?code={grant['code']}")
    page.wait_for_selector('#game.nr[data-phase="ready"]')
    page.wait_for_function("() => window.mindtableShell.lastState && window.mindtableShell.lastState.legal.length")
    legal = page.evaluate("window.mindtableShell.lastState.legal")
    kind = "ready" if any(a["type"] == "ready" for a in legal) else "start"
    page.click(f'[data-testid="action-{kind}"]')
    page.wait_for_selector('#game.nr[data-phase="playing"]')
    context.close()


def _carrera_until(page: Any, wanted: str) -> None:
    """Play Ana's seat through the page until ``wanted`` (ask_answer: she answers a question; ask_confirm: she
    asks, holding the card) is what the table waits for, with a question decided before (so the table's history
    of questions is on the page too): she answers wrong and, as the asker, rules the bot's right answers wrong,
    so the turn comes back to her soon whoever starts."""
    shell = "window.mindtableShell.lastState"
    for _ in range(200):
        page.wait_for_function(f"() => {shell} && ({shell}.legal || []).length > 0")
        state = page.evaluate(shell)
        legal = {a["type"] for a in state["legal"]}
        if wanted in legal and state["view"].get("quiz_history"):
            page.wait_for_selector('[data-testid="quiz-history-last"]')
            return
        if "roll" in legal:
            page.click('[data-testid="cm-roll"]')
        elif "roll_number" in legal:
            page.click('[data-testid="cm-roll-number"]')
        elif "topic" in legal:
            page.locator('[data-testid^="cm-topic-"]').first.click()
        elif "lap_prize" in legal:
            page.locator('[data-testid^="cm-lap-"]').first.click()
        elif "steal" in legal:
            page.locator('[data-testid^="cm-steal-"]').first.click()
        elif "ask_confirm" in legal:
            right = state["view"]["ask"]["suggestion"]["correct"]
            if right:  # changing the verdict asks a second click
                page.click('[data-testid="quiz-overrule"]')
                page.click('[data-testid="quiz-overrule"]')
            else:
                page.click('[data-testid="quiz-confirm"]')
        elif "ask_answer" in legal:
            page.fill('[data-testid="quiz-input"]', "no idea")
            page.click('[data-testid="quiz-send"]')
        page.wait_for_function(f"(n) => {shell}.seq > n", arg=state["seq"])
    raise AssertionError(f"Carrera de Mente never came to {wanted}")


@pytest.fixture(scope="module", autouse=True)
def carrera_with_a_question(server_url: str, rooms: dict[str, Any], browser: Any) -> None:
    """Carrera de Mente's table is checked with a question showing: to Ana answering, and to Ana asking."""
    for key, wanted in (("carrera-answer", "ask_answer"), ("carrera-ask", "ask_confirm")):
        context = browser.new_context(viewport=DESKTOP)
        context.add_init_script(seat_script(rooms))
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(f"{server_url}/room.html?code={rooms[key]['code']}")
        page.wait_for_selector('[data-testid="cm-board"] svg.mt-board')
        _carrera_until(page, wanted)
        context.close()


def serious(axe: Any, page: Any, where: str) -> list[str]:
    """The serious and critical violations axe finds on ``page`` now."""
    results = axe.run(page, options={"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]})
    return [
        f"{where}: {v['id']} ({v['impact']}) {[', '.join(n['target']) for n in v['nodes']][:5]}"
        for v in results.response["violations"]
        if v.get("impact") in BAD
    ]


@pytest.mark.parametrize("locale", ["et-EE", "en-US"], ids=["et", "en"])
def test_the_eesti_malumang_table_with_a_question_showing_has_no_serious_axe_violation(
    browser: Any, server_url: str, screenshots: Path, locale: str
) -> None:
    """Seat 0 plays through the page against a quick bot until it has answered one question and asked one: axe
    runs on the board with the question box (answering) and with the asker's card (confirm/overrule)."""
    language = locale[:2]
    grant = post_json(
        f"{server_url}/api/rooms",
        {
            "game": "eesti-malumang",
            "players": 2,
            "name": "Ana",
            "bots": {"1": "knowing"},
            "bot_params": {"1": {"board_think_ms": 0}},
            "bot_pace": "off",
            "options": {"language": language, "variant": "outer_track"},
        },
    )
    axe = axe_engine()
    context = browser.new_context(viewport=DESKTOP, locale=locale)
    saved = json.dumps({"seat": grant["seat"], "token": grant["token"], "name": "Ana", "saved": 1})
    context.add_init_script(f"localStorage.setItem('mindtable:seat:{grant['code']}', {json.dumps(saved)});")
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server_url}/room.html?code={grant['code']}")
    page.wait_for_selector('[data-testid="em-board"] svg.mt-board')
    assert page.evaluate("document.documentElement.lang") == language
    found: list[str] = []
    checked: set[str] = set()
    for _step in range(40):  # place, roll, move (or a category), answer, confirm: a handful of steps each
        page.wait_for_function("() => window.mindtableShell.lastState && window.mindtableShell.lastState.legal")
        state = page.evaluate("window.mindtableShell.lastState")
        types = {a["type"] for a in state["legal"]}
        role = "answering" if "ask_answer" in types else "asking" if "ask_confirm" in types else None
        if role is not None and role not in checked:
            ready = '[data-testid="quiz-prompt"]' if role == "answering" else '[data-testid="quiz-reader-answer"]'
            page.wait_for_selector(ready)
            page.wait_for_timeout(150)  # let the last frame settle
            found += serious(axe, page, f"{language} eesti-malumang {role}")
            page.screenshot(path=str(screenshots / f"a11y-eesti-{role}-{language}.png"), full_page=True)
            checked.add(role)
        if checked == {"answering", "asking"}:
            break
        if "place" in types:
            page.locator('[data-testid^="em-place-"]').first.click()
        elif "roll" in types:
            page.click('[data-testid="em-roll"]')
        elif "move" in types:
            page.locator('[data-testid^="em-move-"]').first.click()
        elif "category" in types:
            page.locator('[data-testid^="em-category-"]').first.click()
        elif "ask_answer" in types:
            page.fill('[data-testid="quiz-input"]', "x")
            page.click('[data-testid="quiz-send"]')
        elif "ask_confirm" in types:
            page.click('[data-testid="quiz-confirm"]')
        else:
            page.wait_for_function(
                "(n) => window.mindtableShell.lastState.seq > n && window.mindtableShell.lastState.legal.length",
                arg=state["seq"],
                timeout=30_000,
            )
            continue
        page.wait_for_function("(n) => window.mindtableShell.lastState.seq > n", arg=state["seq"])
    context.close()
    assert checked == {"answering", "asking"}, checked
    assert found == [], "\n".join(found)
    assert errors == []
