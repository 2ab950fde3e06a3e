"""The quiz table through the server and in the browser, with the reference quiz game (tests/reference_quiz.py,
registered in the test server through ``MINDTABLE_GAMES``).

* Every WebSocket frame a seat or a spectator receives during a whole game carries no answer or unasked
  question of the reader's card unless that seat is the reader (checked against ``Game.secrets`` replayed
  step by step from the record).
* A person plays in Chromium through the shared components (js/quiz.js, js/board.js): rolls, sees the board
  with pawns, answers by typing, asks for the options and answers with a letter, reads the card with its
  answer as the reader and confirms or overrules, sees the countdown and the judge's reason in words.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets

import mindtable
from mindtable.kit.words import page_folder
from mindtable.server.protocol import fill_same
from tests.reference_quiz import CARDS, GAME
from tests.web.conftest import get_json, post_json

TIMEOUT_MS = 10_000


@pytest.fixture(autouse=True, scope="module")
def _quiz_relay_registered() -> Iterator[None]:
    """Quiz Relay is registered while these tests run, and only then (other tests list the registered games)."""
    from mindtable.core import registry

    mindtable.register_game(GAME)
    yield
    registry._loaded.pop(GAME.id, None)


async def _watch(url: str, frames: list[dict[str, Any]], stop: asyncio.Event) -> None:
    async with websockets.connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "last_seq": 0, "stream": None}))
        while not stop.is_set():
            try:
                frame = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
            except TimeoutError:
                continue
            frames.append(frame)
            if frame.get("kind") == "over":
                return


def test_no_frame_carries_the_readers_card_to_another_seat(server_url: str) -> None:
    created = post_json(
        f"{server_url}/api/rooms",
        {
            "game": "quiz-relay",
            "players": 3,
            "name": "Ana",
            "bots": {"1": "knowing", "2": "knowing"},
            "bot_params": {"1": {"knows": 0.3}, "2": {"knows": 0.3}},
            "options": {"target": 12, "reshuffle": True},
        },
    )
    code, token = created["code"], created["token"]
    ws_base = server_url.replace("http://", "ws://")
    frames: dict[int | None, list[dict[str, Any]]] = {0: [], None: []}

    async def scenario() -> None:
        stop = asyncio.Event()
        spectator = asyncio.create_task(_watch(f"{ws_base}/ws/{code}", frames[None], stop))
        async with websockets.connect(f"{ws_base}/ws/{code}?token={token}", max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "last_seq": 0, "stream": None}))
            # Ana never knows: a right answer would give her another turn, and on a streak she could win before
            # seat 1 is asked, the one question she reads (her frames must show that card).
            bot = GAME.make_bot("knowing", seat=0, seed=5, knows=0.0)
            deadline = time.monotonic() + 60
            n = 0
            acted = -1
            view = None
            while time.monotonic() < deadline:
                try:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
                except TimeoutError:
                    last = [(f.get("kind"), f.get("step"), f.get("code")) for f in frames[0][-8:]]
                    raise AssertionError(f"no frame for 10 s after {n} actions; the last frames: {last}") from None
                if frame.get("kind") == "state":  # whole: a steady part sent before comes as "same"
                    view = fill_same(frame, view)
                frames[0].append(frame)
                if frame.get("kind") == "over":
                    break
                if frame.get("kind") == "state" and frame.get("legal") and frame["step"] > acted:
                    acted = frame["step"]  # one action per step: the server limits messages per address
                    observation = mindtable.core.bots.Observation(0, frame["view"], frame["legal"], frame["clock"])
                    decision = bot.decide(observation)
                    if decision is not None:
                        await asyncio.sleep(0.2)  # a person's pace: the server limits messages per connection
                        n += 1
                        await ws.send(json.dumps({"type": "action", "id": f"a{n}", "action": decision.action}))
        stop.set()
        await spectator

    asyncio.run(scenario())
    record = get_json(f"{server_url}/api/rooms/{code}/record")
    assert any(a["type"] == "ask_confirm" for a in record["actions"])
    # Replay: the secrets after each step, as Game.secrets lists them.
    match = mindtable.replay(record)
    again = mindtable.new_match(record["game"], record["players"], record["seed"], record["options"])
    secrets = [GAME.secrets(again.state, 3)]
    said: set[str] = set()  # what a player typed is theirs to say, even when it is the answer
    for action in record["actions"]:
        again.apply(action)
        if "text" in action:
            said.add(json.dumps(action["text"]))
        secrets.append([(seats, text) for seats, text in GAME.secrets(again.state, 3) if text not in said])
    assert again.snapshot() == match.snapshot()
    checked = 0
    for seat, received in frames.items():
        for frame in received:
            if frame.get("kind") not in ("state", "events"):
                continue
            text = json.dumps(frame)  # as Game.secrets writes texts: non-ASCII escaped
            for allowed, secret in secrets[frame["step"]]:
                if seat not in allowed:
                    assert secret not in text, f"seat {seat} received {secret} at step {frame['step']}"
                    checked += 1
    assert checked > 20, f"too few secrets checked: {len(record['actions'])} actions, {len(frames[0])} frames"
    # And the reader's frames do carry the card (the check above would pass on empty frames).
    assert any("ask_card" in json.dumps(f) for f in frames[0])


@pytest.mark.browser
def test_a_person_plays_the_quiz_table_in_the_browser(browser: Any, server_url: str, screenshots: Path) -> None:
    created = post_json(
        f"{server_url}/api/rooms",
        {
            "game": "quiz-relay",
            "players": 2,
            "name": "Ana",
            "bots": {"1": "knowing"},
            "options": {"target": 30, "answer_seconds": 30, "reshuffle": True},
        },
    )
    code, seat, token = created["code"], created["seat"], created["token"]
    context = browser.new_context(viewport={"width": 1200, "height": 900}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server_url}/index.html")
    page.evaluate(
        "([code, seat, token]) => localStorage.setItem(`mindtable:seat:${code}`,"
        " JSON.stringify({seat, token, name: 'Ana', game: 'quiz-relay', saved: Date.now()}))",
        [code, seat, token],
    )
    page.goto(f"{server_url}/room.html?code={code}")
    page.wait_for_selector('[data-testid="qr-board"] svg.mt-board')
    assert page.locator('[data-testid="qr-board"] .mt-square').count() == 8
    assert page.locator('[data-testid="qr-board"] [data-pawn]').count() == 2

    done: set[str] = set()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not {"typed", "letter", "reader", "overrule", "verdict"} <= done:
        page.wait_for_function("() => window.mindtableShell && window.mindtableShell.lastState")
        state = page.evaluate("window.mindtableShell.lastState")
        legal = {a["type"] for a in state.get("legal") or []}
        ask = state["view"].get("ask")
        if ask is None and state["view"].get("last") and "verdict" not in done:
            # The last verdict, with the judge's reason in words and who decided, under the board.
            # The page draws each state as it comes: wait until what it shows is the last verdict of the state it
            # holds (a newer state may have come since this loop read one).
            page.wait_for_function(
                """() => {
                    const s = window.mindtableShell.lastState;
                    const el = document.querySelector('[data-testid="qr-last"] [data-testid="quiz-verdict"]');
                    return !!(s && s.view.last && el && el.getAttribute("data-by") === s.view.last.by);
                }"""
            )
            assert page.locator('[data-testid="quiz-verdict-reason"]').first.inner_text()
            page.screenshot(path=str(screenshots / "quiz-table.png"), full_page=True)
            done.add("verdict")
        seq = state.get("seq", -1)
        if not legal:
            page.wait_for_timeout(100)
            continue
        if "roll" in legal:
            page.click('[data-testid="qr-roll"]')
        elif "topic" in legal:
            page.locator('[data-testid^="qr-topic-"]').first.click()
        elif "ask_confirm" in legal:
            # Ana reads: she sees the card with its answer and the judge's suggestion with its reason in words.
            assert ask["role"] == "reader" and "card" in ask
            page.wait_for_selector('[data-testid="quiz-reader-card"] [data-testid="quiz-reader-answer"]')
            reason = page.locator('[data-testid="quiz-reason"]').inner_text()
            assert reason and "_" not in reason
            if "reader" not in done:
                page.screenshot(path=str(screenshots / "quiz-reader.png"), full_page=True)
                done.add("reader")
                page.click('[data-testid="quiz-confirm"]')
            else:
                button = page.locator('[data-testid="quiz-overrule"]')
                change = button.inner_text()
                assert change in ("Change to wrong", "Change to right", "Change the count")  # named by what it does
                button.click()  # one click only asks: nothing is sent yet
                assert button.inner_text() == f"Sure? {change}" and page.locator('[data-testid="quiz-decide"]').count()
                button.click()
                done.add("overrule")
        elif "ask_answer" in legal:
            assert ask["role"] == "answerer" and "card" not in ask
            shown = page.locator('[data-testid="quiz"]').inner_text()
            asked = next(q for q in CARDS.questions if q.prompt == ask["question"]["prompt"])
            assert asked.kind == "truefalse" or asked.display_answer not in shown, (
                "the answerer's page shows the answer"
            )
            # The page shows this question (not a stale one), with the countdown of its time limit.
            page.wait_for_function(
                "(p) => (document.querySelector('[data-testid=\"quiz-prompt\"]') || {}).textContent === p",
                arg=ask["question"]["prompt"],
            )
            if not page.locator('[data-testid="quiz-send"], [data-testid="quiz-true"]').count():
                continue  # the time ran out meanwhile: look at the new state
            assert page.locator('[data-testid="quiz-countdown"]').count() == 1
            kind = ask["question"]["kind"]
            if kind == "truefalse":
                page.click('[data-testid="quiz-true"]')
            elif "ask_options" in legal and "letter" not in done:
                page.click('[data-testid="quiz-ask-options"]')
                page.wait_for_selector('[data-testid="quiz-letter-b"]')
                page.screenshot(path=str(screenshots / "quiz-options.png"), full_page=True)
                page.click('[data-testid="quiz-letter-b"]')
                done.add("letter")
            elif ask["question"].get("options"):
                page.click('[data-testid="quiz-letter-a"]')
            else:
                page.fill('[data-testid="quiz-input"]', "Helium, Neon, Argon")
                if "typed" not in done:
                    page.screenshot(path=str(screenshots / "quiz-answer.png"), full_page=True)
                page.click('[data-testid="quiz-send"]')
                done.add("typed")
        else:
            page.wait_for_timeout(100)
            continue
        page.wait_for_function(
            "(n) => window.mindtableShell.lastState && window.mindtableShell.lastState.seq > n", arg=seq
        )
    assert {"typed", "letter", "reader", "verdict"} <= done, done
    assert errors == []
    context.close()


def test_the_quiz_page_has_words_for_every_code_in_every_language() -> None:
    from mindtable.web import STATIC_DIR
    from tests.web.test_codes import check

    # the page's own words for its codes, the site's for the ask step's (a page looks in its own first)
    assert check(dict(GAME.codes), page_folder(str(GAME.web_module)) / "i18n", STATIC_DIR / "i18n") == []


def test_the_shared_quiz_components_have_words_for_every_judge_code() -> None:
    """The quiz's and the judge's words live once, in the shell's tables that every page (through js/quiz.js) and
    every terminal read: every judge code has words in every language, and quiz.js keeps no table of its own."""
    import json

    from mindtable.trivia.judge import ACCEPT_CODES, REJECT_CODES
    from mindtable.web import STATIC_DIR

    assert "STRINGS" not in (STATIC_DIR / "js" / "quiz.js").read_text(encoding="utf-8")
    tables = {
        lang: {k for k in json.loads((STATIC_DIR / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))}
        for lang in ("en", "es", "et")
    }
    wanted = {f"judge.{code}" for code in (*ACCEPT_CODES, *REJECT_CODES)}
    shared = {k for k in tables["en"] if k.startswith(("judge.", "quiz."))}
    for lang, keys in tables.items():
        assert wanted <= keys, f"{lang}: no words for {sorted(wanted - keys)}"
        assert shared <= keys, f"{lang}: lacks {sorted(shared - keys)}"
