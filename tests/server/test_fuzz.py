"""Malformed and hostile messages never crash the server, and each one gets an answer."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
message_types = st.sampled_from(["hello", "action", "ping", "play", "", "ACTION", None, 3])
actions = st.dictionaries(
    st.sampled_from(["type", "seat", "at", "card", "id", "x"]),
    json_values | st.sampled_from(["play", "ready", "agree", "stop", "propose_star", "dance"]),
    max_size=4,
)
structured = st.builds(
    lambda kind, fields, action, include: {
        **({"type": kind} if kind is not None else {}),
        **fields,
        **({"action": action} if include else {}),
    },
    message_types,
    st.dictionaries(st.sampled_from(["id", "last_seq", "stream", "extra", "seq"]), json_values, max_size=3),
    actions | json_values,
    st.booleans(),
)
frames = (
    structured.map(json.dumps)
    | json_values.map(json.dumps)
    | st.text(max_size=200)
    | st.binary(max_size=64)
    | st.integers(4000, 9000).map(lambda n: json.dumps({"type": "ping", "pad": "x" * n}))
    | st.just('{"type": "action", "action": ' * 400)
    | st.just("[" * 3000 + "]" * 3000)
)


class Session:
    """Two long-lived connections (a seat and a spectator) driven from one event loop."""

    def __init__(self, server: Any, helpers: Any) -> None:
        self.loop = asyncio.new_event_loop()
        self.server = server
        self.helpers = helpers
        self.clients: list[Any] = []
        self.answers = 0

    def start(self) -> None:
        async def setup() -> None:
            created = await self.helpers.create_room(
                self.server.http, bots={"1": "random-timing"}, bot_params={"1": {"max_wait_ms": 100000}}
            )
            seat = await self.helpers.Client(self.server.ws, created["code"], created["token"]).connect()
            spectator = await self.helpers.Client(self.server.ws, created["code"]).connect()
            self.clients = [seat, spectator]

        self.loop.run_until_complete(setup())

    def exchange(self, frame: str | bytes) -> None:
        async def one() -> None:
            for client in self.clients:
                await client.send(frame)
                answer = await client.next(lambda f: f["kind"] in ("error", "pong", "accepted", "rejected"), 5)
                if answer["kind"] in ("accepted", "rejected", "pong"):
                    # Only a well-formed ping or action may get something other than an error.
                    parsed = json.loads(frame)
                    assert parsed["type"] in ("ping", "action"), (frame, answer)
                    if answer["kind"] == "accepted":
                        assert client.frames[0]["seat"] is not None
                self.answers += 1

        self.loop.run_until_complete(one())

    def close(self) -> None:
        async def teardown() -> None:
            for client in self.clients:
                await client.close()

        self.loop.run_until_complete(teardown())
        self.loop.close()


def test_hostile_messages_always_get_an_answer(start_server, helpers) -> None:
    server = start_server(rate=100_000)
    session = Session(server, helpers)
    session.start()

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(frames)
    def check(frame: str | bytes) -> None:
        session.exchange(frame)

    try:
        check()
        # Still serving, and the connections are still usable.
        session.exchange(json.dumps({"type": "ping"}))
    finally:
        session.close()
    assert session.answers > 150
    assert httpx.get(server.http + "/api/games", timeout=5).status_code == 200
    server.stop()
    assert "Traceback" not in server.log(), server.log()
