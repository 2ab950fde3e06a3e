"""A server's memory under a steady stream of games: a finished room leaves memory once nobody is connected to
it (``finished_room_linger_s`` later) and is loaded again from storage when someone asks for it: its page, its
record, a spectator's snapshot and its rematch (with the seats held for the old players) all still work.

The server runs in a thread of the test process (as in ``test_timers.py``), so that the test can count the
rooms it holds in memory. What one played room holds (traced) and the resume buffers (kept compressed, let go
by the server's sweep when their time is up) are tested on a room manager without a server.
"""

from __future__ import annotations

import asyncio
import gc
import json
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import httpx
import pytest
import uvicorn

import mindtable
from mindtable.core.driver import play_out
from mindtable.server import create_app
from mindtable.server import manager as manager_module
from mindtable.server.limits import Limits
from mindtable.server.manager import RoomManager
from mindtable.server.room import Room, Settings
from mindtable.server.storage import Storage
from mindtable.server.streams import Stream
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


# -- what one room holds ------------------------------------------------------------------------------------
#: Traced bytes a played room of four may hold a minute after its end, its players still connected (measured
#: with benchmarks/room_memory.py: Carrera 285 KB, Eesti 223 KB; 1,797 KB and 1,561 KB before the resume
#: buffers were compressed and swept, a finished match let go of its fingerprints and views, and a match kept
#: its start only frozen (``Match._start`` thawed when a record asks for it, not held beside the frozen copy:
#: 583 KB of Carrera's 867 KB)).
ROOM_BOUND_KB = 600


class Reader:
    """Stands in for a connection that reads every message at once; counts them, and with ``keep`` keeps them."""

    def __init__(self, seat: int | None, keep: bool = False) -> None:
        self.seat = seat
        self.closed = False
        self.keep = keep
        self.count = 0
        self.texts: list[str] = []

    def send(self, text: str) -> None:
        self.count += 1
        if self.keep:
            self.texts.append(text)

    def send_message(self, message: dict[str, Any]) -> None:
        self.send(json.dumps(message))

    def close(self, code: int = 1000) -> None:
        self.closed = True


async def _manager(folder: Path) -> tuple[RoomManager, Storage]:
    storage = Storage(f"sqlite:///{folder / 'rooms.sqlite3'}")
    await asyncio.to_thread(storage.start)
    return RoomManager(storage), storage


async def _room(manager: RoomManager, game_id: str, players: int, seed: int) -> tuple[Room, list[Reader]]:
    """A room of ``players`` people dealt with ``seed``, every seat with a connection."""
    with mock.patch.object(manager_module.secrets, "randbelow", lambda _n: seed):
        room, _, _ = await manager.create(
            game_id=game_id, players=players, options={}, bots={}, bot_params={}, name="P0", seat=None,
            settings=Settings(),
        )  # fmt: skip
    for index in range(1, players):
        await manager.join(room.code, f"P{index}", None)
    readers = [Reader(seat) for seat in range(players)]
    for seat, reader in enumerate(readers):
        assert await room.attach(reader, seat, 0, None, room.seats[seat].token_hash)  # type: ignore[arg-type]
    return room, readers


def _planned(game_id: str, players: int, seed: int, options: dict[str, Any]) -> list[dict[str, Any]]:
    match = mindtable.new_match(game_id, players=players, seed=seed, options=options)
    play_out(match, {s: match.game.make_bot("knowing", seat=s, seed=seed + s) for s in range(players)})
    return match.actions


async def _play(room: Room, actions: list[dict[str, Any]]) -> None:
    for action in actions:
        await room.act(action.get("seat"), action, version=room.version)  # the action's own time stands
    assert room.status == "over" and room.match.played == len(actions)


@pytest.mark.parametrize("game_id", ["carrera-de-mente", "eesti-malumang"])
def test_a_played_room_of_four_holds_little_a_minute_after_its_end(tmp_path: Path, game_id: str) -> None:
    async def scenario() -> None:
        manager, storage = await _manager(tmp_path)
        try:
            warm, _ = await _room(manager, game_id, 4, 1)  # what a process loads once (content, caches)
            await _play(warm, _planned(game_id, 4, 1, warm.match.options))
            manager.forget(warm.code)
            actions = _planned(game_id, 4, 2, warm.match.options)  # judging's compiled answers: a process cache
            del warm
            gc.collect()
            tracemalloc.start()
            try:
                before = tracemalloc.get_traced_memory()[0]
                room, readers = await _room(manager, game_id, 4, 2)
                await _play(room, actions)
                manager.sweep_rooms(time.monotonic() + 61)  # the server's sweep a minute later
                gc.collect()
                held = tracemalloc.get_traced_memory()[0] - before
            finally:
                tracemalloc.stop()
            assert held < ROOM_BOUND_KB * 1024, f"{game_id}: a played room holds {held / 1024:.0f} KB"
            assert manager.resume_budget.used == 0  # nothing kept: a minute is past for connected players

            # The finished room still shows itself whole: a client coming back gets a snapshot (no resume).
            seat0 = readers[0]
            stream = room.streams[0]
            assert stream.since(stream.id, 1) is None
            late = Reader(0, keep=True)
            assert await room.attach(late, 0, 1, stream.id, room.seats[0].token_hash)  # type: ignore[arg-type]
            frames = [json.loads(text) for text in late.texts]
            assert [f["kind"] for f in frames] == ["welcome", "presence", "state", "over"]
            assert frames[0]["resumed"] is False
            state = frames[2]
            assert "same" not in state and {"board", "quiz_history"} <= set(state["view"])
            assert state["view"] == json.loads(json.dumps(room.match.view(0)))
            assert seat0.count > len(actions)  # the players were sent the game as it went
        finally:
            await manager.shutdown()
            await asyncio.to_thread(storage.stop)

    asyncio.run(scenario())


# -- resume buffers -----------------------------------------------------------------------------------------
def test_long_messages_are_kept_compressed_and_resumed_as_sent() -> None:
    stream = Stream()
    reader = Reader(0, keep=True)
    stream.conns.add(reader)  # type: ignore[arg-type]
    board = [{"square": n, "colour": "grün", "question": f"¿Cuál es el número {n}?"} for n in range(200)]
    for step in range(20):
        stream.push({"kind": "state", "step": step, "view": {"board": board, "turn": step % 4}})
        stream.push({"kind": "events", "step": step, "events": [{"type": "moved", "seat": step % 4}]})
    sent = reader.texts
    assert len(sent) == 40 and len(sent[0]) > 10_000
    # A client that saw the first five messages gets the other 35 exactly as the connected one got them.
    assert stream.since(stream.id, 5) == sent[5:]
    assert stream.kept() == sent
    raw = sum(len(text.encode()) for text in sent)
    assert stream.kept_bytes < raw / 4  # the state frames are kept deflated


def test_streams_that_share_a_long_message_each_resume_it_under_their_own_number() -> None:
    """The step's public events are kept compressed once for every seat's stream: each stream numbers them
    its own way, and a client resuming any of them gets exactly the text its connection was sent."""
    from mindtable.server.streams import body

    streams = [Stream() for _ in range(3)]
    readers = [Reader(seat, keep=True) for seat in range(3)]
    for stream, reader in zip(streams, readers, strict=True):
        stream.conns.add(reader)  # type: ignore[arg-type]
    streams[1].push({"kind": "presence", "seats": []})  # the streams' numbers differ from here on
    for step in range(5):
        shared = body({"kind": "events", "step": step, "events": [{"type": "said", "text": "ñ" * 600 + str(step)}]})
        for stream in streams:
            stream.push_body(shared)
        for seat, stream in enumerate(streams):
            stream.push({"kind": "state", "step": step, "view": {"seat": seat, "pad": "x" * 700}})
    for stream, reader in zip(streams, readers, strict=True):
        assert stream.since(stream.id, 1) == reader.texts[1:]
        assert [json.loads(text)["seq"] for text in stream.kept()] == list(range(1, stream.seq + 1))
    assert json.loads(streams[1].kept()[1])["events"][0]["text"] == "ñ" * 600 + "0"


def test_the_sweep_lets_a_quiet_streams_old_messages_go(tmp_path: Path) -> None:
    """Without a push the time limit used never to apply: a stream nobody pushes to kept its messages for ever."""

    async def scenario() -> None:
        manager, storage = await _manager(tmp_path)
        try:
            room, _ = await _room(manager, "the-mind", 2, 3)
            connected, gone = room.streams[0], room.streams[1]
            room.detach(next(iter(gone.conns)))  # seat 1's player left: kept five minutes for them
            await room.act(0, {"type": "ready"})
            assert connected.since(connected.id, 1) and gone.since(gone.id, 1)
            used = manager.resume_budget.used
            assert used > 0

            manager.sweep_rooms(time.monotonic() + 61)  # a minute later, nothing pushed meanwhile
            assert connected.since(connected.id, 1) is None  # resuming gets a snapshot instead
            assert gone.since(gone.id, 1)  # still within its five minutes
            assert 0 < manager.resume_budget.used < used
            manager.sweep_rooms(time.monotonic() + 301)
            assert gone.since(gone.id, 1) is None
            assert manager.resume_budget.used == 0
        finally:
            await manager.shutdown()
            await asyncio.to_thread(storage.stop)

    asyncio.run(scenario())
