"""Server-side time for a turn-based game: the engine's deadlines and the room's turn timer.

The Mind has neither, so this test registers a tiny turn-based game ("tally": take 1 or 2 counters from a
pile, turn by turn; an optional ``tick_ms`` deadline passes the turn when nobody moves) and runs the server
in a thread of the test process, where that registration is visible.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar

import httpx
import pytest
import uvicorn

from mindtable.core import Deadline, Event, Game, Option, Result, Rng, register_game, registry
from mindtable.core.codes import refuse
from mindtable.core.errors import IllegalAction
from mindtable.core.moves import Move, MoveTable, Param
from mindtable.server import create_app


def _tally_turn(state: dict[str, Any], seat: int, at: Any) -> IllegalAction | None:
    if seat != state["turn"]:
        return refuse("not_your_turn", waiting=state["turn"])
    return None


def _tally_due(state: dict[str, Any], seat: Any, at: Any) -> IllegalAction | None:
    if not state["tick_ms"] or (at or 0) < state["since"] + state["tick_ms"]:
        return refuse("not_yet")
    return None


def _take(state: dict[str, Any], action: dict[str, Any], rng: Rng) -> list[Event]:
    state["since"] = action.get("at", 0)
    state["pile"] -= action["n"]
    if state["pile"] == 0:
        state["winner"] = action["seat"]
    state["turn"] = 1 - state["turn"]
    return [Event("took", {"seat": action["seat"], "n": action["n"]})]


def _tick(state: dict[str, Any], action: dict[str, Any], rng: Rng) -> list[Event]:
    state["since"] = action.get("at", 0)
    state["turn"] = 1 - state["turn"]
    return [Event("ticked", {"turn": state["turn"]})]


def _counts(state: dict[str, Any], seat: int) -> list[int]:
    return [n for n in (1, 2) if n <= state["pile"]]


TALLY_MOVES = MoveTable(
    [
        Move(
            "take",
            _take,
            _tally_turn,
            params=(Param.choice("n", lambda s, seat: [n for n in (1, 2) if n <= s["pile"]]),),
        ),
        Move("tick", _tick, _tally_due, system=True),
    ]
)


class Tally(Game):
    id = "tally-test"
    title = "Tally (test game)"
    min_players = 2
    max_players = 2
    option_schema = (Option("tick_ms", int, default=0, minimum=0),)
    bots: ClassVar[Mapping[str, str]] = {"random": "mindtable.core.bots:RandomBot"}
    moves = TALLY_MOVES
    codes: ClassVar[Mapping[str, str]] = {"not_yet": "the turn is not over yet"}

    def initial_state(self, players: int, options: Mapping[str, Any], rng: Rng) -> dict[str, Any]:
        return {"pile": 6, "turn": 0, "tick_ms": options["tick_ms"], "since": 0, "winner": None}

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return {"pile": state["pile"], "turn": state["turn"]}

    def result(self, state: dict[str, Any]) -> Result | None:
        if state["winner"] is None:
            return None
        return Result((state["winner"],), tuple(1.0 if s == state["winner"] else 0.0 for s in (0, 1)), "took_last")

    def next_deadline(self, state: dict[str, Any]) -> Deadline | None:
        if not state["tick_ms"]:
            return None
        return Deadline(state["since"] + state["tick_ms"], {"type": "tick"})


class ThreadServer:
    def __init__(self, db: Path) -> None:
        self.port = _free_port()
        config = uvicorn.Config(
            create_app(db_url=str(db)),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws_max_size=65536,
            ws_per_message_deflate=False,
        )
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


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def tally_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    register_game(Tally())
    try:
        with ThreadServer(tmp_path_factory.mktemp("timers") / "timers.sqlite3") as server:
            yield server
    finally:
        registry._loaded.pop(Tally.id, None)  # leave the registry as other tests expect it


def test_turn_timer_lets_a_bot_act_for_an_idle_seat(tally_server, helpers) -> None:
    async def scenario() -> None:
        created = await helpers.create_room(
            tally_server.http, game="tally-test", turn_timer_s=0.3, replacement_bot="random"
        )
        ana = await helpers.Client(tally_server.ws, created["code"], created["token"]).connect()
        joined = await helpers.join_room(tally_server.http, created["code"])
        bo = await helpers.Client(tally_server.ws, created["code"], joined["token"]).connect()
        state = await ana.next(lambda f: f["kind"] == "state" and f["status"] == "playing")
        assert state["turn_deadline"] == 300  # 0.3 s after the match started, on the match clock
        assert (await bo.next(lambda f: f["kind"] == "state" and f["status"] == "playing"))["turn_deadline"] is None
        timed_out = await bo.next(lambda f: f["kind"] == "events", timeout=5)
        assert timed_out["events"][0]["type"] == "took" and timed_out["events"][0]["seat"] == 0
        # Now seat 1 is on turn; it acts itself before its timer runs out.
        mine = await bo.next(lambda f: f["kind"] == "state" and f["step"] == 1)
        assert mine["clock"] >= 300, "the server acted for seat 0 before its turn timer ran out"
        assert mine["turn_deadline"] is not None and mine["turn_deadline"] >= 600  # its own 0.3 s from then
        assert mine["legal"]
        await bo.act(mine["legal"][0], "b1")
        assert (await bo.next(helpers.kind("accepted")))["step"] == 2
        for client in (ana, bo):
            await client.close()

    asyncio.run(scenario())


def test_engine_deadlines_are_delivered_on_time(tally_server, helpers) -> None:
    async def scenario() -> None:
        created = await helpers.create_room(tally_server.http, game="tally-test", options={"tick_ms": 250})
        joined = await helpers.join_room(tally_server.http, created["code"])
        bo = await helpers.Client(tally_server.ws, created["code"], joined["token"]).connect()
        state = await bo.next(lambda f: f["kind"] == "state" and f["status"] == "playing")
        assert state["deadline"] == 250
        ticks = [
            await bo.next(lambda f: f["kind"] == "events" and f["events"][0]["type"] == "ticked", timeout=5)
            for _ in range(2)
        ]
        assert [t["events"][0]["turn"] for t in ticks] == [1, 0]
        after = await bo.next(lambda f: f["kind"] == "state" and f["step"] == 2)
        assert after["clock"] >= 500 and after["deadline"] >= 750
        async with httpx.AsyncClient(base_url=tally_server.http) as http:
            room = (await http.get(f"/api/rooms/{created['code']}")).json()
        assert room["status"] == "playing"
        await bo.close()

    asyncio.run(scenario())
