"""A server's memory under a steady stream of games: a finished room leaves memory once nobody is connected to
it (``finished_room_linger_s`` later) and is loaded again from storage when someone asks for it: its page, its
record, a spectator's snapshot and its rematch (with the seats held for the old players) all still work.

The server runs in a thread of the test process (as in ``test_timers.py``), so that the test can count the
rooms it holds in memory.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

import mindtable
from mindtable.server import create_app
from mindtable.server.limits import Limits
from tests.server.conftest import ONE_CLIENT_IS_MANY, free_port

FAST = {"tempo_ms": 5, "reaction_ms": 10, "ready_ms": 10}
BOT_FAST = {"max_wait_ms": 20, "reaction_ms": 5, "ready_ms": 5}
ROOMS = 4


class ThreadServer:
    def __init__(self, db: Path, limits: dict[str, float]) -> None:
        self.port = free_port()
        self.app = create_app(db_url=str(db), limits=Limits().with_overrides({**ONE_CLIENT_IS_MANY, **limits}))
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the in-thread server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def rooms_in_memory(self) -> set[str]:
        return set(self.app.state.manager.rooms)


@pytest.fixture
def linger_server(tmp_path: Path) -> Iterator[ThreadServer]:
    # Released as soon as nobody is connected: the test sees the release without waiting a minute.
    with ThreadServer(tmp_path / "memory.sqlite3", {"finished_room_linger_s": 0}) as server:
        yield server


async def until(condition: Callable[[], bool], server: ThreadServer, timeout: float = 15.0) -> None:
    """Wait for ``condition`` (the server works in its own thread); a clear failure if it never holds."""
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"still not so after {timeout} s; rooms in memory: {sorted(server.rooms_in_memory())}")
        await asyncio.sleep(0.05)


def test_finished_rooms_leave_memory_and_are_still_served_from_storage(linger_server: ThreadServer, helpers) -> None:
    server = linger_server

    async def play_one() -> tuple[str, dict[str, Any], dict[str, str]]:
        created = await helpers.create_room(
            server.http,
            players=3,
            name="Ana",
            bots={"2": "random-timing"},
            bot_params={"2": BOT_FAST},
            options={"last_level": 1, "lives": 1},
        )
        code = created["code"]
        joined = await helpers.join_room(server.http, code)
        ana = await helpers.Client(server.ws, code, created["token"]).connect()
        bo = await helpers.Client(server.ws, code, joined["token"]).connect()
        players = [helpers.PlayingClient(ana, 0, **FAST), helpers.PlayingClient(bo, 1, **FAST)]
        await asyncio.gather(*(p.run(helpers.kind("over"), timeout=30) for p in players))
        over = await ana.next(helpers.kind("over"))
        assert code in server.rooms_in_memory(), "a finished room stays while its players are connected"
        for client in (ana, bo):
            await client.close()
        return code, over["result"], {"ana": created["token"], "bo": joined["token"]}

    async def scenario() -> None:
        baseline = server.rooms_in_memory()
        played = await asyncio.gather(*(play_one() for _ in range(ROOMS)))
        codes = [code for code, _, _ in played]
        # Every finished room left memory once its players had gone: the server holds what it held before.
        await until(lambda: server.rooms_in_memory() == baseline, server)

        async with httpx.AsyncClient(base_url=server.http, timeout=10) as http:
            for code, result, _ in played:
                page = (await http.get(f"/api/rooms/{code}")).json()
                assert page["status"] == "over" and page["result"] == result
                record = (await http.get(f"/api/rooms/{code}/record")).json()
                replayed = mindtable.replay(record).result
                assert replayed is not None and replayed.winners == tuple(result["winners"])
                steps = (await http.get(f"/api/rooms/{code}/replay")).json()["steps"]
                assert [step["action"] for step in steps[1:]] == record["actions"]
        await until(lambda: server.rooms_in_memory() == baseline, server)  # loaded for a look, released again

        # A spectator of a released room gets the finished room's snapshot, result included; it stays meanwhile.
        code, result, tokens = played[0]
        watcher = await helpers.Client(server.ws, code).connect()
        welcome = watcher.frames[0]
        assert welcome["kind"] == "welcome" and welcome["room"]["status"] == "over"
        assert (await watcher.next(helpers.kind("over")))["result"] == result
        await asyncio.sleep(0.2)
        assert code in server.rooms_in_memory(), "a finished room somebody watches stays in memory"

        # A rematch of a released room: Ana's seat, Bo's seat held for him alone, the bot again.
        async with httpx.AsyncClient(base_url=server.http, timeout=10) as http:
            asked = await http.post(f"/api/rooms/{code}/rematch", headers={"Authorization": f"Bearer {tokens['ana']}"})
            again = asked.json()
            assert asked.status_code == 200 and again["seat"] == 0, again
            new = again["code"]
            assert [seat["reserved"] for seat in again["room"]["seats"]] == [False, True, False]
            notice = await watcher.next(lambda f: f["kind"] == "presence" and f["rematch"] == new)
            assert notice["status"] == "over"
            await watcher.close()
            await until(lambda: server.rooms_in_memory() == baseline | {new}, server)  # the old room leaves again
            stranger = await http.post(f"/api/rooms/{new}/join", json={"name": "Eve"})
            assert stranger.status_code == 409 and stranger.json()["detail"]["code"] == "seat_reserved"
            back = await http.post(f"/api/rooms/{code}/rematch", headers={"Authorization": f"Bearer {tokens['bo']}"})
            assert back.status_code == 200 and back.json()["code"] == new and back.json()["seat"] == 1
            # the other finished rooms had none asked for: a rematch there makes a room of their own
            page = (await http.get(f"/api/rooms/{codes[1]}")).json()
            assert page["rematch"] is None
        await until(lambda: server.rooms_in_memory() == baseline | {new}, server)

    asyncio.run(scenario())


def test_a_finished_room_stays_while_its_linger_lasts(tmp_path: Path, helpers) -> None:
    """The default: a finished room stays in memory a while after its players leave (a page reloaded, a
    rematch asked for a moment later find it without reading it again from storage)."""
    with ThreadServer(tmp_path / "linger.sqlite3", {"finished_room_linger_s": 3600}) as server:

        async def scenario() -> None:
            created = await helpers.create_room(
                server.http,
                name="Ana",
                bots={"1": "random-timing"},
                bot_params={"1": BOT_FAST},
                options={"last_level": 1, "lives": 1},
            )
            code = created["code"]
            ana = await helpers.Client(server.ws, code, created["token"]).connect()
            await helpers.PlayingClient(ana, 0, **FAST).run(helpers.kind("over"), timeout=30)
            await ana.close()
            await asyncio.sleep(0.5)
            assert code in server.rooms_in_memory()

        asyncio.run(scenario())
