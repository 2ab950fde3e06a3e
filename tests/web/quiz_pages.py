"""What the quiz games' browser tests share: a page's WebSocket frames recorded, hot-seat tokens read back, and
the asker's card looked for wherever a seat may not see it."""

from __future__ import annotations

import contextlib
import json
import re
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def _objects(node: Any) -> Iterator[dict[str, Any]]:
    """Every JSON object in a message, outermost first."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _objects(value)
    elif isinstance(node, list):
        for value in node:
            yield from _objects(value)


def card_readers(message: Any) -> list[Any]:
    """The reader of every asker's card in a message: an ``ask_card`` event, or a view's ``ask`` holding ``card``
    (only that reader may receive it)."""
    readers = []
    for node in _objects(message):
        if node.get("type") == "ask_card":
            readers.append(node.get("reader"))
        ask = node.get("ask")
        if isinstance(ask, dict) and "card" in ask:
            readers.append(ask.get("reader"))
    return readers


def ask_card_leaks(message: Any, seat: int, *, suggestion: bool = False) -> list[str]:
    """Places in a frame received by ``seat`` where the asker's card reaches a seat that is not asking (and, with
    ``suggestion``, where the judge's suggestion reaches it before the verdict)."""
    found = [f"the card of reader {reader}" for reader in card_readers(message) if reader != seat]
    if suggestion:
        for node in _objects(message):
            ask = node.get("ask")
            early = isinstance(ask, dict) and ask.get("phase") not in ("decided", "pending", "vote")
            if early and "suggestion" in ask and ask.get("reader") != seat:
                found.append("the judge's suggestion before the verdict")
    return found


def frames_into(frames: list[Any]) -> Any:
    """A ``framereceived`` handler that keeps every JSON frame in ``frames``."""

    def received(payload: Any) -> None:
        with contextlib.suppress(TypeError, ValueError):
            frames.append(json.loads(payload))

    return received


def watched_page(context: Any, timeout_ms: int) -> tuple[Any, list[str], list[Any]]:
    """A new page of ``context`` with its default timeout, and the lists that fill as it runs: its script
    errors, and every JSON frame its WebSockets receive."""
    page = context.new_page()
    page.set_default_timeout(timeout_ms)
    errors: list[str] = []
    frames: list[Any] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("websocket", lambda ws: ws.on("framereceived", frames_into(frames)))
    return page, errors, frames


def record_sockets(page: Any) -> list[list[Any]]:
    """Every WebSocket ``page`` opens (a hot-seat page holds one per seat), as ``[url, frames]`` with the frames
    it receives; once the page sent its hello, the url ends in ``#token=`` and the seat token the hello carried
    (the page never puts the token in the address)."""
    sockets: list[list[Any]] = []

    def opened(ws: Any) -> None:
        frames: list[Any] = []
        entry: list[Any] = [ws.url, frames]
        sockets.append(entry)
        ws.on("framereceived", frames_into(frames))

        def sent(payload: Any) -> None:
            try:
                message = json.loads(payload)
            except (TypeError, ValueError):
                return
            if isinstance(message, dict) and message.get("type") == "hello" and message.get("token"):
                entry[0] = f"{ws.url}#token={urllib.parse.quote(message['token'])}"

        ws.on("framesent", sent)

    page.on("websocket", opened)
    return sockets


def here_tokens(page: Any, code: str) -> dict[str, int]:
    """token -> seat of every seat this browser holds in room ``code`` (its own and the hot-seat ones)."""
    held = page.evaluate(
        "code => [localStorage.getItem('mindtable:seat:' + code), localStorage.getItem('mindtable:here:' + code)]",
        code,
    )
    own = json.loads(held[0])
    return {own["token"]: own["seat"], **{s["token"]: s["seat"] for s in json.loads(held[1] or "[]")}}


def frames_by_seat(sockets: list[list[Any]], tokens: dict[str, int]) -> dict[int, list[Any]]:
    """The recorded frames of each seat, found by the token its socket's hello carried (every socket has one)."""
    seen: dict[int, list[Any]] = {}
    for url, frames in sockets:
        token = re.search(r"token=([^&]+)", url)
        seat = tokens.get(urllib.parse.unquote(token.group(1))) if token else None
        assert seat is not None, f"a socket without a seat: {url}"
        seen.setdefault(seat, []).extend(frames)
    return seen


def pass_the_page(page: Any, table: str, names: dict[int, str], shot: Path | None = None) -> int:
    """The hot-seat page asks to be passed on: check that nothing of anyone's table is drawn (no asker's card, no
    ``table`` — the game's selector) and that it names the right person, press "I am X", wait for X's table.
    Returns X's seat; ``shot`` (a path) keeps a screenshot of the pass screen."""
    seat = int(page.locator('[data-testid="pass-device"]').get_attribute("data-seat") or -1)
    assert page.locator('[data-testid="quiz-reader-card"]').count() == 0, "the asker's card while the page is passed"
    assert page.locator(table).count() == 0, "a table while the page is passed"
    assert names[seat] in page.locator('[data-testid="pass-device"]').inner_text()
    if shot is not None:
        page.screenshot(path=str(shot), full_page=True)
    page.click('[data-testid="pass-ready"]')
    page.wait_for_function(
        "([seat, table]) => window.mindtableShell.seat === seat && window.mindtableShell.lastState"
        " && document.querySelector(table)",
        arg=[seat, table],
    )
    return seat


def secrets_by_step(record: dict[str, Any]) -> list[list[tuple[tuple[int, ...], str]]]:
    """``Game.secrets`` after each step of a finished room's ``record`` (index 0: before the first action), replayed
    from the record: each ``(seats allowed, text)`` — but what a player typed is theirs to say, even the answer."""
    import mindtable

    game = mindtable.get_game(record["game"])
    again = mindtable.new_match(record["game"], record["players"], record["seed"], record["options"])
    found = [game.secrets(again.state, record["players"])]
    said: set[str] = set()
    for action in record["actions"]:
        again.apply(action)
        if "text" in action:
            said.add(json.dumps(action["text"]))
        found.append(
            [(seats, text) for seats, text in game.secrets(again.state, record["players"]) if text not in said]
        )
    return found


def secret_leaks(
    frames: list[Any], seat: int | None, secrets: list[list[tuple[tuple[int, ...], str]]]
) -> tuple[list[str], int]:
    """The secrets (of :func:`secrets_by_step`) that reached ``seat`` in its ``frames``, and how many were checked.
    A frame is looked at as the server wrote it (JSON with non-ASCII escaped, as ``Game.secrets`` writes texts)."""
    leaks, checked = [], 0
    for frame in frames:
        if not isinstance(frame, dict) or frame.get("kind") not in ("state", "events"):
            continue
        text = json.dumps(frame)
        for allowed, secret in secrets[frame["step"]]:
            if seat not in allowed:
                checked += 1
                if secret in text:
                    leaks.append(f"step {frame['step']}: {secret}")
    return leaks, checked
