"""A finished room's record and replay (the largest answers the server gives: close to a megabyte of JSON for
a long game) go gzip-compressed to a client that accepts it, and plain to one that does not."""

from __future__ import annotations

import asyncio
import gzip
import json
from typing import Any

import httpx


async def _finished_room(server: Any, helpers: Any) -> str:
    """A short game of The Mind between two fast bots, played to its end."""
    created = await helpers.create_room(
        server.http,
        bots={"0": "random-timing", "1": "random-timing"},
        bot_params={"0": {"max_wait_ms": 20, "reaction_ms": 5, "ready_ms": 5}, "1": {"max_wait_ms": 20}},
        options={"last_level": 3, "lives": 3},
    )
    watcher = await helpers.Client(server.ws, created["code"]).connect()
    await watcher.next(helpers.kind("over"), timeout=30)
    await watcher.close()
    return str(created["code"])


def _raw(url: str, encoding: str) -> tuple[httpx.Headers, bytes]:
    """The answer's headers and its body exactly as sent (not decoded)."""
    with httpx.stream("GET", url, headers={"Accept-Encoding": encoding}, timeout=10) as response:
        assert response.status_code == 200, response.read()
        return response.headers, b"".join(response.iter_raw())


def test_a_finished_rooms_record_and_replay_go_compressed(server: Any, helpers: Any) -> None:
    code = asyncio.run(_finished_room(server, helpers))
    for path in (f"/api/rooms/{code}/record", f"/api/rooms/{code}/replay", f"/api/rooms/{code}/replay?seat=0"):
        url = server.http + path
        plain_headers, plain = _raw(url, "identity")
        assert "content-encoding" not in plain_headers, path
        headers, sent = _raw(url, "gzip")
        assert headers.get("content-encoding") == "gzip", (path, len(plain))
        assert "accept-encoding" in headers.get("vary", "").lower()
        assert json.loads(gzip.decompress(sent)) == json.loads(plain), path
        assert len(sent) * 2 < len(plain), f"{path}: {len(sent)} bytes sent for {len(plain)}"
