"""The Mind in the browser, end to end: lobby -> room -> a level played by two browsers -> replay.

Two browser contexts (one English on a desktop, one Spanish on a phone-sized screen) create and join a room
through the lobby pages, put their hands on the table and play level 1 and level 2 against each other,
choosing who plays from what each page shows. In level 2 one page is reloaded mid-level and must rejoin its
seat, and a card is played out of order on purpose to check the life-lost feedback. A third context
watches: its page and every WebSocket frame it receives must carry no hand. The finished game is then
stepped through on the replay page. Screenshots of every page go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import get_json, post_json, room_code

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
TIMEOUT_MS = 10_000
#: JavaScript errors seen by each page (by id), checked at the end of a test.
JS_ERRORS: dict[int, list[str]] = {}


def new_page(browser: Any, *, viewport: dict[str, int], locale: str) -> Any:
    context = browser.new_context(viewport=viewport, locale=locale)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors = JS_ERRORS.setdefault(id(page), [])
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page


def phone_shot(page: Any, path: Path) -> None:
    """Screenshot a phone-sized page, after checking nothing sticks out sideways."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], f"{path.name}: wider than a phone"
    page.screenshot(path=str(path), full_page=True)


def wait_phase(page: Any, phase: str, level: int) -> None:
    page.wait_for_selector(f'#game.tm[data-phase="{phase}"][data-level="{level}"]')


def my_cards(page: Any) -> list[int]:
    """The cards this page shows as its own: hand plus its set-aside cards still to play."""
    values = page.locator('[data-testid="hand"] .tm-card, [data-testid="my-aside"] .tm-card').evaluate_all(
        "els => els.map(e => Number(e.dataset.card))"
    )
    return sorted(values)


def press_ready(page: Any, *, with_key: bool) -> None:
    button = page.locator('[data-testid="action-ready"]')
    button.wait_for(state="visible")
    assert button.is_enabled()
    if with_key:
        page.keyboard.press("r")
    else:
        button.click()
    page.wait_for_selector('[data-testid="action-ready"]', state="hidden")


def ready_everyone(pages: list[Any], level: int) -> None:
    for index, page in enumerate(pages):
        wait_phase(page, "refocus", level)
        press_ready(page, with_key=index == 0)
    for page in pages:
        wait_phase(page, "playing", level)


def play_lowest(page: Any, expected: int, *, last: bool = False) -> None:
    """Press Space (play your lowest card) and wait until the pile shows it (or, for the level's last
    card, until the level is over)."""
    assert my_cards(page)[0] == expected
    page.keyboard.press("Space")
    if last:
        page.wait_for_selector('#game.tm:not([data-phase="playing"])')
    else:
        page.wait_for_selector(f'[data-testid="pile-top"][data-card="{expected}"]')


def play_in_order(pages: list[Any], level: int) -> None:
    """Play every card still in the players' hands in ascending order, each from the page that holds it."""
    while True:
        held = {index: my_cards(page) for index, page in enumerate(pages)}
        owners = [(cards[0], index) for index, cards in held.items() if cards]
        if not owners:
            return
        card, owner = min(owners)
        last = sum(len(cards) for cards in held.values()) == 1
        play_lowest(pages[owner], card, last=last)
        if last:
            return


def first(page: Any, frames: list[dict[str, Any]], match: Any) -> dict[str, Any]:
    """The first recorded frame that ``match`` accepts, waiting for it (frames arrive asynchronously)."""
    for _ in range(100):
        for frame in frames:
            if match(frame):
                return frame
        page.wait_for_timeout(50)
    raise AssertionError("no such frame within 5 s")


def hidden_cards_in(frame: dict[str, Any]) -> list[str]:
    """Where a spectator frame carries a hand (it must carry none)."""
    found = []
    if frame.get("kind") == "state":
        view = frame.get("view") or {}
        if view.get("hand") is not None:
            found.append("state.view.hand")
        if "hands" in view:
            found.append("state.view.hands")
    if frame.get("kind") == "events":
        for event in frame.get("events", []):
            if event.get("type") == "dealt" or "hand" in event:
                found.append(f"event {event.get('type')}")
    return found


def test_two_browsers_play_the_mind_with_reload_spectator_and_replay(
    browser: Any, server_url: str, screenshots: Path
) -> None:
    # -- Ana creates a room from the lobby (desktop, English), 2 players, winning level 2 -------------
    ana = new_page(browser, viewport=DESKTOP, locale="en-US")
    ana.goto(f"{server_url}/index.html")
    ana.wait_for_selector('#game-select option[value="the-mind"]', state="attached")
    ana.select_option("#game-select", "the-mind")
    ana.select_option("#players-select", "2")
    ana.fill("#create-name", "Ana")
    ana.fill("#opt-last_level", "2")
    assert ana.locator("#opt-detection").input_value() == "table"
    ana.screenshot(path=str(screenshots / "lobby-desktop.png"), full_page=True)
    ana.click('[data-testid="create-button"]')
    ana.wait_for_url(re.compile(r"room\.html\?code=[A-Z0-9]{6}"))
    code = room_code(ana)
    assert re.fullmatch(r"[A-Z0-9]{6}", code)
    ana.wait_for_selector("#waiting-panel", state="visible")
    assert ana.locator("#share-code").inner_text() == code
    ana.screenshot(path=str(screenshots / "room-waiting-desktop.png"), full_page=True)
    room = get_json(f"{server_url}/api/rooms/{code}")
    assert room["options"]["last_level"] == 2
    assert [s["kind"] for s in room["seats"]] == ["human", "open"]

    # -- Bruno joins by code from the lobby (phone, Spanish) -----------------------------------------
    bruno = new_page(browser, viewport=PHONE, locale="es-ES")
    bruno.goto(f"{server_url}/index.html")
    bruno.wait_for_selector(f'#rooms-list [data-code="{code}"]')  # the public room is listed
    phone_shot(bruno, screenshots / "lobby-phone-es.png")
    bruno.fill('[data-testid="join-code"]', code.lower())
    bruno.fill('[data-testid="join-name"]', "Bruno")
    bruno.click('[data-testid="join-button"]')
    bruno.wait_for_url(re.compile(rf"room\.html\?code={code}"))

    # -- a spectator watches, recording every frame its WebSocket receives ----------------------------
    frames: list[dict[str, Any]] = []
    carla = new_page(browser, viewport=DESKTOP, locale="en-US")
    carla.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(json.loads(payload))))
    carla.goto(f"{server_url}/room.html?code={code}&spectate=1")

    players = [ana, bruno]
    wait_phase(ana, "refocus", 1)
    wait_phase(bruno, "refocus", 1)
    wait_phase(carla, "refocus", 1)
    assert "Listo" in bruno.locator('[data-testid="action-ready"]').inner_text()  # Spanish from the browser
    ana.wait_for_selector('[data-testid="presence-1"][data-connected="true"]')

    # -- level 1: hands on the table; a star is proposed and rejected; each plays their card ---------
    ready_everyone(players, 1)
    ana.keyboard.press("s")
    bruno.locator('[data-testid="action-agree"]').wait_for(state="visible")
    assert "Ana" in bruno.locator('[data-testid="tm-banner"]').inner_text()
    assert ana.locator('[data-testid="action-agree"]').is_hidden()  # the proposer has agreed already
    bruno.keyboard.press("x")
    for page in players:
        page.locator('[data-testid="action-agree"]').wait_for(state="hidden")
        assert page.locator('[data-testid="stars"]').get_attribute("data-value") == "1"
    hands = [my_cards(ana), my_cards(bruno)]
    assert [len(h) for h in hands] == [1, 1]
    ana.wait_for_selector('[data-testid="count-1"][data-count="1"]')  # Ana sees Bruno's card count
    ana.screenshot(path=str(screenshots / "room-playing-desktop.png"), full_page=True)
    phone_shot(bruno, screenshots / "room-playing-phone-es.png")
    play_in_order(players, 1)
    for page in players:
        wait_phase(page, "refocus", 2)
        assert page.locator('[data-testid="lives"]').get_attribute("data-value") == "2"

    # -- level 2: ready, one card in order, then Bruno reloads mid-level and rejoins his seat -------
    ready_everyone(players, 2)
    held = {0: my_cards(ana), 1: my_cards(bruno)}
    card, owner = min((cards[0], seat) for seat, cards in held.items())
    play_lowest(players[owner], card)
    before_reload = my_cards(bruno)
    bruno.reload()
    wait_phase(bruno, "playing", 2)
    assert my_cards(bruno) == before_reload
    assert bruno.locator('[data-testid="presence-1"].seat-you').count() == 1  # the same seat as before
    assert bruno.locator('[data-testid="conn-status"]').get_attribute("data-status") == "open"
    ana.wait_for_selector('[data-testid="presence-1"][data-connected="true"]')

    # -- Ana's connection drops and resumes from her last seq: she misses nothing -----------------------
    hellos: list[dict[str, Any]] = []
    welcomes: list[dict[str, Any]] = []
    ana.on("websocket", lambda ws: ws.on("framesent", lambda p: hellos.append(json.loads(p))))
    ana.on("websocket", lambda ws: ws.on("framereceived", lambda p: welcomes.append(json.loads(p))))
    ana.evaluate("window.mindtableShell.conn.reconnect()")
    ana.wait_for_function("() => window.mindtableShell.conn.ws.readyState === 1")
    ana.wait_for_selector('[data-testid="conn-status"][data-status="open"]')
    hello = first(ana, hellos, lambda m: m.get("type") == "hello")
    assert hello["last_seq"] > 0 and hello["stream"]
    assert first(ana, welcomes, lambda m: m.get("kind") == "welcome")["resumed"] is True

    # -- a card played out of order costs a life, with visible feedback -------------------------------
    held = {0: my_cards(ana), 1: my_cards(bruno)}
    assert held[0] and held[1]  # the first card's owner has one left, the other two
    lowest_owner = min((cards[0], seat) for seat, cards in held.items())[1]
    wrong = 1 - lowest_owner
    players[wrong].keyboard.press("Space")
    for page in players:
        page.wait_for_selector('[data-testid="lives"][data-value="1"]')
    flash = ana.locator('[data-testid="tm-flash"]')
    flash.wait_for(state="visible")
    assert "Life lost" in flash.inner_text()
    ana.screenshot(path=str(screenshots / "room-life-lost-desktop.png"), full_page=True)
    assert "vida" in bruno.locator('[data-testid="tm-log"]').inner_text().lower()
    ready_everyone(players, 2)
    play_in_order(players, 2)

    # -- level 2 was the last: both see the win --------------------------------------------------------
    for page in players:
        page.wait_for_selector('[data-testid="over-panel"]', state="visible")
        wait_phase(page, "won", 2)
    assert "won" in ana.locator('[data-testid="over-panel"]').inner_text().lower()
    ana.screenshot(path=str(screenshots / "room-over-desktop.png"), full_page=True)
    phone_shot(bruno, screenshots / "room-over-phone-es.png")

    # -- the spectator saw the game but no hand, neither on the page nor in any frame ---------------
    wait_phase(carla, "won", 2)
    assert carla.locator('[data-testid="hand"]').count() == 0
    assert carla.locator(".tm-you, .tm-actions").count() == 0
    assert carla.locator('[data-testid="spectating"]').is_visible()
    carla.screenshot(path=str(screenshots / "room-spectator-desktop.png"), full_page=True)
    states = [f for f in frames if f.get("kind") == "state"]
    assert states, "the spectator received no state frame"
    assert all(f["view"]["seat"] is None and f["legal"] == [] for f in states)
    leaks = [(f.get("kind"), where) for f in frames for where in hidden_cards_in(f)]
    assert leaks == []

    # -- the replay page steps through the finished game -------------------------------------------
    record = get_json(f"{server_url}/api/rooms/{code}/record")
    ana.click('[data-testid="replay-link"]')
    ana.wait_for_url(re.compile(rf"replay\.html\?code={code}"))
    steps = ana.locator('[data-testid="replay-steps"] li')
    steps.nth(len(record["actions"])).wait_for()
    assert steps.count() == len(record["actions"]) + 1
    total = len(record["actions"])
    assert ana.locator('[data-testid="replay-position"]').inner_text() == f"Step {total} / {total}"
    ana.screenshot(path=str(screenshots / "replay-desktop.png"), full_page=True)
    ana.keyboard.press("Home")
    ana.keyboard.press("ArrowRight")
    assert ana.locator('[data-testid="replay-position"]').inner_text() == f"Step 1 / {total}"
    assert "hands on the table" in ana.locator('[data-testid="replay-current"]').inner_text()
    bruno.goto(f"{server_url}/replay.html?code={code}")
    bruno.wait_for_selector('[data-testid="replay-result"]')
    phone_shot(bruno, screenshots / "replay-phone-es.png")

    for page in (ana, bruno, carla):
        assert JS_ERRORS[id(page)] == []
        page.context.close()


def seated_page(browser: Any, server_url: str, code: str, grant: dict[str, Any], **kwargs: Any) -> Any:
    """A page whose browser already holds the seat token of ``grant`` (as after joining from the lobby)."""
    page = new_page(browser, **kwargs)
    saved = json.dumps(
        {"seat": grant["seat"], "token": grant["token"], "name": grant["room"]["seats"][grant["seat"]]["name"]}
    )
    page.context.add_init_script(f"localStorage.setItem('mindtable:seat:{code}', {json.dumps(saved)})")
    page.goto(f"{server_url}/room.html?code={code}")
    return page


def test_stop_call_and_an_accepted_star_with_players_detection(
    browser: Any, server_url: str, screenshots: Path
) -> None:
    created = post_json(
        f"{server_url}/api/rooms",
        {"game": "the-mind", "players": 2, "options": {"detection": "players", "last_level": 1}, "name": "Dana"},
    )
    code = created["code"]
    joined = post_json(f"{server_url}/api/rooms/{code}/join", {"name": "Eli"})
    dana = seated_page(browser, server_url, code, created, viewport=DESKTOP, locale="en-GB")
    eli = seated_page(browser, server_url, code, joined, viewport=PHONE, locale="en-US")
    players = [dana, eli]
    wait_phase(dana, "refocus", 1)

    # an action the rules refuse comes back with the engine's code, shown to the player in their language
    code_seen = dana.evaluate("window.mindtableShell.send({type: 'play'}).then(() => 'accepted', (e) => e.code)")
    assert code_seen == "not_playing"
    dana.wait_for_selector('.toast-error:has-text("Not allowed: everyone must be ready")')
    ready_everyone(players, 1)

    # stop is offered only once a card is on the pile, and calling it when all is in order costs nothing
    for page in players:
        assert page.locator('[data-testid="action-stop"]').is_hidden()
    card, owner = min((my_cards(page)[0], seat) for seat, page in enumerate(players))
    play_lowest(players[owner], card)
    other = players[1 - owner]
    other.locator('[data-testid="action-stop"]').wait_for(state="visible")
    other.keyboard.press("t")
    for page in players:
        page.wait_for_selector('[data-testid="tm-log"] li:has-text("no penalty")')
        assert page.locator('[data-testid="lives"]').get_attribute("data-value") == "2"

    # a star, proposed with S and accepted with A, discards the last card and ends the level (and the game)
    remaining = my_cards(other)
    assert len(remaining) == 1
    dana.keyboard.press("s")
    eli.locator('[data-testid="action-agree"]').wait_for(state="visible")
    phone_shot(eli, screenshots / "room-star-proposed-phone.png")
    eli.keyboard.press("a")
    for page in players:
        wait_phase(page, "won", 1)
        page.wait_for_selector('[data-testid="stars"][data-value="0"]')
        assert str(remaining[0]) in page.locator('[data-testid="discards"]').inner_text()
    dana.screenshot(path=str(screenshots / "room-star-used-desktop.png"), full_page=True)

    # a rematch: Dana asks for it and lands in the new room; Eli follows the link the server announces
    dana.click('#over-panel button:has-text("Rematch")')
    dana.wait_for_url(re.compile(rf"room\.html\?code=(?!{code})[A-Z0-9]{{6}}$"))
    new_code = dana.url.rsplit("=", 1)[1]
    dana.wait_for_selector(f'[data-testid="room-code"]:has-text("{new_code}")')
    eli.click(f'#rematch-line a:has-text("{new_code}")')
    eli.wait_for_url(re.compile(rf"room\.html\?code={new_code}"))
    for page in players:
        wait_phase(page, "refocus", 1)
        assert page.locator('[data-testid="stars"]').get_attribute("data-value") == "1"
    for page in players:
        assert JS_ERRORS[id(page)] == []
        page.context.close()
