"""Malformed and hostile messages never crash the server, and each one gets an answer."""

from __future__ import annotations

import asyncio
import json
import random
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


# -- a fixed corpus of hostile messages over 22 categories --------------------------------
def _corpus(count: int, seed: int = 15) -> list[tuple[str, str | bytes]]:
    """``count`` hostile frames, as (category, frame), spread evenly over the categories."""
    rng = random.Random(seed)
    deep = lambda n, o, c: o * n + c * n  # noqa: E731
    bad_types: list[Any] = [[], {}, [1], {"a": 1}, 1, 1.5, True, False, None, "", "ACTION", "pong", "\u00e9"]
    surrogates = ["\\ud800", "\\udfff", "a\\udc00b", "\\ud83d"]
    categories: dict[str, Any] = {
        "type_wrong_type": lambda: json.dumps({"type": rng.choice(bad_types)}),
        "type_wrong_type_action": lambda: json.dumps({"type": rng.choice(bad_types), "action": {"type": "play"}}),
        "deep_nesting": lambda: deep(rng.randint(50, 1900), "[", "]"),
        "deep_nesting_in_action": lambda: (
            '{"type":"action","action":{"type":"play","x":' + deep(rng.randint(7, 900), "[", "]") + "}}"
        ),
        "lone_surrogate": lambda: (
            rng.choice(
                [
                    '{"type":"action","id":"%s","action":{"type":"play"}}',
                    '{"type":"action","action":{"type":"%s"}}',
                    '{"type":"action","action":{"type":"play","%s":1}}',
                    '{"type":"action","action":{"type":"play","n":"%s"}}',
                    '{"type":"hello","stream":"%s"}',
                    '{"type":"%s"}',
                ]
            )
            % rng.choice(surrogates)
        ),
        "nan_infinity": lambda: (
            rng.choice(
                [
                    '{"type":"action","action":{"type":"play","card":%s}}',
                    '{"type":"hello","last_seq":%s}',
                    '{"type":"action","id":%s,"action":{"type":"play"}}',
                    '{"type":%s}',
                ]
            )
            % rng.choice(["NaN", "Infinity", "-Infinity", "1e400", "-1e999"])
        ),
        "huge_numbers": lambda: (
            rng.choice(
                [
                    '{"type":"hello","last_seq":%s}',
                    '{"type":"action","id":%s,"action":{"type":"play"}}',
                    '{"type":"action","action":{"type":"play","card":%s}}',
                ]
            )
            % ("9" * rng.randint(17, 3000))
        ),
        "missing_fields": lambda: rng.choice(
            ['{"type":"action"}', '{"type":"action","id":"x"}', '{"action":{"type":"play"}}', "{}", '{"id":1}']
        ),
        "unknown_type": lambda: json.dumps({"type": rng.choice(["play", "helo", "ACTION", "Ping", " ping", "seq"])}),
        "unknown_field": lambda: json.dumps(
            {"type": rng.choice(["ping", "hello", "action"]), "x" * rng.randint(1, 99): 1}
        ),
        "not_an_object": lambda: json.dumps(rng.choice([[], [1, 2], "ping", 3, 2.5, None, True])),
        "invalid_json": lambda: rng.choice(
            ['{"type":', "{'type': 'ping'}", "{", "}", "nul", '{"a" 1}', "[1,]", "\x00"]
        ),
        "binary_frame": lambda: bytes(rng.randrange(256) for _ in range(rng.randint(0, 40))),
        "too_large": lambda: json.dumps({"type": "ping", "pad": "x" * rng.randint(4100, 20000)}),
        "wrong_field_types": lambda: json.dumps(
            rng.choice(
                [
                    {"type": "hello", "last_seq": rng.choice(["1", -1, 1.5, True, [], None])},
                    {"type": "hello", "stream": rng.choice([1, [], {}, True, "s" * 65])},
                    {"type": "action", "id": rng.choice([1.5, True, [], {}, "i" * 65]), "action": {"type": "play"}},
                ]
            )
        ),
        "action_not_object": lambda: json.dumps({"type": "action", "action": rng.choice([[], "play", 1, None, True])}),
        "action_type_wrong": lambda: json.dumps(
            {"type": "action", "action": {"type": rng.choice(["", 1, None, [], {}, "t" * 65, True])}}
        ),
        "action_too_many_fields": lambda: json.dumps(
            {"type": "action", "action": {"type": "play", **{f"f{i}": i for i in range(rng.randint(33, 80))}}}
        ),
        "action_too_many_values": lambda: json.dumps(
            {"type": "action", "action": {"type": "play", "xs": [0] * rng.randint(600, 900)}}
        ),
        "hello_again": lambda: json.dumps({"type": "hello", "last_seq": rng.randint(0, 5)}),
        "random_text": lambda: "".join(
            chr(rng.choice([rng.randint(32, 126), rng.randint(160, 0xD7FF)])) for _ in range(rng.randint(0, 60))
        ),
        "empty": lambda: "",
    }
    names = sorted(categories)
    return [(names[i % len(names)], categories[names[i % len(names)]]()) for i in range(count)]


def test_corpus_parses_to_protocol_errors_only() -> None:
    from mindtable.server.protocol import ProtocolError, parse_message

    corpus = _corpus(20_000)
    assert len({category for category, _ in corpus}) >= 20
    for category, frame in corpus:
        try:
            parse_message(frame, 4096)  # type: ignore[arg-type]
        except ProtocolError as exc:
            assert exc.code in ("bad_json", "bad_message", "too_large"), (category, exc.code)
            exc.message.encode("utf-8")  # the answer itself is always sendable
        else:
            assert category == "hello_again", (category, frame)


def test_ten_thousand_hostile_messages_get_one_error_each(start_server, helpers) -> None:
    """10,000+ frames from the corpus through a live server, on seat and spectator connections and before the
    hello: every frame gets exactly one answer, and the handler never fails."""
    server = start_server(rate=1_000_000)
    corpus = _corpus(10_400)
    # Before the hello, a valid hello would be the hello: those go after it.
    corpus.sort(key=lambda item: item[0] == "hello_again")

    async def scenario() -> int:
        created = await helpers.create_room(
            server.http, bots={"1": "random-timing"}, bot_params={"1": {"max_wait_ms": 1_000_000}}
        )
        code = created["code"]
        answered = 0
        # Before the hello: 20 connections each get 20 hostile frames first, then say hello.
        early = corpus[:400]
        for start in range(0, len(early), 20):
            client = helpers.Client(server.ws, code)
            await client.connect(hello=False)
            for _, frame in early[start : start + 20]:
                await client.send(frame)
            await client.send({"type": "hello", "last_seq": 0})
            for _ in range(20):
                answer = await client.next(lambda f: f["kind"] in ("error", "pong", "welcome"))
                assert answer["kind"] == "error", answer
                answered += 1
            await client.next(helpers.kind("welcome"))
            await client.close()
        seat = await helpers.Client(server.ws, code, created["token"]).connect()
        spectator = await helpers.Client(server.ws, code).connect()
        clients = [seat, spectator]
        rest = corpus[400:]
        for start in range(0, len(rest), 200):
            client = clients[(start // 200) % 2]
            batch = rest[start : start + 200]
            for _, frame in batch:
                await client.send(frame)
            for category, _ in batch:
                answer = await client.next(lambda f: f["kind"] in ("error", "pong", "accepted", "rejected"), timeout=10)
                if category != "hello_again":
                    assert answer["kind"] == "error", (category, answer)
                answered += 1
        await seat.send({"type": "ping"})
        await seat.next(helpers.kind("pong"))
        for client in clients:
            await client.close()
        return answered

    answered = asyncio.run(scenario())
    assert answered == len(corpus) >= 10_000
    server.stop()
    assert "Traceback" not in server.log(), server.log()
    assert "ERROR" not in server.log(), server.log()
