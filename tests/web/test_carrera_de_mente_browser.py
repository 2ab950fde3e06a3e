"""Carrera de Mente in the browser (games/carrera-de-mente/): a person makes a room in the lobby and plays a
whole game on the small board against a knowing bot through the page — rolls the move die and the three number
dice from buttons, chooses booklets, lap prizes and the colour to steal, answers in the shared quiz box without
ever seeing the answer, and, as the asker, reads the card with its answer and confirms or overrules the judge —
to the end, where the summary shows every player's prizes; a spectator follows the same room in Spanish. Two
people also play hot-seat on one page passed between them; the page's star squares are checked alone."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.carrera_de_mente.player import Step, plan
from tests.carrera_de_mente.test_scripted_player import MOST_ACTIONS
from tests.web.conftest import get_json, post_json, room_code
from tests.web.quiz_pages import ask_card_leaks, frames_by_seat, here_tokens, pass_the_page, record_sockets

pytestmark = pytest.mark.browser
TIMEOUT_MS = 10_000
GAME_ID = "carrera-de-mente"
#: The page's own words (its catalogue), en/es/et.
GAME_WORDS = Path(__file__).resolve().parents[2] / "mindtable" / "games" / "carrera_de_mente" / "web" / "i18n"
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
    elif kind == "roll_whole_number":
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
        if kind == "ask_confirm":
            page.click('[data-testid="quiz-confirm"]')
        else:  # changing the verdict asks a second click
            page.click('[data-testid="quiz-overrule"]')
            page.click('[data-testid="quiz-overrule"]')
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
    # the room's bots take a person's pace by default (so people can follow); this test's bot plays at once
    assert page.locator('[data-testid="bot-pace"]').input_value() == "normal"
    page.select_option('[data-testid="bot-pace"]', "off")
    page.screenshot(path=str(screenshots / "carrera-lobby.png"), full_page=True)
    page.click('[data-testid="create-button"]')
    page.wait_for_url(re.compile(r"room\.html\?code=[A-Z0-9]{6}"))
    code = room_code(page)
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
        if any(a["type"] == "ask_final" for a in state["legal"]):  # her verdict waits (a room's undo_seconds)
            page.click('[data-testid="quiz-final"]')
            continue
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
    # Both pages say who won (or between whom the tie is) under the headline, by name.
    winners = get_json(f"{server_url}/api/rooms/{code}/record")["result"]["winners"]
    names = [s["name"] for s in get_json(f"{server_url}/api/rooms/{code}")["seats"] if s["seat"] in winners]
    for shown in (page, spectator):
        line = shown.locator('#over-panel [data-testid="over-winners"]').inner_text()
        assert names and all(n in line for n in names), (line, names)
    assert {"roll", "roll_whole_number", "ask_answer", "steal", "lap_prize"} <= done
    record = get_json(f"{server_url}/api/rooms/{code}/record")
    # Ana reads the bot's card whenever the bot answers; on some seeds she wins before the bot answers at all.
    if any(a["type"] in ("ask_answer", "ask_options") and a["seat"] != seat for a in record["actions"]):
        assert {"ask_confirm", "ask_overrule"} & done, f"the bot answered, Ana never judged: {sorted(done)}"
    mine = {a["type"] for a in record["actions"] if a["seat"] == seat}
    assert {"roll", "roll_whole_number", "ask_answer", "steal", "lap_prize"} <= mine and "roll_number" not in mine
    result = get_json(f"{server_url}/api/rooms/{code}")["result"]
    assert result["winners"] == [seat] and result["reason"] == "six_colours"
    assert errors == [] and clicks <= MOST_ACTIONS + 1
    watcher.close()
    context.close()


HOT_ACTIONS = (
    ", ".join(
        f'[data-testid="{testid}"]'
        for testid in ("pass-ready", "cm-roll", "cm-roll-number", "quiz-confirm", "quiz-send", "cm-summary")
    )
    + ', [data-testid^="cm-topic-"], [data-testid^="cm-lap-"], [data-testid^="cm-steal-"]'
)


def test_hot_seat_one_page_passed_between_two_people(browser: Any, server_url: str, screenshots: Path) -> None:
    """Ana creates a room for two on the small board with Bea "on this device": one page, passed from hand to
    hand. Every question is answered by the one whose turn it is, then the page goes to the other, who asks: the
    asker's card with its answer is on the screen only in the asker's hands, never the answerer's nor on the
    pass screen, and each seat's WebSocket carries it only to its asker. They never know (every answer wrong, the
    asker confirms), so each turn is one question and the turn limit (four turns) ends the game: a fixed path
    whatever the dice."""
    context = browser.new_context(viewport={"width": 1200, "height": 950}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sockets = record_sockets(page)
    page.goto(f"{server_url}/index.html")
    page.wait_for_selector(f'#game-select option[value="{GAME_ID}"]', state="attached")
    page.select_option("#game-select", GAME_ID)
    page.select_option("#players-select", "2")
    page.fill("#create-name", "Ana")
    page.select_option('[data-testid="seat-1"]', "@here")
    page.fill('[data-testid="seat-name-1"]', "Bea")
    page.select_option("#opt-board", "small")
    page.fill("#opt-turn_limit", "4")
    page.click('[data-testid="create-button"]')
    page.wait_for_url(re.compile(r"room\.html\?code=[A-Z0-9]{6}"))
    code = room_code(page)
    room = get_json(f"{server_url}/api/rooms/{code}")
    assert [(s["kind"], s["name"]) for s in room["seats"]] == [("human", "Ana"), ("human", "Bea")]
    assert room["options"]["turn_limit"] == 4 and room["options"]["board"] == "small"
    tokens = here_tokens(page, code)
    assert sorted(tokens.values()) == [0, 1]

    done: dict[str, int] = {}
    card_seen_by: set[int] = set()
    started = time.monotonic()
    for _ in range(200):
        page.wait_for_selector(HOT_ACTIONS, state="visible", timeout=20_000)
        if page.locator('[data-testid="cm-summary"]').first.is_visible():
            break
        card = page.locator('[data-testid="quiz-reader-card"]')
        if page.locator('[data-testid="pass-device"]').is_visible():
            shot = screenshots / "carrera-hotseat-pass.png" if "pass" not in done else None
            pass_the_page(page, "#game.cm", {0: "Ana", 1: "Bea"}, shot)
            done["pass"] = done.get("pass", 0) + 1
            continue
        holder = page.evaluate("window.mindtableShell.seat")
        state = page.evaluate("window.mindtableShell.lastState")
        view, before = state["view"], state["step"]
        if card.count():
            assert holder == view["asker"] != view["turn"], (holder, view["asker"], view["turn"])
            card_seen_by.add(holder)
        if holder == view["turn"] and view.get("ask"):
            assert card.count() == 0, "the answerer holds the page: no asker's card"
        if page.locator('[data-testid="cm-roll"]').is_visible():
            page.click('[data-testid="cm-roll"]')
            what = "roll"
        elif page.locator('[data-testid="cm-roll-number"]').is_visible():
            page.click('[data-testid="cm-roll-number"]')
            what = "roll_whole_number"
        elif page.locator('[data-testid^="cm-topic-"]').first.is_visible():
            page.locator('[data-testid^="cm-topic-"]').first.click()
            what = "topic"
        elif page.locator('[data-testid^="cm-lap-"]').first.is_visible():
            page.locator('[data-testid^="cm-lap-"]').first.click()
            what = "lap"
        elif page.locator('[data-testid="quiz-confirm"]').is_visible():
            assert card.count() == 1 and page.locator('[data-testid="quiz-reader-answer"]').count() == 1
            if "confirm" not in done:
                page.screenshot(path=str(screenshots / "carrera-hotseat-asker.png"), full_page=True)
            page.click('[data-testid="quiz-confirm"]')
            what = "confirm"
        elif page.locator('[data-testid="quiz-send"]').is_visible():
            assert holder == view["turn"] and card.count() == 0
            if "answer" not in done:
                page.screenshot(path=str(screenshots / "carrera-hotseat-answerer.png"), full_page=True)
            page.fill('[data-testid="quiz-input"]', "no idea")
            page.click('[data-testid="quiz-send"]')
            what = "answer"
        else:
            page.wait_for_timeout(100)  # the table is being drawn: look again
            continue
        done[what] = done.get(what, 0) + 1
        # the step happened (or the page was taken down to be passed on)
        page.wait_for_function(
            "before => !window.mindtableShell.lastState || window.mindtableShell.lastState.step > before",
            arg=before,
        )
    page.wait_for_selector('#over-panel [data-testid="cm-summary"]')
    page.screenshot(path=str(screenshots / "carrera-hotseat-over.png"), full_page=True)
    room = get_json(f"{server_url}/api/rooms/{code}")
    assert room["status"] == "over" and room["result"]["reason"] == "turn_limit"
    # four turns of one wrong answer each, every one confirmed by the other person after the page was passed
    # one click rolls each question's number (the book's three rolls in one gesture)
    assert done["roll"] == 4 and done["roll_whole_number"] == 4 and done["answer"] == done["confirm"] == 4, done
    assert done["pass"] >= 5 and card_seen_by == {0, 1}, (done, card_seen_by)
    record = get_json(f"{server_url}/api/rooms/{code}/record")
    assert [a["seat"] for a in record["actions"] if a["type"] == "ask_answer"] in ([0, 1, 0, 1], [1, 0, 1, 0])
    seen = frames_by_seat(sockets, tokens)
    for seat, frames in seen.items():
        problems = [p for frame in frames for p in ask_card_leaks(frame, seat)]
        assert problems == [], problems[:5]
    assert len(seen.get(0, [])) > 10 and len(seen.get(1, [])) > 10
    assert errors == []
    assert time.monotonic() - started < 45
    context.close()


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


#: Watch the question number's dice on the page: the digits shown after each change, until three are shown.
WATCH_NUMBER = """() => {
  window.cmShown = [];
  const box = document.querySelector('[data-testid="cm-dice"]');
  const read = () => [...box.querySelectorAll('[data-testid="cm-number"] [data-testid="cm-die"]')]
    .map((d) => d.textContent).filter((x) => x !== "·").join("");
  new MutationObserver(() => {
    const now = read();
    if (window.cmShown[window.cmShown.length - 1] !== now) window.cmShown.push(now);
  }).observe(box, { childList: true, subtree: true, characterData: true });
}"""


def test_one_click_rolls_the_question_number_and_the_page_shows_its_three_dice_one_after_the_other(
    browser: Any, server_url: str
) -> None:
    """Issue #28: the book's three rolls in one gesture. Ana's page offers one "roll the number" button; one
    click sends one action (``roll_whole_number``), and the three dice appear one after the other in the order
    they came up, ending on the number the question is asked for."""
    room = {"game": GAME_ID, "players": 2, "name": "Ana", "bots": {"1": "knowing"}, "bot_pace": "off"}
    request = urllib.request.Request(
        f"{server_url}/api/rooms",
        data=json.dumps({**room, "options": {"board": "small"}}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=60) as response:  # the first room reads the booklets
        created = json.loads(response.read())
    code, seat = created["code"], created["seat"]
    context, page = _seat_page(browser, server_url, code, seat, created["token"], "en-US")
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    seq = -1
    for _ in range(60):  # Ana's way to her first question number: her roll, the bot's questions read and judged
        state = page.wait_for_function(NEXT_STATE, arg=seq).json_value()
        seq, legal = state["seq"], {a["type"] for a in state["legal"]}
        if "roll_whole_number" in legal:
            break
        if "roll" in legal:
            page.click('[data-testid="cm-roll"]')
        elif "topic" in legal:
            page.locator('[data-testid^="cm-topic-"]').first.click()
        elif "lap_prize" in legal:
            page.locator('[data-testid^="cm-lap-"]').first.click()
        elif "ask_confirm" in legal:
            page.click('[data-testid="quiz-confirm"]')
        elif "ask_final" in legal:  # her verdict waits (a room's undo_seconds): it counts now
            page.click('[data-testid="quiz-final"]')
        elif not legal:  # the bot's move (its roll, its answer): the next state comes by itself
            continue
        else:
            pytest.fail(f"unexpected step for Ana: {sorted(legal)}")
    else:
        pytest.fail("Ana never came to roll a question number")
    assert {"roll_number", "roll_whole_number"} <= legal  # the one-die move stays legal; the page offers the one
    button = page.locator('[data-testid="cm-roll-number"]')
    assert button.count() == 1 and button.inner_text() == "Roll the question number (3 dice)"
    page.evaluate(WATCH_NUMBER)
    before = state["step"]
    button.click()
    page.wait_for_function("() => window.mindtableShell.lastState.view.phase !== 'number'")
    # one action took the match from the number's step to the question (Ana answers next: nobody else acts)
    assert page.evaluate("window.mindtableShell.lastState.step") == before + 1
    digits = "".join(str(d) for d in page.evaluate("window.mindtableShell.lastState.view.context.digits"))
    page.wait_for_function("n => window.cmShown.includes(n)", arg=digits)
    shown = page.evaluate("window.cmShown")
    # one die more at each change, each the die that came up next
    assert shown[shown.index(digits[:1]) :] == [digits[:1], digits[:2], digits], shown
    assert f"question {int(digits)}" in page.locator('[data-testid="cm-topic"]').inner_text()
    assert page.locator('[data-testid="cm-roll-number"]').count() == 0
    assert errors == []
    context.close()


@pytest.mark.parametrize("lang", ["en", "es", "et"])
def test_the_boards_marks_have_a_legend_and_its_squares_say_what_they_are_in_the_pages_language(
    browser: Any, server_url: str, lang: str
) -> None:
    """Beside the board, what its ➜, ★ and ⬡ mean, in the page's words; a square's tooltip (its SVG title) names
    it, its colour and booklet, and a star, in the page's language too (not the board file's English ids)."""
    words = json.loads((GAME_WORDS / f"{lang}.json").read_text(encoding="utf-8"))
    created = post_json(
        f"{server_url}/api/rooms",
        {"game": GAME_ID, "players": 2, "name": "Ana", "bots": {"1": "knowing"}, "options": {"board": "small"}},
    )
    locale = {"en": "en-US", "es": "es-ES", "et": "et-EE"}[lang]
    context, page = _seat_page(browser, server_url, created["code"], created["seat"], created["token"], locale)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.wait_for_selector('[data-testid="cm-marks"] li')
    legend = page.locator('[data-testid="cm-marks"]')
    assert legend.is_visible() and legend.get_attribute("aria-label") == words["cm.marks"]
    shown = {
        item.get_attribute("data-mark"): " ".join(item.inner_text().split()) for item in legend.locator("li").all()
    }
    glyphs = {"start": "➜", "star": "★", "token": "⬡"}
    assert shown == {mark: f"{glyph} {words[f'cm.mark.{mark}']}" for mark, glyph in glyphs.items()}
    # the marks the legend explains are the board's: the arrows, the stars and their prize tokens
    board = page.locator('[data-testid="cm-board"] svg.mt-board')
    assert board.locator(".mt-square-mark", has_text="➜").count() == 1
    assert board.locator(".mt-square-mark", has_text="★").count() == 6
    assert board.locator(".cm-star-token").count() == 6
    # s2 of the small board: sky blue, History and Geography, a star; s0 is the arrows, a grey square
    title = board.locator('[data-square="s2"] > title').text_content()
    colour = words["cm.square.colour"].format(
        colour=words["cm.colour.skyblue"], topic=words["cm.topic.history_geography"]
    )
    assert title == f"{words['cm.square.n'].format(n=2)} · {colour} · {words['cm.square.star']}"
    start = board.locator('[data-square="s0"] > title').text_content()
    grey = words["cm.square.colour"].format(colour=words["cm.colour.grey"], topic=words["cm.free_topic"])
    assert start == f"{words['cm.square.start'].format(n=0)} · {grey}"
    assert errors == []
    context.close()
