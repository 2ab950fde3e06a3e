"""NeuroRace in the browser, end to end, against a real server.

SOLO: a room made from the lobby (one player, a long timer); START turns the card over and starts the
countdown; a centre tile is taken, turned over, placed, another is taken and returned, the first is taken
back and placed again; the card is filled and "stop game" shows the check, place by place, as the server
judged it. A second SOLO room with a 1-second timer shows the time-up check. BASIC: two seats, the second a
`solver` bot; the human sees the bot's card fill up and the check of its stop. Screenshots (desktop and
390x844) go to ``artifacts/screenshots/neurorace-*.png``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import get_json, post_json, room_code

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
TIMEOUT_MS = 10_000
GAME = "#game.nr"
TILE = 'button[data-state="tile"]'


class Page:
    """A browser page on a room, with the JavaScript errors it raised."""

    def __init__(self, browser: Any, *, viewport: dict[str, int], locale: str = "en-US") -> None:
        self.context = browser.new_context(viewport=viewport, locale=locale)
        self.page = self.context.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def sit(self, server_url: str, code: str, seat: int, token: str, name: str) -> None:
        """Open the room holding ``seat`` (the token is stored the way the lobby stores it)."""
        self.page.goto(f"{server_url}/index.html")
        self.page.evaluate(
            "([code, seat, token, name]) => localStorage.setItem(`mindtable:seat:${code}`,"
            " JSON.stringify({seat, token, name, game: 'neurorace', saved: Date.now()}))",
            [code, seat, token, name],
        )
        self.page.goto(f"{server_url}/room.html?code={code}")

    def view(self) -> Any:
        """The view of the latest state the shell handed to the module (what the page renders from)."""
        return self.page.evaluate("window.mindtableShell.lastState.view")

    def tile(self, selector: str) -> tuple[str, str, int]:
        face = self.page.locator(f"{selector} .nr-tile").first
        return (
            face.get_attribute("data-symbol") or "",
            face.get_attribute("data-colour") or "",
            int(face.get_attribute("data-number") or "-1"),
        )

    def filled(self, count: int) -> None:
        self.page.wait_for_selector(f'{GAME}[data-filled="{count}"][data-holding="false"]')

    def close(self) -> None:
        assert self.errors == [], f"JavaScript errors: {self.errors}"
        self.context.close()


def phone_shot(page: Any, path: Path, *, full_page: bool = True) -> None:
    """Screenshot a phone-sized page, after checking nothing sticks out sideways. During a round the hand bar
    sticks to the bottom of the screen, so those shots show the screen as the player sees it (full_page=False)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], f"{path.name}: wider than a phone"
    page.screenshot(path=str(path), full_page=full_page)


def wait_bot_filled(page: Any, at_least: int) -> None:
    """Wait until the bot's card (seat 1) shows at least ``at_least`` tiles (it may take one back now and then)."""
    page.wait_for_function(
        "n => Number(document.querySelector('[data-testid=\"player-1\"]')?.dataset.filled) >= n", arg=at_least
    )


def side_of(data: dict[str, Any]) -> tuple[str, str, int]:
    return (data["symbol"], data["colour"], data["number"])


def take_first_tile(nr: Page) -> tuple[int, tuple[str, str, int]]:
    """Click the first centre tile that can be taken; return its spot and the side it showed."""
    button = nr.page.locator(f'{TILE}.can[aria-disabled="false"]').first
    spot = int(button.get_attribute("data-spot") or "-1")
    shown = nr.tile(f'[data-testid="spot-{spot}"]')
    button.click()
    nr.page.wait_for_selector(f'{GAME}[data-holding="true"]')
    return spot, shown


def test_solo_take_turn_place_return_take_back_and_check(browser: Any, server_url: str, screenshots: Path) -> None:
    # -- the lobby offers NeuroRace for one player, with its options in words ----------------------
    nr = Page(browser, viewport=DESKTOP)
    page = nr.page
    page.goto(f"{server_url}/index.html")
    page.wait_for_selector('#game-select option[value="neurorace"]', state="attached")
    page.select_option("#game-select", "neurorace")
    page.select_option("#players-select", "1")
    page.fill("#create-name", "Ana")
    page.fill("#opt-solo_seconds", "300")
    assert "SOLO" in page.locator("#opt-mode").inner_text()
    page.click('[data-testid="create-button"]')
    page.wait_for_url(re.compile(r"room\.html\?code=[A-Z0-9]{6}"))
    code = room_code(page)
    room = get_json(f"{server_url}/api/rooms/{code}")
    assert room["options"]["mode"] == "solo" and room["options"]["solo_seconds"] == 300

    # -- before START the card lies face down; START turns it over and starts the timer ------------
    page.wait_for_selector(f'{GAME}[data-phase="ready"]')
    assert page.locator('[data-testid="my-card"].face-down').count() == 1
    assert page.locator('[data-testid="action-ready"]').is_enabled()
    page.keyboard.press("s")  # ready: the 3-2-1 runs, then the round starts
    page.wait_for_selector(f'{GAME}[data-phase="playing"]')
    view = nr.view()
    task = view["players"][0]["task"]
    assert page.locator('[data-testid="my-card"]').get_attribute("data-task") == task
    assert page.locator('[data-testid="my-places"] .nr-place').count() == 7
    assert page.locator('[data-testid="my-places"] .nr-sign').count() == task.count("<") + task.count(">")
    assert page.locator(TILE).count() == len(view["centre"]) == 60
    timer = page.locator('[data-testid="solo-timer"]')
    assert timer.get_attribute("data-running") == "true"
    first_left = float(timer.locator(".nr-time").inner_text().split()[0])
    assert 280 < first_left <= 300

    # -- take a tile: it is in the hand (both sides shown) and its spot is empty -------------------
    spot, shown = take_first_tile(nr)
    assert nr.tile('[data-testid="hand"]') == shown
    hand = nr.view()["players"][0]["hand"]
    assert side_of(hand["up"]) == shown
    down = page.locator('[data-testid="hand-down"]')
    assert int(down.get_attribute("data-number") or "-1") == hand["down"]["number"]
    assert abs(hand["down"]["number"] - shown[2]) == 50
    assert page.locator(f'[data-testid="spot-{spot}"]').get_attribute("data-state") == "held"
    assert page.locator('[data-testid="centre-count"]').inner_text().startswith("59")
    assert page.locator('[data-testid="action-take_back"]').is_hidden()

    # -- turn it over (F): the other side is up --------------------------------------------------------
    page.keyboard.press("f")
    page.wait_for_selector(f'[data-testid="hand-tile"][data-number="{hand["down"]["number"]}"]')
    turned = nr.tile('[data-testid="hand"]')
    assert turned == side_of(hand["down"])

    # -- place it (button): it lies on place 1, the hand is empty ------------------------------------
    page.click('[data-testid="action-place"]')
    nr.filled(1)
    assert nr.tile('[data-testid="place-0"]') == turned
    assert page.locator('[data-testid="place-1"].next').count() == 1
    assert page.locator('[data-testid="action-take_back"]').is_enabled()

    # -- take another and return it (R): back on its spot, as it lay ---------------------------------
    other, other_side = take_first_tile(nr)
    assert other != spot
    page.keyboard.press("r")
    nr.filled(1)
    page.wait_for_selector(f'[data-testid="spot-{other}"][data-state="tile"]')
    assert nr.tile(f'[data-testid="spot-{other}"]') == other_side

    # -- with "a tap turns it over", a click turns a centre tile over where it lies -----------------
    page.click('[data-testid="tap-turn"]')
    page.click(f'[data-testid="spot-{other}"]')
    flipped = 50 + other_side[2] if other_side[2] < 50 else other_side[2] - 50
    page.wait_for_selector(f'[data-testid="spot-{other}"] .nr-tile[data-number="{flipped}"]')
    assert page.locator(f'{GAME}[data-holding="false"]').count() == 1
    page.click('[data-testid="tap-take"]')
    # F on a focused centre tile turns it back; the arrow keys move between the tiles.
    page.focus(f'[data-testid="spot-{other}"]')
    page.keyboard.press("f")
    page.wait_for_selector(f'[data-testid="spot-{other}"] .nr-tile[data-number="{other_side[2]}"]')
    page.keyboard.press("ArrowRight")
    assert page.evaluate("Number(document.activeElement.dataset.spot)") > other

    # -- take the first one back (B) and place it again (P) -----------------------------------------
    page.keyboard.press("b")
    page.wait_for_selector(f'{GAME}[data-holding="true"][data-filled="0"]')
    assert nr.tile('[data-testid="hand"]') == turned
    assert page.locator('[data-testid="place-0"] .nr-tile').count() == 0
    page.keyboard.press("p")
    nr.filled(1)

    # -- fill the card, screenshots on the way -----------------------------------------------------
    for count in range(2, 8):
        take_first_tile(nr)
        if count == 4:
            page.screenshot(path=str(screenshots / "neurorace-solo-desktop.png"), full_page=True)
            phone = Page(browser, viewport=PHONE, locale="es-ES")  # the same seat on a phone, in Spanish
            phone.sit(
                server_url, code, 0, page.evaluate(f"JSON.parse(localStorage['mindtable:seat:{code}']).token"), "Ana"
            )
            phone.page.wait_for_selector(f'{GAME}[data-holding="true"][data-filled="3"]')
            assert "Colocar" in phone.page.locator('[data-testid="action-place"]').inner_text()
            phone_shot(phone.page, screenshots / "neurorace-solo-phone.png", full_page=False)
            # the last row of the centre can be brought above the hand bar that sticks to the bottom
            last_tile = phone.page.locator('[data-testid="centre"] button').last
            last_tile.scroll_into_view_if_needed()
            tile_box, bar_box = last_tile.bounding_box(), phone.page.locator(".nr-handbar").bounding_box()
            assert tile_box and bar_box and tile_box["y"] + tile_box["height"] <= bar_box["y"] + 1, (tile_box, bar_box)
            phone_shot(phone.page, screenshots / "neurorace-solo-phone-last-row.png", full_page=False)
        page.keyboard.press("p")
        nr.filled(count)
    assert page.locator('[data-testid="action-stop"]').is_enabled()

    # -- stop game (S): the check shows what the server judged, place by place ----------------------
    page.keyboard.press("s")
    page.wait_for_selector(f'{GAME}[data-phase="ready"] [data-testid="check"][data-round="1"]')
    check = nr.view()["last_stop"]
    box = page.locator('[data-testid="check"]')
    assert box.get_attribute("data-correct") == ("true" if check["correct"] else "false")
    wrong = sorted({p["place"] for p in check["problems"]})
    assert (
        page.locator('[data-testid="check-places"] .nr-place.wrong').evaluate_all(
            "els => els.map(e => Number(e.dataset.place))"
        )
        == wrong
    )
    assert page.locator('[data-testid="check-problems"] li').count() == len(wrong)
    assert page.locator('[data-testid="action-ready"]').is_enabled()
    assert page.locator('[data-testid="my-card"].face-down').count() == 1  # the next card lies face down
    assert page.locator('[data-testid="completed"]').get_attribute("data-value") == str(
        nr.view()["players"][0]["completed"]
    )
    page.screenshot(path=str(screenshots / "neurorace-solo-check-desktop.png"), full_page=True)
    phone.page.wait_for_selector(f'{GAME}[data-phase="ready"] [data-testid="check"][data-round="1"]')
    phone_shot(phone.page, screenshots / "neurorace-solo-check-phone.png")
    phone.close()
    nr.close()


def test_solo_timer_runs_out(browser: Any, server_url: str) -> None:
    answer = post_json(
        f"{server_url}/api/rooms", {"game": "neurorace", "players": 1, "name": "Ana", "options": {"solo_seconds": 1}}
    )
    nr = Page(browser, viewport=DESKTOP)
    nr.sit(server_url, answer["code"], answer["seat"], answer["token"], "Ana")
    nr.page.wait_for_selector(f'{GAME}[data-phase="ready"]')
    nr.page.click('[data-testid="action-ready"]')
    nr.page.wait_for_selector(f'{GAME}[data-phase="playing"] [data-testid="solo-timer"][data-running="true"]')
    nr.page.wait_for_selector(f'{GAME}[data-phase="ready"] [data-testid="check"][data-reason="time_up"]')
    assert nr.page.locator('[data-testid="losses"]').get_attribute("data-value") == "1"
    assert "Time" in nr.page.locator('[data-testid="nr-banner"]').inner_text()
    nr.close()


def test_basic_against_a_solver_bot(browser: Any, server_url: str, screenshots: Path) -> None:
    answer = post_json(
        f"{server_url}/api/rooms",
        {
            "game": "neurorace",
            "players": 2,
            "name": "Ana",
            "options": {"mode": "basic"},
            "bots": {"1": "solver"},
            "bot_params": {"1": {"actions_per_second": 4, "start_delay_ms": 400}},
        },
    )
    code = answer["code"]
    assert [s["kind"] for s in answer["room"]["seats"]] == ["human", "bot"]
    nr = Page(browser, viewport=DESKTOP)
    page = nr.page
    nr.sit(server_url, code, answer["seat"], answer["token"], "Ana")
    page.wait_for_selector(f'{GAME}[data-mode="basic"]')
    bot = page.locator('[data-testid="player-1"]')
    bot_name = bot.locator(".nr-player-head strong").inner_text()
    assert bot_name and bot.locator(".badge").first.inner_text().lower() == "bot"

    # -- the bot only marks itself ready: the round waits for the human, then the 3-2-1 -----------
    page.wait_for_timeout(1500)  # the bot marked itself ready after 400 ms
    assert nr.view()["phase"] == "ready" and nr.view()["ready"] == [False, True]
    page.click('[data-testid="action-ready"]')
    page.wait_for_selector(f'{GAME}[data-phase="playing"]')
    wait_bot_filled(page, 2)
    bot_task = nr.view()["players"][1]["task"]
    assert bot.locator('[data-testid="places-1"] .nr-cond').count() == 7
    assert bot_task
    take_first_tile(nr)
    page.keyboard.press("p")
    page.wait_for_selector(f'{GAME}[data-filled="1"]')
    wait_bot_filled(page, 3)
    # What the bot's card shows is exactly what the view says it has laid (read in one go: it keeps playing).
    shown, laid = page.evaluate(
        """() => [
          [...document.querySelectorAll('[data-testid="places-1"] .nr-tile')]
            .map(e => [e.dataset.symbol, e.dataset.colour, Number(e.dataset.number)]),
          window.mindtableShell.lastState.view.players[1].slots
            .filter(Boolean).map(s => [s.symbol, s.colour, s.number]),
        ]"""
    )
    assert len(shown) >= 3 and shown == laid
    page.screenshot(path=str(screenshots / "neurorace-basic-desktop.png"), full_page=True)
    phone = Page(browser, viewport=PHONE)
    phone.sit(server_url, code, answer["seat"], answer["token"], "Ana")
    # On a loaded machine the bot may already have said stop: the phone page shows the table either way.
    phone.page.wait_for_selector(f'{GAME} [data-testid="player-1"]')
    phone_shot(phone.page, screenshots / "neurorace-basic-phone.png", full_page=False)

    # -- the bot fills its card and says stop: everyone sees the check ------------------------------
    page.wait_for_selector('[data-testid="check"][data-round="1"]', timeout=20_000)
    assert bot_name in page.locator('[data-testid="check-verdict"]').inner_text()
    check = nr.view()["last_stop"]
    assert check["seat"] == 1
    assert page.locator('[data-testid="check"]').get_attribute("data-correct") == (
        "true" if check["correct"] else "false"
    )
    if check["correct"]:
        page.wait_for_selector('[data-testid="player-1"][data-level="2"]')
    phone.close()
    nr.close()


def test_spectator_and_replay_of_a_bot_game(browser: Any, server_url: str, screenshots: Path) -> None:
    answer = post_json(
        f"{server_url}/api/rooms",
        {
            "game": "neurorace",
            "players": 1,
            "options": {"last_level": 1},
            "bots": {"0": "solver"},
            "bot_params": {"0": {"actions_per_second": 10, "start_delay_ms": 300}},
        },
    )
    code = answer["code"]
    assert answer["token"] is None  # every seat is a bot: the creator watches
    nr = Page(browser, viewport=DESKTOP)
    page = nr.page
    page.goto(f"{server_url}/room.html?code={code}&spectate=1")
    page.wait_for_selector(f'{GAME}[data-mode="solo"]')
    # A spectator gets no controls, no hand and no card of its own; the bot's card is shown as a player's.
    assert page.locator('[data-testid="hand"]').count() == 0
    assert page.locator('.nr-actions button:visible, [data-testid="my-card"]:visible').count() == 0
    page.wait_for_selector('[data-testid="player-0"]')
    page.wait_for_selector(f'{GAME}[data-phase="over"]', timeout=20_000)
    assert "Master" in page.locator('[data-testid="nr-banner"]').inner_text()

    page.goto(f"{server_url}/replay.html?code={code}")
    page.wait_for_selector("#game.nr")
    page.keyboard.press("End")
    page.wait_for_selector(f'{GAME}[data-phase="over"] [data-testid="check"][data-correct="true"]')
    steps = page.locator('[data-testid="replay-steps"] li')
    assert any("ready" in text.lower() for text in steps.all_inner_texts())
    # The summary lists the options that applied to a SOLO game (not UNIVERSAL's levels, ages, seats that stay)
    # and shows seats from 1 as the lobby form asks for them.
    shown = page.locator('[data-testid="replay-options"]').inner_text().lower()
    assert "last level" in shown and "stay" not in shown and "ages" not in shown, shown
    both_ways = page.evaluate(
        """async () => {
            const { lobby } = await import('./games/neurorace/index.js');
            const stored = lobby.toServer('stay_at_level', '1, 3');
            return [stored, lobby.fromServer('stay_at_level', stored)];
        }"""
    )
    assert both_ways == ["0,2", "1,3"]
    page.screenshot(path=str(screenshots / "neurorace-replay-desktop.png"), full_page=True)
    nr.close()
