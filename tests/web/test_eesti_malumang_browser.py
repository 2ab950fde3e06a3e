"""Eesti mälumäng in the browser, in Estonian (locale et-EE, so the site and the cards are in Estonian).

* A whole short board game from the lobby to the end: Ana creates the room in the lobby's form (two seats, a
  knowing bot, variant 1 — the outer track — with one Estonia card of each colour, the house option for a
  short game) and plays seat 0 through the page only: places her piece on an Estonia space, rolls, chooses one
  of the highlighted squares by clicking the board (an Estonia space when the die reaches one, else a colour
  whose card is still on the table), names a category with a card left on an Estonia space, answers in the
  quiz box (she "knows" the shipped cards: the test looks the question up by its prompt, as a person who had
  read them), and, as the asker, reads the card with its answer and confirms the judge — until the six cards
  are taken and the summary shows every player's Estonia cards. Every WebSocket frame her page receives is
  checked: the asker's card only ever arrives while she asks.
* Variant 2's clock counts down live on the page between the server's messages (Playwright's clock drives
  the page's timers; the server's clock is real).

Screenshots go to ``artifacts/screenshots/eesti-*.png``.
"""

from __future__ import annotations

import json
import re
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

from mindtable.games.eesti_malumang.bots import library
from tests.web.conftest import get_json, post_json, room_code
from tests.web.quiz_pages import ask_card_leaks, watched_page

pytestmark = pytest.mark.browser
TIMEOUT_MS = 15_000
GAME_ID = "eesti-malumang"
DESKTOP = {"width": 1200, "height": 950}


def topic_of(view: dict[str, Any], square: str) -> str | None:
    board = view.get("board") or {}
    for sq in board.get("squares", ()):
        if sq["id"] == square:
            return board["colours"].get(sq["colour"], {}).get("topic")
    return None


class Ana:
    """The human at seat 0: an Estonian page, the frames it received, what she has done."""

    def __init__(self, browser: Any) -> None:
        self.context = browser.new_context(viewport=DESKTOP, locale="et-EE")
        self.page, self.errors, self.frames = watched_page(self.context, TIMEOUT_MS)
        self.done: dict[str, int] = {}
        self.unanswered: list[str] = []

    def count(self, what: str) -> None:
        self.done[what] = self.done.get(what, 0) + 1

    def state(self) -> dict[str, Any]:
        self.page.wait_for_function("() => window.mindtableShell && window.mindtableShell.lastState")
        state: dict[str, Any] = self.page.evaluate("window.mindtableShell.lastState")
        return state

    def looks(self) -> dict[str, Any]:
        """What the page shows when it took no click: the connection's status, the text in the answer box, how many
        send buttons and answer boxes the page has, the toasts on screen, and the seq of the last state it drew."""
        try:
            found: dict[str, Any] = self.page.evaluate(
                """() => ({
                    status: window.mindtableShell?.status,
                    seq: window.mindtableShell?.lastState?.seq,
                    input: [...document.querySelectorAll('[data-testid="quiz-input"]')].map((e) => e.value),
                    send: document.querySelectorAll('[data-testid="quiz-send"]').length,
                    toasts: [...document.querySelectorAll('#toasts .toast')].map((e) => e.textContent),
                })"""
            )
        except Exception as exc:  # the page itself is gone: say so
            return {"error": str(exc)}
        return found

    def wait_past(self, seq: int, what: str = "") -> None:
        """Wait for the state after ``seq``. A click the page did not take (it was redrawing under the pointer) is
        looked at again by the caller's loop — at most five times in a game, each one named."""
        try:
            self.page.wait_for_function(
                "(n) => window.mindtableShell.lastState && window.mindtableShell.lastState.seq > n",
                arg=seq,
                timeout=5_000,
            )
        except Exception:
            refused = [f for f in self.frames if isinstance(f, dict) and f.get("kind") == "rejected"][-1:]
            self.unanswered.append(f"{what} at seq {seq} {refused} page: {self.looks()}")
            assert len(self.unanswered) <= 5, f"the page did not take these clicks: {self.unanswered}"


def test_a_person_plays_a_whole_short_board_game_in_estonian_from_the_lobby(
    browser: Any, server_url: str, screenshots: Path
) -> None:
    started = time.monotonic()
    ana = Ana(browser)
    page = ana.page
    # -- the lobby, in Estonian: the form shows the options of the chosen variant ------------------------------
    page.goto(f"{server_url}/index.html")
    page.wait_for_selector(f'#game-select option[value="{GAME_ID}"]', state="attached")
    assert page.evaluate("document.documentElement.lang") == "et"
    assert page.locator("#create-title").inner_text() == "Loo tuba"
    page.select_option("#game-select", GAME_ID)
    page.select_option("#players-select", "2")
    page.fill("#create-name", "Ana")
    page.select_option('[data-testid="seat-1"]', "knowing")
    assert "teadja" in page.locator('[data-testid="seat-1"] option[value="knowing"]').inner_text()
    assert page.locator("#opt-game_minutes").is_hidden()  # a variant-2 option, hidden for the board game
    page.select_option("#opt-variant", "outer_track")
    cards_field = page.locator("label", has=page.locator("#opt-cards_per_colour"))
    assert cards_field.locator("span").first.inner_text() == "Eesti kaarte igast värvist"
    page.fill("#opt-cards_per_colour", "1")
    page.select_option('[data-testid="bot-pace"]', "off")  # the bot plays at once here (a person's pace: below)
    page.screenshot(path=str(screenshots / "eesti-lobby-et.png"), full_page=True)
    page.click('[data-testid="create-button"]')
    page.wait_for_url(re.compile(r"room\.html\?code=[A-Z0-9]{6}"))
    code = room_code(page)
    room = get_json(f"{server_url}/api/rooms/{code}")
    assert room["game"] == GAME_ID and room["players"] == 2
    assert room["options"]["variant"] == "outer_track" and room["options"]["cards_per_colour"] == 1
    assert room["options"]["language"] == "et" and room["seats"][1]["kind"] == "bot"
    page.wait_for_selector('[data-testid="em-board"] svg.mt-board')
    assert page.locator('[data-testid="em-board"] .mt-square').count() > 10

    # -- the game, through the page only ---------------------------------------------------------------------
    cards = library()
    deadline = time.monotonic() + 150
    while get_json(f"{server_url}/api/rooms/{code}")["status"] != "over":
        assert time.monotonic() < deadline, f"the game did not end; done: {ana.done}"
        state = ana.state()
        legal = state.get("legal") or []
        types = {a["type"] for a in legal}
        view = state["view"]
        seq = state.get("seq", -1)
        supply = view.get("supply") or {}
        if "place" in types:
            page.locator('[data-testid^="em-place-"]').first.click()
            ana.count("place")
        elif "roll" in types:
            assert page.locator('[data-testid="em-turn"]').inner_text() == "Sinu kord: viska täringut."
            page.click('[data-testid="em-roll"]')
            ana.count("roll")
        elif "move" in types:
            # The squares the die reaches are outlined on the board; one is chosen by clicking the board: an
            # Estonia space (the player names the category), else a colour whose card is still on the table.
            targets = [a["to"] for a in legal if a["type"] == "move"]
            estonia = set(view["board"]["estonia"])
            wanted = [t for t in targets if t in estonia] + [t for t in targets if supply.get(topic_of(view, t) or "")]
            target = (wanted or targets)[0]
            if "move" not in ana.done:
                page.screenshot(path=str(screenshots / "eesti-direction-et.png"), full_page=True)
            page.click(f'[data-testid="em-board"] .mt-square[data-square="{target}"]')
            ana.count("move")
        elif "category" in types:
            left = [c for c in view["categories"] if supply.get(c)]
            page.click(f'[data-testid="em-category-{left[0]}"]')
            ana.count("category")
        elif "ask_confirm" in types:
            assert view["ask"]["role"] == "reader" and "card" in view["ask"]
            page.wait_for_selector('[data-testid="quiz-reader-card"] [data-testid="quiz-reader-answer"]')
            assert page.locator('[data-testid="em-asker"]').inner_text().startswith("Sina esitad küsimusi")
            if "confirm" not in ana.done:
                page.screenshot(path=str(screenshots / "eesti-asker-et.png"), full_page=True)
            page.click('[data-testid="quiz-confirm"]')
            ana.count("confirm")
        elif "ask_answer" in types:
            if sum(u.startswith(f"ask_answer at seq {seq} ") for u in ana.unanswered) >= 2 and "ask_pass" in types:
                # Seen once on CI: the page took no typed answer at one question (four tries). Pass there, so the game
                # goes on; the warning below names it with the server's last refusal.
                page.click('[data-testid="quiz-pass"]')
                ana.count("pass")
                ana.wait_past(seq, "ask_pass")
                continue
            ask = view["ask"]
            assert ask["role"] == "answerer" and "card" not in ask
            prompt = page.locator('[data-testid="quiz-prompt"]')
            prompt.wait_for()
            known = cards.find(ask["question"]["prompt"])
            assert known is not None, f"not a shipped card: {ask['question']['prompt']!r}"
            assert known.prompt in prompt.inner_text()
            page.fill('[data-testid="quiz-input"]', known.required_answer or known.answer)
            if "answer" not in ana.done:
                page.screenshot(path=str(screenshots / "eesti-answer-et.png"), full_page=True)
            page.click('[data-testid="quiz-send"]')
            ana.count("answer")
        else:
            page.wait_for_timeout(100)
            continue
        ana.wait_past(seq, sorted(types)[0] if types else "")

    if ana.unanswered:  # said in the test report, so a page that drops clicks now and then is seen
        warnings.warn(f"Eesti page: clicks looked at again: {ana.unanswered}", stacklevel=1)

    # -- the end: the summary, in Estonian, with every player's Estonia cards -------------------------------------
    page.wait_for_selector("#over-panel:not([hidden])")
    summary = page.locator('#over-panel [data-testid="em-summary"]')
    summary.wait_for()
    assert "Eesti kaardid" in summary.inner_text()
    page.screenshot(path=str(screenshots / "eesti-over-et.png"), full_page=True)
    room = get_json(f"{server_url}/api/rooms/{code}")
    result = room["result"]
    assert result["reason"] == "cards_taken" and sum(result["scores"]) == 6.0
    assert summary.locator("tbody .em-card").count() == 6  # the six cards, one of each colour, all taken
    assert {"place", "roll", "move", "answer", "confirm"} <= set(ana.done), ana.done
    record = get_json(f"{server_url}/api/rooms/{code}/record")
    mine = [a for a in record["actions"] if a.get("seat") == 0]
    assert any(a["type"] == "ask_answer" for a in mine) and any(a["type"] == "ask_confirm" for a in mine)
    # The asker's card reached Ana only while she asked; she saw the question she answered.
    problems = [p for frame in ana.frames for p in ask_card_leaks(frame, 0, suggestion=True)]
    assert problems == [], problems[:5]
    assert any("ask_card" in json.dumps(f) for f in ana.frames)  # she did receive the card when she asked
    assert ana.errors == []
    ana.context.close()
    assert time.monotonic() - started < 90, "the short game took too long for a browser test"


def test_the_variant_2_clock_counts_down_live(browser: Any, server_url: str, screenshots: Path) -> None:
    created = post_json(
        f"{server_url}/api/rooms",
        {"game": GAME_ID, "players": 2, "name": "Ana", "bots": {"1": "knowing"}, "options": {"variant": "cards_only"}},
    )
    code, seat, token = created["code"], created["seat"], created["token"]
    context = browser.new_context(viewport=DESKTOP, locale="et-EE")
    saved = json.dumps({"seat": seat, "token": token, "name": "Ana", "game": GAME_ID, "saved": 1})
    context.add_init_script(f"localStorage.setItem('mindtable:seat:{code}', {json.dumps(saved)});")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.clock.install()
    page.goto(f"{server_url}/room.html?code={code}")
    clock = page.locator('[data-testid="em-clock-left"]')
    clock.wait_for()

    def shown() -> int:
        minutes, seconds = clock.inner_text().strip().split(":")
        return int(minutes) * 60 + int(seconds)

    for _attempt in range(3):
        first = shown()
        assert 29 * 60 <= first <= 30 * 60  # the agreed 30 minutes, less the moments since the match began
        step = page.evaluate("window.mindtableShell.lastState.seq")
        page.clock.run_for(12_000)  # the page's own timers run 12 s on
        if page.evaluate("window.mindtableShell.lastState.seq") != step:
            continue  # a message from the server came in between (a bot acted): measure again
        assert first - 13 <= shown() <= first - 11, (first, shown())
        break
    else:
        pytest.fail("the server sent a message during every measurement")
    assert "Mänguaeg: 30 min" in page.locator('[data-testid="em-clock"]').inner_text()
    page.screenshot(path=str(screenshots / "eesti-clock-et.png"), full_page=True)
    assert errors == []
    context.close()


def seated_page(browser: Any, server_url: str, code: str, joined: dict[str, Any], name: str) -> Any:
    """A page in Estonian for a seat already taken through the API (its token saved as the page keeps it)."""
    context = browser.new_context(viewport=DESKTOP, locale="et-EE")
    saved = json.dumps({"seat": joined["seat"], "token": joined["token"], "name": name, "game": GAME_ID, "saved": 1})
    context.add_init_script(f"localStorage.setItem('mindtable:seat:{code}', {json.dumps(saved)});")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server_url}/room.html?code={code}")
    page.wait_for_function("() => window.mindtableShell && window.mindtableShell.lastState")
    return page


def test_variant_2_turn_wording_the_last_question_and_a_refusal_name_the_right_people(
    browser: Any, server_url: str, screenshots: Path
) -> None:
    """Two people in variant 2 (cards only): whoever starts reads "choose the category of your question" (no
    Estonia space); one question is answered and decided by the reader on the left; the last question then names
    the one who answered and, as "decided by", the reader; and a move out of turn is refused naming, by name,
    the player the game waits for (the refusal's seat parameter, 0-based in the engine)."""
    created = post_json(
        f"{server_url}/api/rooms",
        {"game": GAME_ID, "players": 2, "name": "Ana", "options": {"variant": "cards_only", "language": "et"}},
    )
    code = created["code"]
    joined = post_json(f"{server_url}/api/rooms/{code}/join", {"name": "Bruno"})
    names = {created["seat"]: "Ana", joined["seat"]: "Bruno"}
    pages = {created["seat"]: seated_page(browser, server_url, code, created, "Ana")}
    pages[joined["seat"]] = seated_page(browser, server_url, code, joined, "Bruno")
    errors: list[str] = []
    for page in pages.values():
        page.on("pageerror", lambda exc: errors.append(str(exc)))

    def state(seat: int) -> dict[str, Any]:
        pages[seat].wait_for_function("() => window.mindtableShell.lastState.status === 'playing'")
        result: dict[str, Any] = pages[seat].evaluate("window.mindtableShell.lastState")
        return result

    # Whoever the die chose names the category: variant 2's wording, not the Estonia space's.
    first = next(s for s in pages if any(a["type"] == "category" for a in state(s).get("legal") or []))
    other = 1 - first
    turn = pages[first].locator('[data-testid="em-turn"]')
    assert turn.inner_text() == "Sinu kord: vali oma küsimuse kategooria."
    assert "Eesti väli" not in turn.inner_text()
    assert pages[other].locator('[data-testid="em-turn"]').inner_text() == f"{names[first]} valib kategooria."
    pages[first].click('[data-testid="em-category-history"]')

    # The answering player answers right; the reader (on the left: the other player) confirms the judge.
    pages[first].wait_for_selector('[data-testid="quiz-prompt"]')
    ask = state(first)["view"]["ask"]
    known = library().find(ask["question"]["prompt"])
    assert known is not None
    pages[first].fill('[data-testid="quiz-input"]', known.required_answer or known.answer)
    pages[first].click('[data-testid="quiz-send"]')
    pages[other].click('[data-testid="quiz-confirm"]')

    # The last question: who answered, and "decided by" the reader — on both pages.
    for seat, page in pages.items():
        page.wait_for_function(
            "() => { const s = window.mindtableShell.lastState; return s.view.last && !s.view.ask; }"
        )
        view = state(seat)["view"]
        assert (view["last"]["seat"], view["last"]["decided_by"]) == (first, other)
        answerer = page.locator('[data-testid="em-last-answerer"]')
        assert answerer.inner_text() == f"Vastas {names[first]} (Ajalugu)."
        verdict = page.locator('[data-testid="em-last"] [data-testid="quiz-verdict"]')
        # the reader reads that they decided; the other page names the reader
        decided = "otsustasid sina" if seat == other else f"otsustas {names[other]}"
        assert decided in verdict.inner_text()
        assert f"otsustas {names[first]}" not in verdict.inner_text()
    pages[first].screenshot(path=str(screenshots / "eesti-last-question-et.png"), full_page=True)

    # Now it is the other player's turn; the first one tries to name a category and is told whom the game waits
    # for, by name (the engine's em_wait carries seat=<0-based seat>; the server marks it as a seat).
    assert any(a["type"] == "category" for a in state(other)["legal"])
    pages[first].evaluate("window.mindtableShell.send({type: 'category', category: 'sport'}).catch(() => {})")
    toast = pages[first].locator(".toast-error").last
    toast.wait_for()
    assert toast.inner_text() == f"Ei ole lubatud: praegu oodatakse: {names[other]}"
    assert errors == []
    for page in pages.values():
        page.context.close()
