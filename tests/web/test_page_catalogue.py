"""Every word a page shows comes from that page's catalogue, in English, Spanish and Estonian.

For each game with a page, in each language: the lobby with the game chosen (every choice of every option
select tried, so the options each choice shows are seen), the room during play as a seat facing a bot (the
page's buttons pressed and answers typed for a number of moments), the game over of a finished all-bot room,
and its replay (the last step, the first, one in the middle, and "seen by" a seat). Every visible text node
and every visible attribute text (title, placeholder, aria-label, alt, the labels of a select's options) is
read, and what is left once the catalogue's words are taken out must be no word at all: only the names the
players have, the room code, numbers, and the questions' own content (prompts, options, answers, what was
typed) may stand beside the catalogue's words. A raw id (``history_geography``, ``roll_number``), a bare
English word on a Spanish or Estonian page (``sports``, ``false``, ``nw``), the help text of an option in
English: each is a finding, listed with where it was seen. On an Estonian page a decimal the page formats
is written with a comma (``273,15``, ``12,5 s``), never with a point.

The catalogue of a page is its language's table of the site (``mindtable/web/static/i18n/<lang>.json``) and
the game's page table (``<game>/web/i18n/<lang>.json``); a template's literal parts are its words (its
``{parameters}`` are what the page fills in, and what fills them is checked in turn).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
import urllib.request
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

import mindtable
from mindtable.kit.words import page_folder
from mindtable.web import STATIC_DIR
from tests.web.conftest import get_json

pytestmark = pytest.mark.browser

LOCALES = {"en": "en-US", "es": "es-ES", "et": "et-EE"}
#: The language names of the language switch (each language's own name, the same on every page) and the site's.
ENDONYMS = ("English", "Español", "Eesti", "mindtable")
TIMEOUT_MS = 15_000
#: This module's server lets one address make and hold a room per game and language (the defaults: 10 at once,
#: then one each 10 s, 20 unfinished).
ROOM_LIMITS = {
    "MINDTABLE_LIMIT_ROOMS_PER_ADDRESS": "100",
    "MINDTABLE_LIMIT_ROOMS_PER_NETWORK": "100",
    "MINDTABLE_LIMIT_ROOM_CREATES_BURST": "100",
}
#: Moments of play read on the room page (one before each press of a button or typed answer).
MOMENTS = 14

#: The games with a page, built in or the example plugin: (players, the bot that faces the page's seat, options
#: for a short game).
PLAY: dict[str, dict[str, Any]] = {
    "the-mind": {"players": 2, "bot": "proportional", "options": {"last_level": 2}},
    "neurorace": {"players": 2, "bot": "solver", "options": {"countdown_seconds": 0, "max_rounds": 2}},
    "carrera-de-mente": {"players": 2, "bot": "knowing", "options": {"board": "small"}},
    "caida-libre": {"players": 2, "bot": "knowing", "options": {}},
    "eesti-malumang": {"players": 2, "bot": "knowing", "options": {}},
    "stepping-stones": {"players": 2, "bot": "knowing", "options": {"stones": 3}},
}
#: All-bot rooms that end soon, for the game over and the replay.
OVER: dict[str, dict[str, Any]] = {
    "the-mind": {
        "players": 2,
        "options": {"last_level": 1},
        "bots": {"0": "proportional", "1": "proportional"},
        "bot_params": {"0": {"tempo_ms": 5}, "1": {"tempo_ms": 5}},
    },
    "neurorace": {
        "players": 2,
        "options": {"max_rounds": 1, "countdown_seconds": 0},
        "bots": {"0": "solver", "1": "solver"},
        "bot_params": {s: {"actions_per_second": 20, "start_delay_ms": 0} for s in ("0", "1")},
    },
    "carrera-de-mente": {
        "players": 2,
        "options": {"board": "small", "turn_limit": 2},
        "bots": {"0": "knowing", "1": "knowing"},
        "bot_pace": "off",
    },
    "caida-libre": {
        "players": 2,
        "bots": {"0": "knowing", "1": "knowing"},
        "bot_params": {"0": {"think_ms": 0}, "1": {"think_ms": 0}},
        "bot_pace": "off",
    },
    "eesti-malumang": {
        "players": 2,
        "options": {"variant": "outer_track", "cards_per_colour": 1},
        "bots": {"0": "knowing", "1": "knowing"},
        "bot_pace": "off",
    },
    "stepping-stones": {
        "players": 2,
        "options": {"stones": 2},
        "bots": {"0": "knowing", "1": "knowing"},
        "bot_pace": "off",
    },
}
#: Keys of a message whose string values are a question's content (as the game's content file has it, or as a
#: player typed it): prompts, options, answers, list items, what was given or typed, a card's printed topic.
CONTENT_KEYS = {
    "prompt",
    "question",
    "options",
    "answer",
    "items",
    "given",
    "draft",
    "text",
    "matched",
    "expected",
    "note",
}
CONTENT_LISTS = {"accept", "headings"}
#: Tokens that are no words: a room code (the lobby lists other rooms too), a card's number ("tarjeta 5A").
ALLOWED_TOKEN = re.compile(r"[A-Z0-9]{6}|\d+[A-Za-z]")
#: The words the browser's Intl.ListFormat joins names with ("Ada and Alan"): the language's, not the catalogue's.
LIST_WORDS = {"en": {"and"}, "es": {"y", "e"}, "et": {"ja"}}

COLLECT = """() => {
  const out = [];
  const seen = new Set();
  const add = (text, where) => {
    text = (text || "").replace(/\\s+/g, " ").trim();
    if (!text || seen.has(text + "\\u0000" + where)) return;
    seen.add(text + "\\u0000" + where);
    out.push([text, where]);
  };
  const visible = (el) => {
    for (let e = el; e && e !== document.documentElement; e = e.parentElement) if (e.hidden) return false;
    const closed = el.closest("details:not([open])");
    if (closed && !closed.querySelector(":scope > summary")?.contains(el)) return false;
    return el.checkVisibility ? el.checkVisibility({ visibilityProperty: true }) : true;
  };
  const where = (el) => {
    const parts = [];
    for (let e = el; e && e !== document.body && parts.length < 4; e = e.parentElement) {
      const id = e.id ? "#" + e.id : "";
      parts.push(e.tagName.toLowerCase() + id + (e.dataset?.testid ? `[${e.dataset.testid}]` : ""));
    }
    return parts.reverse().join(">");
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || ["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE"].includes(el.tagName) || el.closest("select")) continue;
    if (visible(el)) add(node.textContent, where(el));
  }
  for (const el of document.body.querySelectorAll("[title],[placeholder],[aria-label],[alt]")) {
    if (!visible(el)) continue;
    for (const attr of ["title", "placeholder", "aria-label", "alt"])
      if (el.hasAttribute(attr)) add(el.getAttribute(attr), where(el) + "@" + attr);
  }
  for (const el of document.body.querySelectorAll("input[type=button],input[type=submit],input[type=reset]"))
    if (visible(el)) add(el.value, where(el) + "@value");
  for (const select of document.body.querySelectorAll("select")) {
    if (!visible(select)) continue;
    for (const option of select.options)
      if (!option.hidden) add(option.label || option.textContent, where(select) + ">option");
    for (const group of select.querySelectorAll("optgroup")) add(group.label, where(select) + ">optgroup");
  }
  add(document.title, "title");
  return out;
}"""

#: Try every choice of every select of the lobby's options form (and of the seats), reading the page each time.
LOBBY_CHOICES = """async (collect) => {
  const read = new Function("return (" + collect + ")")();
  const texts = [...read()];
  // the form redraws in the change handlers themselves: a frame later it is drawn
  const settle = () => new Promise((r) => requestAnimationFrame(() => r()));
  for (const select of document.querySelectorAll("#players-select, #seats-fields select, #options-fields select")) {
    const first = select.value;
    for (const option of [...select.options]) {
      if (option.disabled) continue;
      select.value = option.value;
      select.dispatchEvent(new Event("change", { bubbles: true }));
      await settle();
      texts.push(...read());
    }
    select.value = first;
    select.dispatchEvent(new Event("change", { bubbles: true }));
  }
  return texts;
}"""

#: One step of play from the page's seat: type an answer if the page asks for one, else press a button of the
#: game's table (a different one each time, so more of the game is seen).
ACT = """(n) => {
  const game = document.querySelector("#game");
  if (!game) return "none";
  const input = game.querySelector('[data-testid="quiz-input"]');
  if (input && input.checkVisibility() && !input.disabled) {
    input.value = "xq";
    input.dispatchEvent(new Event("input", { bubbles: true }));
    const form = input.closest("form");
    if (form) { form.requestSubmit(); return "typed"; }
  }
  const buttons = [...game.querySelectorAll("button, [role=button], svg [data-square][tabindex]")]
    .filter((b) => b.checkVisibility() && !b.disabled && !b.closest("[hidden]"));
  if (!buttons.length) return "none";
  const button = buttons[n % buttons.length];
  button.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  button.click?.();
  return button.textContent || button.getAttribute("aria-label") || "button";
}"""


def game_ids() -> list[str]:
    return [g for g in PLAY if g in mindtable.available_game_ids()]


def table(folder: Path, lang: str) -> dict[str, str]:
    path = folder / f"{lang}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


@cache
def catalogue(lang: str, game_id: str) -> dict[str, str]:
    """The page's table: the site's, under the game's page's (which a page looks in first)."""
    game = mindtable.get_game(game_id)
    own = table(page_folder(str(game.web_module)) / "i18n", lang)
    return {**table(STATIC_DIR / "i18n", lang), **own}


@cache
def words_pattern(lang: str, game_id: str) -> re.Pattern[str]:
    """The literal parts of every template of the page's catalogue, longest first, as whole words (a sentence's
    first letter may be made a capital by the page)."""
    pieces: set[str] = set(ENDONYMS)
    for text in catalogue(lang, game_id).values():
        for piece in re.split(r"\{\w+\}", text):
            # a piece between parameters may start or end with a digit that a parameter's digits touch
            # ("{digit}0-{digit}9 (first digit {digit})"); a long placeholder is shown without its bracket
            for part in (piece, re.sub(r"^[\W\d_]+|[\W\d_]+$", "", piece), piece.split(" (")[0]):
                part = part.strip()
                if re.search(r"[^\W\d_]", part):
                    pieces.update((part, part[:1].upper() + part[1:]))
    return alternatives(pieces)


def alternatives(pieces: set[str] | list[str]) -> re.Pattern[str]:
    parts = []
    for piece in sorted(pieces, key=len, reverse=True):
        left = r"(?<![\w])" if re.match(r"\w", piece) else ""
        right = r"(?![\w])" if re.search(r"\w$", piece) else ""
        parts.append(left + re.escape(piece) + right)
    return re.compile("|".join(parts) or r"(?!)")


def content_of(node: Any, out: set[str], key: str | None = None) -> None:
    """The content strings of a message (a question's words, as its file or a player wrote them)."""
    if isinstance(node, dict):
        for k, value in node.items():
            if k in CONTENT_LISTS and isinstance(value, list):
                for item in value:
                    if isinstance(item, dict):
                        out.update(str(v) for kk, v in item.items() if kk in ("topic", "title") and isinstance(v, str))
                    elif isinstance(item, str):
                        out.add(item)
            content_of(value, out, k)
    elif isinstance(node, list):
        for value in node:
            content_of(value, out, key)
    elif isinstance(node, str) and key in CONTENT_KEYS and node not in ("true", "false"):
        out.add(node)


class Reader:
    """What one page context showed, and what may stand beside the catalogue's words on it."""

    def __init__(self, lang: str, game_id: str) -> None:
        self.lang = lang
        self.game_id = game_id
        self.seen: dict[tuple[str, str], str] = {}  # (text, where) -> the moment it was first seen
        self.content: set[str] = set()
        self.names: set[str] = {"Ana"}
        self.codes: set[str] = set()

    def listen(self, page: Any) -> None:
        def frame(payload: Any) -> None:
            with contextlib.suppress(TypeError, ValueError):
                content_of(json.loads(payload), self.content)

        def response(resp: Any) -> None:
            if "/api/" in resp.url and "json" in (resp.headers.get("content-type") or ""):
                # a body that is gone or not JSON has no content
                with contextlib.suppress(Exception):
                    content_of(resp.json(), self.content)

        page.on("websocket", lambda ws: ws.on("framereceived", frame))
        page.on("response", response)

    def site(self, server_url: str) -> None:
        """The games the server offers: their titles as the lobby lists them (a game page's own title in the
        page's language, else the server's), which stand beside every page's words."""
        for game in get_json(f"{server_url}/api/games"):
            title = game["title"]
            if game.get("web_module"):
                with contextlib.suppress(OSError, ValueError):
                    title = get_json(f"{server_url}/games/{game['web_module']}/i18n/{self.lang}.json").get(
                        "game.title", title
                    )
            self.names.add(title)

    def room(self, server_url: str, code: str) -> None:
        self.codes.add(code)
        for seat in get_json(f"{server_url}/api/rooms/{code}")["seats"]:
            if seat.get("name"):
                self.names.add(seat["name"])

    def read(self, page: Any, moment: str, texts: list[list[str]] | None = None) -> None:
        for text, where in texts if texts is not None else page.evaluate(COLLECT):
            self.seen.setdefault((text, where), moment)

    def findings(self) -> list[str]:
        words = words_pattern(self.lang, self.game_id)
        # The catalogue's words are taken out first, then what players bring (names and their words, room codes,
        # games' titles), then the content's words.
        given = alternatives(sorted(self.names | self.codes | {w for n in self.names for w in re.findall(r"\w+", n)}))
        content_words = {w for text in self.content for w in re.findall(r"\w+", text)}
        found = []
        for (text, where), moment in self.seen.items():
            rest = given.sub(" ", words.sub(" ", text))
            # Words of letters (a single letter is an option's letter, a unit), not the content's own.
            left = [
                w for w in re.findall(r"\w+", rest) if re.search(r"[^\W\d]", w) and not re.fullmatch(r"[^\W\d_]", w)
            ]
            left = [w for w in left if (w not in content_words or "_" in w) and not ALLOWED_TOKEN.fullmatch(w)]
            left = [w for w in left if w not in LIST_WORDS[self.lang]]
            if left:
                found.append(f"{self.lang} {moment}: {' '.join(sorted(set(left)))!r} in {text[:90]!r} @ {where}")
            if self.lang == "et":
                stripped = given.sub(" ", text)
                for number in re.findall(r"\d+\.\d+", stripped):
                    found.append(f"{self.lang} {moment}: the decimal {number} has a point in {text[:90]!r} @ {where}")
        return found


def create(server_url: str, body: dict[str, Any]) -> Any:
    """A new room (the first room of a game reads its content files, which may take a few seconds)."""
    request = urllib.request.Request(
        f"{server_url}/api/rooms", json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def finished(server_url: str, code: str, timeout_s: float = 600) -> None:
    deadline = time.monotonic() + timeout_s
    while get_json(f"{server_url}/api/rooms/{code}")["status"] != "over":
        assert time.monotonic() < deadline, f"room {code} did not finish"
        time.sleep(0.3)


def language_option(game_id: str, lang: str) -> dict[str, str]:
    """The room's question language: the page's, when the game has its questions in it."""
    for option in mindtable.get_game(game_id).describe()["options"]:
        if option["name"] == "language" and lang in (option.get("choices") or []):
            return {"language": lang}
    return {}


@pytest.fixture(scope="module", autouse=True)
def room_limits() -> Iterator[None]:
    before = {name: os.environ.get(name) for name in ROOM_LIMITS}
    os.environ.update(ROOM_LIMITS)
    yield
    for name, value in before.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture(scope="module")
def over_rooms(server_url: str) -> dict[str, str]:
    """game -> the code of an all-bot room (made at the start, so they play on while the first tests run; each
    test waits for its own to finish). Its questions are in the game's own language: its content is allowed on
    every page, the words around it are what is checked."""
    return {game_id: create(server_url, {"game": game_id, **OVER[game_id]})["code"] for game_id in game_ids()}


#: Two frames drawn (what a state or a click changed is on the page).
FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"
#: The room page received a state after the one numbered ``n`` (the shell draws a state as it stores it).
NEWER_STATE = "(n) => !!window.mindtableShell?.lastState && window.mindtableShell.lastState.seq > n"


def settled(page: Any) -> None:
    page.evaluate(FRAMES)


def visit(page: Any, url: str, ready: str) -> None:
    page.goto(url)
    page.wait_for_selector(ready, state="attached")
    page.wait_for_load_state("load")
    settled(page)


def seq_of(page: Any) -> int:
    return int(page.evaluate("() => window.mindtableShell?.lastState?.seq ?? -1"))


def next_state(page: Any, seq: int, most_ms: int = 300) -> None:
    """Wait (at most ``most_ms``) for a state after ``seq``, then for the page to draw: the bots answer at once, a
    click that changes nothing on the server changes no state (what a late state shows is read at the next
    moment)."""
    with contextlib.suppress(PlaywrightError):
        page.wait_for_function(NEWER_STATE, arg=seq, timeout=most_ms)
    settled(page)


@pytest.mark.timeout(900)
@pytest.mark.parametrize("lang", list(LOCALES))
@pytest.mark.parametrize("game_id", game_ids())
def test_every_word_on_a_games_pages_is_from_the_pages_catalogue(
    browser: Any, server_url: str, over_rooms: dict[str, str], game_id: str, lang: str
) -> None:
    reader = Reader(lang, game_id)
    context = browser.new_context(locale=LOCALES[lang], viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    reader.listen(page)
    reader.site(server_url)

    # The lobby, the game chosen, every choice of its selects tried.
    visit(page, f"{server_url}/index.html", f'#game-select option[value="{game_id}"]')
    page.select_option("#game-select", game_id)
    settled(page)
    reader.read(page, "lobby", page.evaluate(LOBBY_CHOICES, COLLECT))

    # The room, as seat 0 facing a bot, during play.
    spec = PLAY[game_id]
    grant = create(
        server_url,
        {
            "game": game_id,
            "players": spec["players"],
            "name": "Ana",
            "bots": {str(s): spec["bot"] for s in range(1, spec["players"])},
            "bot_pace": "off",
            "options": {**spec["options"], **language_option(game_id, lang)},
        },
    )
    code = grant["code"]
    reader.room(server_url, code)
    saved = json.dumps({"seat": grant["seat"], "token": grant["token"], "name": "Ana", "game": game_id, "saved": 1})
    page.evaluate("([code, saved]) => localStorage.setItem('mindtable:seat:' + code, saved)", [code, saved])
    visit(page, f"{server_url}/room.html?code={code}", "#game[data-phase]")
    page.wait_for_function("() => !!window.mindtableShell?.lastState")
    for n in range(MOMENTS):
        reader.read(page, f"room-{n}")
        if page.evaluate("() => !!document.querySelector('#over:not([hidden])')"):
            break
        seq = seq_of(page)
        page.evaluate(ACT, n)
        next_state(page, seq)
    next_state(page, seq_of(page), 400)
    reader.read(page, "room-last")

    # The game over of a finished room, and its replay.
    over = over_rooms[game_id]
    finished(server_url, over)
    reader.room(server_url, over)
    visit(page, f"{server_url}/room.html?code={over}&spectate=1", '[data-testid="over-summary"]')
    reader.read(page, "game-over")
    visit(page, f"{server_url}/replay.html?code={over}", "#steps li")
    reader.read(page, "replay-last")
    page.click("#first")
    settled(page)
    reader.read(page, "replay-first")
    page.evaluate(
        "() => { const s = document.querySelector('#slider'); s.value = String(Math.floor(Number(s.max) / 2));"
        " s.dispatchEvent(new Event('input', { bubbles: true })); }"
    )
    settled(page)
    reader.read(page, "replay-middle")
    if page.locator("#seen-by").is_visible():
        page.select_option("#seen-by", "0")
        # the seat's steps come from the server; the page's address says whose they are once they are drawn
        page.wait_for_function("() => new URLSearchParams(location.search).get('seat') === '0'")
        settled(page)
        reader.read(page, "replay-seat-0")
    context.close()

    found = reader.findings()
    assert found == [], f"{len(found)} strings not from the {lang} catalogue:\n" + "\n".join(found)
    assert errors == []


def test_every_installed_game_with_a_page_is_read_in_every_language() -> None:
    """A game with a page of its own (built in or a plugin) has its moments of play and its finished room here,
    so none of its pages goes unread."""
    with_page = [g for g in mindtable.available_game_ids() if mindtable.get_game(g).web_module]
    assert "stepping-stones" in with_page  # the example plugin is installed for the web tests (conftest)
    assert sorted(g for g in with_page if g not in PLAY or g not in OVER) == []
    assert game_ids() == [g for g in PLAY if g in with_page]


def server_codes() -> dict[str, set[str]]:
    """Every reason code the server itself can send (REST refusals, rejected actions, protocol errors): the
    constant codes of ``RoomError(...)``, ``_reject(...)``, ``_error(...)`` and ``ProtocolError(...)`` calls."""
    import ast

    server = Path(mindtable.__file__).parent / "server"
    found: dict[str, set[str]] = {}
    for path in sorted(server.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name not in ("RoomError", "_reject", "_error", "ProtocolError"):
                continue
            for arg in node.args[:3]:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and re.fullmatch(r"[a-z_]+", arg.value):
                    found.setdefault(arg.value, set()).add(path.name)
                    break
    return found


@pytest.mark.parametrize("lang", list(LOCALES))
def test_every_code_the_server_sends_has_words_in_the_sites_tables(lang: str) -> None:
    """A refusal of the lobby, of an action or of a message is said in words on every page, in every language."""
    codes = server_codes()
    assert {"bad_action", "bad_bot", "bad_options", "not_over", "unknown_room"} <= set(codes)
    words = table(STATIC_DIR / "i18n", lang)
    assert sorted(code for code in codes if f"error.{code}" not in words) == []
