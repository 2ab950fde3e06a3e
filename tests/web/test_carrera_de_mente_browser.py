"""Carrera de Mente in the browser (games/carrera-de-mente/): a person makes a room in the lobby and plays a
whole game on the small board against a knowing bot through the page — rolls the move die and the three number
dice from buttons, chooses booklets, lap prizes and the colour to steal, answers in the shared quiz box without
ever seeing the answer, and, as the asker, reads the card with its answer and confirms or overrules the judge —
to the end, where the summary shows every player's prizes; a spectator follows the same room in Spanish. Two
people also play hot-seat, one page per seat."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.carrera_de_mente.player import Step, plan
from tests.carrera_de_mente.test_scripted_player import MOST_ACTIONS
from tests.web.conftest import get_json, post_json

pytestmark = pytest.mark.browser
TIMEOUT_MS = 10_000
GAME_ID = "carrera-de-mente"
#: The first state after ``seq`` in which this page may act, or the end of the game.
NEXT_STATE = """(n) => {
  const s = window.mindtableShell && window.mindtableShell.lastState;
  return s && s.seq > n && ((s.legal || []).length > 0 || s.view.phase === "over") ? s : null;
}"""


def _seat_page(
    browser: Any, server_url: str, code: str, seat: int, token: str, locale: str, on_socket: Any = None
) -> tuple[Any, Any]:
    context = browser.new_context(viewport={"width": 1200, "height": 950}, locale=locale)
    page = context.new_page()
    if on_socket is not None:
        page.on("websocket", on_socket)
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server_url}/index.html")
    page.evaluate(
        "([code, seat, token]) => localStorage.setItem(`mindtable:seat:${code}`,"
        " JSON.stringify({seat, token, name: 'Ana', game: 'carrera-de-mente', saved: Date.now()}))",
        [code, seat, token],
    )
    page.goto(f"{server_url}/room.html?code={code}")
    return context, page


def _click_step(page: Any, step: Step, seat: int, shots: Path, done: set[str]) -> None:
    """Carry out the scripted player's ``step`` through the page's own buttons and answer box."""
    kind = step.kind
    if kind == "roll":
        assert page.locator('[data-testid="cm-turn"]').inner_text() == "Your turn: roll the die."
        page.click('[data-testid="cm-roll"]')
    elif kind == "roll_number":
        page.click('[data-testid="cm-roll-number"]')
    elif kind == "topic":
        page.click(f'[data-testid="cm-topic-{step.value}"]')
    elif kind == "lap_prize":
        if "lap_prize" not in done:
            page.screenshot(path=str(shots / "carrera-lap-prize.png"), full_page=True)
        page.click(f'[data-testid="cm-lap-{step.value}"]')
    elif kind == "steal":
        if "steal" not in done:
            page.screenshot(path=str(shots / "carrera-steal.png"), full_page=True)
        page.click(f'[data-testid="cm-steal-{step.value}"]')
    elif kind in ("ask_confirm", "ask_overrule"):
        # Ana asks: she holds the card with its answer and the judge's suggestion.
        page.wait_for_selector('[data-testid="quiz-reader-card"] [data-testid="quiz-reader-answer"]')
        assert page.locator('[data-testid="cm-asker"]').inner_text().startswith("You ask")
        if "asker" not in done:
            page.screenshot(path=str(shots / "carrera-asker.png"), full_page=True)
            done.add("asker")
        page.click('[data-testid="quiz-confirm"]' if kind == "ask_confirm" else '[data-testid="quiz-overrule"]')
    elif kind == "ask_options":
        page.click('[data-testid="quiz-ask-options"]')
    else:
        # Ana answers: the question as the answering side sees it, never the asker's card.
        assert page.locator('[data-testid="quiz-reader-card"]').count() == 0
        if len(step.value) == 1 and page.locator(f'[data-testid="quiz-letter-{step.value}"]').count():
            if "options" not in done:
                page.screenshot(path=str(shots / "carrera-options.png"), full_page=True)
                done.add("options")
            page.click(f'[data-testid="quiz-letter-{step.value}"]')
        else:
            page.fill('[data-testid="quiz-input"]', step.value)
            if "answer" not in done:
                page.screenshot(path=str(shots / "carrera-answer.png"), full_page=True)
                done.add("answer")
            page.click('[data-testid="quiz-send"]')
    done.add(kind)


def test_a_person_plays_carrera_de_mente_from_the_lobby_to_the_end(
    browser: Any, server_url: str, screenshots: Path
) -> None:
    """Ana makes a room in the lobby (two seats, the second a knowing bot, the small board) and plays the whole
    game through the page: rolls, number dice, booklets on grey squares, lap prizes, questions answered in the
    box (the options asked for when one square is enough), the bot's questions read from her card and confirmed
    or overruled, a steal on the bot's square with the colour she chooses, to her six colours. The path is the
    scripted player's (tests/carrera_de_mente/player.py), checked for every seed by test_scripted_player.py."""
    context = browser.new_context(viewport={"width": 1200, "height": 950}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server_url}/index.html")
    page.wait_for_selector(f'#game-select option[value="{GAME_ID}"]', state="attached")
    page.select_option("#game-select", GAME_ID)
    page.select_option("#players-select", "2")
    page.fill("#create-name", "Ana")
    page.select_option('[data-testid="seat-1"]', "knowing")
    page.select_option("#opt-board", "small")
    assert not page.locator("#opt-variant_short").is_checked()
    page.screenshot(path=str(screenshots / "carrera-lobby.png"), full_page=True)
    page.click('[data-testid="create-button"]')
    page.wait_for_url(re.compile(r"room\.html\?code=[A-Z0-9]{6}"))
    code = page.locator('[data-testid="room-code"]').inner_text().strip()
    room = get_json(f"{server_url}/api/rooms/{code}")
    assert room["options"]["board"] == "small" and [s["kind"] for s in room["seats"]] == ["human", "bot"]
    seat = 0
    page.wait_for_selector('[data-testid="cm-board"] svg.mt-board')
    assert page.locator('[data-testid="cm-board"] .mt-square').count() == 14
    assert page.locator('[data-testid="cm-board"] [data-pawn]').count() == 2
    assert page.locator('[data-testid="cm-board"] .cm-star-token').count() == 6  # a prize token on each star

    done: set[str] = set()
    stolen, seq, clicks = False, -1, 0
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        # The next state that asks something of Ana (or the end); bots act on the server meanwhile.
        state = page.wait_for_function(NEXT_STATE, arg=seq).json_value()
        view, seq = state["view"], state["seq"]
        if view["phase"] == "over":
            break
        step = plan(view, state["legal"], seat, stolen)
        assert step is not None, f"the page offers Ana nothing the script knows: {state['legal']}"
        victim_had = list(view["prizes"][1 - seat])
        _click_step(page, step, seat, screenshots, done)
        clicks += 1
        if step.kind == "steal":
            # The chosen token leaves the bot's row on the page (to Ana, or back to the box if she had it).
            assert step.value in victim_had
            page.wait_for_function(
                "([s, c]) => !document.querySelector(`[data-testid=cm-prizes-${s}] [data-colour=${c}]`)",
                arg=[1 - seat, step.value],
            )
            stolen = True
    assert get_json(f"{server_url}/api/rooms/{code}")["status"] == "over", f"not over; done: {sorted(done)}"
    page.wait_for_selector("#over-panel:not([hidden])")
    page.wait_for_selector('#over-panel [data-testid="cm-summary"]')
    assert "Ana" in page.locator('#over-panel [data-testid="cm-summary"]').inner_text()
    page.screenshot(path=str(screenshots / "carrera-over.png"), full_page=True)
    # A spectator in Spanish opens the same room and sees the summary.
    watcher = browser.new_context(viewport={"width": 900, "height": 900}, locale="es-ES")
    spectator = watcher.new_page()
    spectator.set_default_timeout(TIMEOUT_MS)
    spectator.goto(f"{server_url}/room.html?code={code}&spectate=1")
    spectator.wait_for_selector("#over-panel:not([hidden])")
    spectator.screenshot(path=str(screenshots / "carrera-over-es.png"), full_page=True)
    assert "Jugador" in spectator.locator('#over-panel [data-testid="cm-summary"]').inner_text()
    assert {"roll", "roll_number", "ask_answer", "steal", "lap_prize"} <= done and {
        "ask_confirm",
        "ask_overrule",
    } & done
    record = get_json(f"{server_url}/api/rooms/{code}/record")
    mine = {a["type"] for a in record["actions"] if a["seat"] == seat}
    assert {"roll", "roll_number", "ask_answer", "steal", "lap_prize"} <= mine
    result = get_json(f"{server_url}/api/rooms/{code}")["result"]
    assert result["winners"] == [seat] and result["reason"] == "six_colours"
    assert errors == [] and clicks <= MOST_ACTIONS + 1
    watcher.close()
    context.close()


def _act(page: Any, done: set[str], decisions: list[int], shots: Path) -> bool:
    """Take the action this seat's page offers, through its buttons; False when there is none."""
    state = page.evaluate("window.mindtableShell && window.mindtableShell.lastState")
    if not state or not state.get("legal"):
        return False
    legal = {a["type"] for a in state["legal"]}
    ask = state["view"].get("ask")
    if "roll" in legal:
        page.click('[data-testid="cm-roll"]')
    elif "roll_number" in legal:
        page.click('[data-testid="cm-roll-number"]')
    elif "topic" in legal:
        page.locator('[data-testid^="cm-topic-"]').last.click()
        done.add("topic")
    elif "lap_prize" in legal:
        page.locator('[data-testid^="cm-lap-"]').first.click()
        done.add("lap")
    elif "steal" in legal:
        if "steal" not in done:
            page.screenshot(path=str(shots / "carrera-hotseat-steal.png"), full_page=True)
        page.locator('[data-testid^="cm-steal-"]').first.click()
        done.add("steal")
    elif "ask_confirm" in legal:
        page.wait_for_selector('[data-testid="quiz-reader-answer"]')
        decisions.append(1)
        if len(decisions) % 3:  # two answers in three made right by the asker, the third left wrong
            page.click('[data-testid="quiz-overrule"]')
            done.add("overrule")
        else:
            page.click('[data-testid="quiz-confirm"]')
    elif "ask_answer" in legal:
        assert ask["role"] == "answerer" and "card" not in ask
        if page.locator('[data-testid="quiz-reader-card"]').count():
            raise AssertionError("the answering seat's page shows the asker's card")
        page.fill('[data-testid="quiz-input"]', "no idea")
        page.click('[data-testid="quiz-send"]')
    else:
        return False
    page.wait_for_function(
        "(n) => window.mindtableShell.lastState && window.mindtableShell.lastState.seq > n", arg=state.get("seq", -1)
    )
    return True


def test_two_people_play_hot_seat_one_page_per_seat(browser: Any, server_url: str, screenshots: Path) -> None:
    """Two people, one page each (hot-seat on one machine or one device each): every question is answered on
    the answering seat's page and decided on the asker's; the asker overrules two wrong answers in three to right,
    so pegs move five, win stars, laps and steals, until the turn limit ends the game."""
    first = post_json(
        f"{server_url}/api/rooms",
        {
            "game": GAME_ID,
            "players": 2,
            "name": "Ana",
            "options": {"board": "small", "variant_short": True, "turn_limit": 6},
        },
    )
    code = first["code"]
    second = post_json(f"{server_url}/api/rooms/{code}/join", {"name": "Beto"})
    refused: list[str] = []

    def watch(ws: Any) -> None:
        ws.on("framereceived", lambda frame: refused.append(frame) if '"kind":"rejected"' in str(frame) else None)

    ana_context, ana = _seat_page(browser, server_url, code, first["seat"], first["token"], "en-US", watch)
    beto_context, beto = _seat_page(browser, server_url, code, second["seat"], second["token"], "es-ES", watch)
    errors: list[str] = []
    for page in (ana, beto):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.wait_for_selector('[data-testid="cm-board"] svg.mt-board')
    done: set[str] = set()
    decisions: list[int] = []
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and get_json(f"{server_url}/api/rooms/{code}")["status"] != "over":
        acted = _act(ana, done, decisions, screenshots) or _act(beto, done, decisions, screenshots)
        if not acted:
            ana.wait_for_timeout(100)
    assert get_json(f"{server_url}/api/rooms/{code}")["status"] == "over"
    for page, name in ((ana, "carrera-hotseat-over-en.png"), (beto, "carrera-hotseat-over-es.png")):
        page.wait_for_selector('#over-panel [data-testid="cm-summary"]')
        page.screenshot(path=str(screenshots / name), full_page=True)
    assert "overrule" in done
    assert refused == [], f"a page sent an action the server refused (a notice would say so): {refused[:3]}"
    record = get_json(f"{server_url}/api/rooms/{code}/record")
    assert {a["seat"] for a in record["actions"] if a["type"] == "ask_answer"} == {0, 1}
    assert errors == []
    ana_context.close()
    beto_context.close()


#: Mount the page module alone on a view (as the shell does) and list the colours of the stars' tokens.
STAR_TOKENS = """async ([view, seat]) => {
  const module = await import("/games/carrera-de-mente/index.js");
  const root = document.createElement("div");
  document.body.append(root);
  const t = (key) => key;
  t.has = () => false;
  const table = module.mount(root, { seat, spectator: seat === null, lang: "en", t, send: () => Promise.resolve(),
    seatName: (s) => `Seat ${s + 1}`, seats: () => [], notify() {}, announce() {}, sound() {} });
  table.update({ view, legal: [] });
  const stars = [...root.querySelectorAll(".cm-star")];
  const shown = [...root.querySelectorAll(".cm-star-token")].map((hex) => hex.getAttribute("data-colour")).sort();
  root.remove();
  return { stars: stars.length, won: stars.filter((c) => c.classList.contains("cm-star-won")).length, shown };
}"""


def test_a_star_square_no_longer_shows_its_prize_token_once_that_colour_is_won(browser: Any, server_url: str) -> None:
    """Ana (seat 0) wins orange on the orange star; Beto (seat 1) holds green. Ana's page shows no token on the
    orange star any more (it only moves her on now, clarification 1), Beto's still does and shows none on the
    green star; a spectator sees the stars as the player whose turn it is would."""
    from tests.carrera_de_mente.helpers import answer_right, position, roll_number

    colours = sorted(["green", "skyblue", "yellow", "pink", "brown", "orange"])
    match = position(players=2, pegs=[6, 20], prizes={1: ["green"]}, arrive=True)  # s6: the orange star
    roll_number(match)
    before = match.view(0)
    answer_right(match)
    assert match.view(0)["prizes"][0] == ["orange"], "Ana won the orange star"
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server_url}/index.html")
    assert page.evaluate(STAR_TOKENS, [before, 0]) == {"stars": 6, "won": 0, "shown": colours}
    ana = page.evaluate(STAR_TOKENS, [match.view(0), 0])
    beto = page.evaluate(STAR_TOKENS, [match.view(1), 1])
    watcher = page.evaluate(STAR_TOKENS, [match.view(None), None])
    assert ana == {"stars": 6, "won": 1, "shown": [c for c in colours if c != "orange"]}
    assert beto == {"stars": 6, "won": 1, "shown": [c for c in colours if c != "green"]}
    assert watcher == (ana if match.view(None)["turn"] == 0 else beto)
    assert errors == []
    context.close()
