"""Several server processes on one PostgreSQL and one Redis (``--redis``): rooms are served from whichever
process a client reaches, a process killed with SIGKILL hands its rooms over with every acknowledged action,
and the per-address limits are shared. Needs PostgreSQL on 127.0.0.1:5432 (database ``test``) and Redis on
127.0.0.1:6379; skipped with a message when either is not there."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import websockets

from mindtable.core.match import replay, replay_into, start_of
from mindtable.server.redis_link import Redis

pytestmark = pytest.mark.postgres

FAST = {"tempo_ms": 30, "reaction_ms": 20, "ready_ms": 20}
LEASE = 3.0

#: A bot-only room of each of the other games, lasting some seconds at these bots' own think times.
BOT_ROOMS: list[dict[str, Any]] = [
    {
        "game": "neurorace",
        "players": 2,
        "options": {"last_level": 1, "countdown_seconds": 0, "solo_seconds": 5},
        "bots": {"0": "solver", "1": "solver"},
    },
    {
        "game": "carrera-de-mente",
        "players": 2,
        "options": {"variant_short": True},
        "bots": {"0": "knowing", "1": "knowing"},
        "bot_params": {"0": {"think_ms": 30}, "1": {"think_ms": 30}},
        "bot_pace": "off",  # these bots' own think times only
    },
    {
        "game": "caida-libre",
        "players": 2,
        "bots": {"0": "knowing", "1": "knowing"},
        "bot_params": {"0": {"think_ms": 100}, "1": {"think_ms": 100}},
        "bot_pace": "off",  # these bots' own think times only
    },
    {
        "game": "eesti-malumang",
        "players": 2,
        "options": {"game_minutes": 1},
        "bots": {"0": "knowing", "1": "knowing"},
        "bot_params": {"0": {"think_ms": 150, "board_think_ms": 150}, "1": {"think_ms": 150, "board_think_ms": 150}},
        "bot_pace": "off",  # these bots' own think times only
    },
]


def _reachable(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(1)
        return sock.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture
def redis_url() -> Iterator[str]:
    """Redis with a key prefix of this test's own (its keys are deleted afterwards)."""
    if not _reachable(6379):
        pytest.skip("Redis is not reachable on 127.0.0.1:6379")
    prefix = f"mt-test-{secrets.token_hex(4)}:"
    url = f"redis://127.0.0.1:6379/0?prefix={prefix}"
    yield url

    async def clean() -> None:
        client = Redis(url)
        cursor = b"0"
        while True:
            cursor, keys = await client.call("SCAN", cursor, "MATCH", prefix + "*", "COUNT", 1000)
            if keys:
                await client.call("DEL", *keys)
            if cursor in (b"0", 0):
                break
        await client.close()

    asyncio.run(clean())


@pytest.fixture
def two_processes(pg_url: str, redis_url: str, start_server: Callable[..., Any]) -> Callable[..., tuple[Any, Any]]:
    def start(limits: dict[str, float] | None = None) -> tuple[Any, Any]:
        extra = ["--redis", redis_url, "--lease", str(LEASE)]
        first = start_server(pg_url, extra=extra, limits=limits, log_level="info")
        second = start_server(pg_url, extra=extra, limits=limits, log_level="info")
        return first, second

    return start


async def keep_playing(
    helpers: Any,
    player: Any,
    base: str,
    code: str,
    token: str,
    until: Callable[[Any], bool],
    timeout: float,
    stop: Any = None,
) -> int:
    """``player.run``, reconnecting (and resuming) whenever its connection closes, as the web page does: on a
    busy machine a process may miss renewing a lease and hand a room over. Returns how often it reconnected."""
    end = time.monotonic() + timeout
    again = 0
    while True:
        try:
            await player.run(until, timeout=max(end - time.monotonic(), 0.1))
            return again
        except websockets.ConnectionClosed:
            again += 1
            player.client = await connect_until(helpers, base, code, token, player.client, end, stop)
            player._pending = False


def never(_frame: Any) -> bool:
    return False


def is_over(frame: Any) -> bool:
    return bool(frame.get("kind") == "over")


def frames_of(watchers: list[Any]) -> list[dict[str, Any]]:
    return [frame for watcher in watchers for frame in watcher.frames]


def copied_views(record: dict[str, Any]) -> list[Any]:
    """The spectator's view after each step of a record, each copied when it is made."""
    views = [json.loads(json.dumps(start_of(record).view(None)))]
    replay_into(record, lambda match, _action, _events: views.append(json.loads(json.dumps(match.view(None)))))
    return views


async def connect_until(
    helpers: Any, base: str, code: str, token: str | None, before: Any, until: float, stop: Any = None
) -> Any:
    """Connect (resuming ``before``'s stream) until a welcome comes: while a room changes hands, a connection
    may be closed at once, or answered ``room_moving``."""
    while True:
        client = helpers.Client(base, code, token)
        try:
            if before is not None:
                await client.connect(last_seq=before.last_seq, stream=before.stream)
            else:
                await client.connect()
            if client.frames and client.frames[-1]["kind"] == "welcome":
                return client
            await client.close()
        except Exception:
            pass
        if time.monotonic() > until or (stop is not None and stop.is_set()):
            raise TimeoutError(f"room {code}: no welcome from {base}")
        await asyncio.sleep(0.2)


def test_a_room_is_served_from_either_process(two_processes, helpers) -> None:
    first, second = two_processes()

    async def play() -> tuple[str, list[Any]]:
        created = await helpers.create_room(
            first.http, players=2, name="Ana", options={"lives": 5, "stars": 3, "last_level": 2}
        )
        code = created["code"]
        joined = await helpers.join_room(second.http, code)  # forwarded to the owner
        assert joined["seat"] == 1
        async with httpx.AsyncClient(timeout=10) as http:
            looked = await http.get(f"{second.http}/api/rooms/{code}")
            assert looked.status_code == 200 and looked.json()["status"] == "playing"
            for _ in range(50):  # the lobby lists every process's rooms (published every lease/3)
                listed = (await http.get(f"{second.http}/api/rooms")).json()
                if any(room["code"] == code for room in listed):
                    break
                await asyncio.sleep(0.1)
            else:
                raise AssertionError("the other process's room is not listed")
        ana = await helpers.Client(second.ws, code, created["token"]).connect()  # relayed
        bo = await helpers.Client(first.ws, code, joined["token"]).connect()  # direct
        assert ana.frames[0]["kind"] == "welcome" and ana.frames[0]["seat"] == 0
        players = [helpers.PlayingClient(ana, 0, **FAST), helpers.PlayingClient(bo, 1, **FAST)]
        await asyncio.gather(*(p.run(lambda f: f.get("kind") == "over", timeout=60) for p in players))
        for client in (ana, bo):
            await client.close()
        return code, players

    code, players = asyncio.run(play())
    record = httpx.get(f"{second.http}/api/rooms/{code}/record", timeout=10).json()
    replay(record, verify=True)
    for player in players:
        for accepted in player.accepted:
            stored = record["actions"][accepted["step"] - 1]
            assert stored["seat"] == player.seat and stored["type"] == player.sent[accepted["id"]]["type"]
    for server in (first, second):
        assert "Traceback" not in server.log(), server.log()


def test_sigkill_one_process_and_the_other_finishes_every_game(two_processes, helpers) -> None:
    victim, survivor = two_processes()
    until_over = 120.0

    async def scenario() -> dict[str, Any]:
        # Two rooms of The Mind with two people and a bot each: one owned by each process, each with one
        # player connected to either process.
        mind: list[dict[str, Any]] = []
        for owner in (victim, survivor):
            created = await helpers.create_room(
                owner.http,
                players=3,
                name="Ana",
                bots={"2": "proportional"},
                bot_params={"2": FAST},
                options={"lives": 5, "stars": 3, "last_level": 3},
                grace_s=60,
            )
            joined = await helpers.join_room(owner.http, created["code"])
            ana = await helpers.Client(victim.ws, created["code"], created["token"]).connect()
            bo = await helpers.Client(survivor.ws, created["code"], joined["token"]).connect()
            mind.append(
                {
                    "code": created["code"],
                    "tokens": [created["token"], joined["token"]],
                    "players": [helpers.PlayingClient(ana, 0, **FAST), helpers.PlayingClient(bo, 1, **FAST)],
                    "owner": owner,
                }
            )
        # A bot-only room of each other game on the process to be killed, watched through the other one.
        bots: list[dict[str, Any]] = []
        async with httpx.AsyncClient(timeout=30) as http:
            for body in BOT_ROOMS:
                response = await http.post(f"{victim.http}/api/rooms", json={"name": "Host", **body})
                assert response.status_code == 201, response.text
                code = response.json()["code"]
                watcher = await helpers.Client(survivor.ws, code).connect()
                bots.append({"code": code, "game": body["game"], "watchers": [watcher]})

        stop = asyncio.Event()  # the players of before the kill stop (and do not reconnect)
        runs = [
            asyncio.ensure_future(
                keep_playing(
                    helpers, p, (victim, survivor)[seat].ws, room["code"], room["tokens"][seat], never, until_over, stop
                )
            )
            for room in mind
            for seat, p in enumerate(room["players"])
        ]

        # Kill once every person has had a few actions acknowledged and every bot room is under way.
        def under_way() -> bool:
            people = all(len(p.accepted) >= 3 for room in mind for p in room["players"])
            steps = [
                max([f["step"] for f in frames_of(r["watchers"]) if f.get("kind") == "state"] or [0]) for r in bots
            ]
            return people and all(step >= 3 for step in steps)

        end = time.monotonic() + 60
        while not under_way():
            assert time.monotonic() < end, "the games did not get under way"
            for room in bots:  # keep reading the watchers' frames
                try:
                    await room["watchers"][-1].recv(0.02)
                except TimeoutError:
                    pass
                except websockets.ConnectionClosed:  # a hand-over on a busy machine: watch again
                    watcher = await connect_until(helpers, survivor.ws, room["code"], None, None, end)
                    room["watchers"].append(watcher)
            await asyncio.sleep(0.01)
        victim.kill9()
        for room in bots:
            room["before_kill"] = list(room["watchers"])
        killed_at = time.monotonic()
        before_kill = {room["code"]: [list(p.accepted) for p in room["players"]] for room in mind}
        stop.set()
        for task in runs:
            task.cancel()
        await asyncio.gather(*runs, return_exceptions=True)

        # Everyone reconnects to the survivor, resuming their stream.
        deadline = time.monotonic() + 30
        first_welcome: float | None = None
        resumed: dict[str, list[bool]] = {}
        for room in mind:
            players = []
            resumed[room["code"]] = []
            for seat, (old, token) in enumerate(zip(room["players"], room["tokens"], strict=True)):
                with contextlib.suppress(Exception):
                    await old.client.close()
                client = await connect_until(helpers, survivor.ws, room["code"], token, old.client, deadline)
                first_welcome = first_welcome or time.monotonic()
                resumed[room["code"]].append(bool(client.frames[-1]["resumed"]))
                player = helpers.PlayingClient(client, seat, **FAST)
                player.sent = old.sent
                player._count = old._count  # ids stay unique across the reconnection
                player.accepted = list(old.accepted)
                players.append(player)
            room["players"] = players
        for room in bots:
            old = room["watchers"][-1]
            with contextlib.suppress(Exception):
                await old.close()
            room["watchers"].append(await connect_until(helpers, survivor.ws, room["code"], None, None, deadline))

        finished = [
            keep_playing(helpers, p, survivor.ws, room["code"], room["tokens"][seat], is_over, until_over)
            for room in mind
            for seat, p in enumerate(room["players"])
        ]

        async def over(room: dict[str, Any]) -> None:
            watcher = room["watchers"][-1]
            try:
                await watcher.next(helpers.kind("over"), timeout=until_over)
            except TimeoutError:
                raise AssertionError(f"{room['game']} {room['code']} did not finish: {watcher.frames[-3:]}") from None

        finished += [over(room) for room in bots]
        await asyncio.gather(*finished)
        for room in mind:
            for p in room["players"]:
                await p.client.close()
        for room in bots:
            await room["watchers"][-1].close()
        return {
            "mind": mind,
            "bots": bots,
            "before_kill": before_kill,
            "resumed": resumed,
            "takeover_s": (first_welcome or killed_at) - killed_at,
        }

    outcome = asyncio.run(scenario())
    print(f"the killed process's rooms were back {outcome['takeover_s']:.2f} s after the kill")
    # The rooms of the killed process reconnected within a few seconds (the lease, then a tick).
    assert outcome["takeover_s"] < LEASE * 4, outcome["takeover_s"]
    for room in outcome["mind"]:
        record = httpx.get(f"{survivor.http}/api/rooms/{room['code']}/record", timeout=10).json()
        replay(record, verify=True)
        assert record.get("result") is not None
        # Every acknowledged action, before the kill and after, is in the record at its step.
        acknowledged = 0
        for player in room["players"]:
            for accepted in player.accepted:
                stored = record["actions"][accepted["step"] - 1]
                assert stored["seat"] == player.seat and stored["type"] == player.sent[accepted["id"]]["type"]
                acknowledged += 1
        assert acknowledged >= 6
        assert sum(len(a) for a in outcome["before_kill"][room["code"]]) >= 6
        # The seats resumed their streams with the messages they missed (kept in Redis across the hand-over).
        assert all(outcome["resumed"][room["code"]]), outcome["resumed"]
    for room in outcome["bots"]:
        record = httpx.get(f"{survivor.http}/api/rooms/{room['code']}/record", timeout=10).json()
        replay(record, verify=True)
        assert record.get("result") is not None, room["game"]
        # What the watcher saw before the kill was the record's own game, step by step. (The views are
        # copied as they are made: an engine's view may share lists with its state.)
        views = copied_views(record)
        for frame in frames_of(room["before_kill"]):
            if frame.get("kind") == "state" and frame["status"] == "playing":
                expected = views[frame["step"]]
                seen = frame["view"]
                differ = {k: (seen.get(k), expected.get(k)) for k in expected if seen.get(k) != expected.get(k)}
                assert not differ, (room["game"], frame["step"], differ)
    log = survivor.log()
    assert "Traceback" not in log, log
    assert log.count("taken over") >= 1 + len(BOT_ROOMS), log


def test_limits_are_shared_by_the_processes(two_processes, helpers) -> None:
    limits = {
        "rooms_per_address": 3,
        "room_misses_burst": 4,
        "room_misses_per_address_per_s": 0.001,
        "ws_connections_per_address": 2,
        "ws_connects_burst": 3,
        "ws_connects_per_address_per_s": 0.001,
    }
    first, second = two_processes(limits=limits)
    servers = (first, second)

    async def scenario() -> None:
        async with httpx.AsyncClient(timeout=10) as http:
            body = {"game": "the-mind", "players": 2, "name": "Ana"}
            # Three rooms from one address, spread over both processes: the fourth is refused by either.
            codes = []
            for index in range(3):
                answer = await http.post(f"{servers[index % 2].http}/api/rooms", json=body)
                assert answer.status_code == 201, answer.text
                codes.append(answer.json()["code"])
            for server in servers:
                refused = await http.post(f"{server.http}/api/rooms", json=body)
                assert refused.status_code == 429 and refused.json()["detail"]["code"] == "too_many_rooms"
        # Two open WebSockets per address, wherever they are open...
        one = await helpers.Client(second.ws, codes[0]).connect()  # relayed to its owner
        assert one.frames[0]["kind"] == "welcome", one.frames
        two = await helpers.Client(first.ws, codes[1]).connect()  # relayed too
        three = await helpers.Client(first.ws, codes[2]).connect(hello=False)
        refusal = await three.next(lambda f: f.get("kind") == "error")
        assert refusal["code"] == "too_many_connections"
        for client in (one, two, three):
            await client.close()
        await asyncio.sleep(0.5)
        # ... and three new ones per address (burst), whichever process took them: the fourth is refused.
        four = await helpers.Client(second.ws, codes[0]).connect(hello=False)
        refusal = await four.next(lambda f: f.get("kind") == "error")
        assert refusal["code"] == "rate_limited"
        await four.close()
        async with httpx.AsyncClient(timeout=10) as http:
            # Room-code guessing: one budget of 4 misses for both processes together.
            misses = []
            for index in range(6):
                answer = await http.get(f"{servers[index % 2].http}/api/rooms/ZZZZZ{index + 2}")
                misses.append(answer.status_code)
            assert misses[:4] == [404] * 4 and misses[4:] == [429, 429], misses

    asyncio.run(scenario())
    for server in servers:
        assert "Traceback" not in server.log(), server.log()


def test_processes_sharing_one_port(pg_url, redis_url, start_server, helpers) -> None:
    """``--reuse-port``: both processes listen on one port and the kernel spreads the connections; whichever
    process a client reaches, its room is played through."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    extra = ["--redis", redis_url, "--lease", str(LEASE), "--reuse-port"]
    servers = [start_server(pg_url, extra=extra, port=port, log_level="info") for _ in range(2)]
    base = servers[0]

    async def play() -> None:
        for _ in range(3):
            created = await helpers.create_room(base.http, players=2, name="Ana", options={"last_level": 1})
            joined = await helpers.join_room(base.http, created["code"])
            ana = await helpers.Client(base.ws, created["code"], created["token"]).connect()
            bo = await helpers.Client(base.ws, created["code"], joined["token"]).connect()
            players = [helpers.PlayingClient(ana, 0, **FAST), helpers.PlayingClient(bo, 1, **FAST)]
            await asyncio.gather(*(p.run(lambda f: f.get("kind") == "over", timeout=60) for p in players))
            for client in (ana, bo):
                await client.close()

    asyncio.run(play())
    served = [server.log().count("WebSocket /ws/") for server in servers]
    assert sum(served) == 6, served
    for server in servers:
        assert "Traceback" not in server.log(), server.log()


def test_a_restored_stream_keeps_only_its_unbroken_end() -> None:
    """A stream taken over from Redis resumes only from messages it holds without a gap up to its number."""
    from mindtable.server.streams import Stream, body

    texts = [f'{{"seq":{n},{body({"kind": "state", "step": n})}' for n in (1, 2, 4, 5, 6)]
    stream = Stream()
    stream.restore("abc", 6, texts)
    assert (stream.id, stream.seq) == ("abc", 6)
    assert stream.since("abc", 3) is not None and len(stream.since("abc", 3) or []) == 3
    assert stream.since("abc", 1) is None  # message 3 was lost: a snapshot instead
    assert stream.since("other", 5) is None
    stream.push({"kind": "presence"})
    assert stream.seq == 7 and '"seq":7' in (stream.since("abc", 6) or [""])[0]


def test_a_process_stopped_normally_hands_its_rooms_over_at_once(two_processes, helpers) -> None:
    """SIGTERM: the stopping process gives its leases back, so the other takes its rooms without waiting for
    them to run out, and the players resume their streams there."""
    leaving, staying = two_processes()

    async def scenario() -> tuple[float, list[bool], str, list[Any]]:
        created = await helpers.create_room(
            leaving.http, players=2, name="Ana", options={"lives": 5, "stars": 3, "last_level": 3}
        )
        code = created["code"]
        joined = await helpers.join_room(staying.http, code)
        tokens = [created["token"], joined["token"]]
        clients = [await helpers.Client(staying.ws, code, token).connect() for token in tokens]  # relayed
        players = [helpers.PlayingClient(client, seat, **FAST) for seat, client in enumerate(clients)]
        stop = asyncio.Event()
        runs = [
            asyncio.ensure_future(keep_playing(helpers, p, staying.ws, code, tokens[seat], never, 60, stop))
            for seat, p in enumerate(players)
        ]
        while sum(len(p.accepted) for p in players) < 4:
            await asyncio.sleep(0.02)
        stop.set()
        for task in runs:
            task.cancel()
        await asyncio.gather(*runs, return_exceptions=True)
        await asyncio.to_thread(leaving.stop)
        stopped_at = time.monotonic()
        resumed, again = [], []
        for seat, old in enumerate(players):
            with contextlib.suppress(Exception):
                await old.client.close()
            client = await connect_until(helpers, staying.ws, code, tokens[seat], old.client, time.monotonic() + 30)
            resumed.append(bool(client.frames[-1]["resumed"]))
            player = helpers.PlayingClient(client, seat, **FAST)
            player.sent, player.accepted, player._count = old.sent, list(old.accepted), old._count
            again.append(player)
        took = time.monotonic() - stopped_at
        await asyncio.gather(
            *(keep_playing(helpers, p, staying.ws, code, tokens[s], is_over, 90) for s, p in enumerate(again))
        )
        for player in again:
            await player.client.close()
        return took, resumed, code, again

    took, resumed, code, players = asyncio.run(scenario())
    print(f"back in the game {took:.2f} s after the stop")
    assert all(resumed), resumed
    assert took < LEASE, took  # no waiting for the lease: it was given back
    record = httpx.get(f"{staying.http}/api/rooms/{code}/record", timeout=10).json()
    replay(record, verify=True)
    for player in players:
        for accepted in player.accepted:
            stored = record["actions"][accepted["step"] - 1]
            assert stored["seat"] == player.seat and stored["type"] == player.sent[accepted["id"]]["type"]
    assert "Traceback" not in staying.log(), staying.log()
    assert "Traceback" not in leaving.log(), leaving.log()
