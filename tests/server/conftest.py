"""Fixtures for the server tests: a real uvicorn server in a subprocess on a free loopback port, and a small
WebSocket client (the ``websockets`` package) that records every frame it receives."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
import websockets

import mindtable
from mindtable.core import Decision, Observation
from mindtable.server.protocol import fill_same

#: The shared test server is one client (127.0.0.1) doing the work of many players: its per-address budgets
#: for creating rooms, REST calls and connections are raised. Tests of those limits start their own server.
ONE_CLIENT_IS_MANY = {
    "rooms_per_address": 10_000,
    "room_creates_burst": 10_000,
    "rest_burst": 10_000,
    "rest_per_address_per_s": 10_000,
    "room_misses_burst": 10_000,
    "ws_connects_burst": 10_000,
    "ws_connections_per_address": 10_000,
    "ws_messages_burst": 10_000,
    "ws_messages_per_address_per_s": 10_000,
    "unfinished_requests_per_address": 10_000,
    "rooms_per_network": 10_000,
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerProcess:
    """``python -m mindtable.server`` on 127.0.0.1, started and stopped by the test."""

    def __init__(
        self,
        db: str,
        *,
        rate: float = 20.0,
        cwd: Path | None = None,
        limits: dict[str, float] | None = None,
        trusted_proxies: str | None = None,
        log_level: str = "warning",
        extra: list[str] | None = None,
        port: int = 0,
    ) -> None:
        self.log_level = log_level
        self.extra = list(extra or [])
        self.fixed_port = port
        self.db = db
        self.rate = rate
        self.cwd = cwd
        self.limits = dict(limits or {})
        self.trusted_proxies = trusted_proxies
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path: Path | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, log_path: Path) -> ServerProcess:
        self.port = self.fixed_port or free_port()
        self.log_path = log_path
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        with open(log_path, "ab") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "mindtable.server",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                    "--db",
                    self.db,
                    "--log-level",
                    self.log_level,
                    "--rate",
                    str(self.rate),
                    *[arg for name, value in self.limits.items() for arg in ("--limit", f"{name}={value}")],
                    *(["--trusted-proxies", self.trusted_proxies] if self.trusted_proxies else []),
                    *self.extra,
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=self.cwd,
                env=env,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited early:\n{log_path.read_text()}")
            try:
                if httpx.get(self.http + "/api/games", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"server did not start:\n{log_path.read_text()}")

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill9(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)

    def log(self) -> str:
        return self.log_path.read_text() if self.log_path else ""


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Callable[..., ServerProcess]]:
    servers: list[ServerProcess] = []

    def start(
        db: str | None = None, *, rate: float = 20.0, limits: dict[str, float] | None = None, **kwargs: Any
    ) -> ServerProcess:
        """A server of the test's own; ``limits`` default to :data:`ONE_CLIENT_IS_MANY` (``{}``: the defaults)."""
        limits = ONE_CLIENT_IS_MANY if limits is None else limits
        server = ServerProcess(db or str(tmp_path / "server.sqlite3"), rate=rate, cwd=tmp_path, limits=limits, **kwargs)
        servers.append(server)
        return server.start(tmp_path / f"server-{len(servers)}.log")

    yield start
    for server in servers:
        server.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server shared by the tests of a module (default limits)."""
    folder = tmp_path_factory.mktemp("server")
    process = ServerProcess(str(folder / "shared.sqlite3"), cwd=folder, limits=ONE_CLIENT_IS_MANY).start(
        folder / "server.log"
    )
    yield process
    process.stop()
    assert "Traceback" not in process.log(), process.log()


class Client:
    """A WebSocket client that keeps every frame it receives, in order."""

    def __init__(self, base: str, code: str, token: str | None = None) -> None:
        # The token goes in the hello, as the web page sends it (``url_token`` tests the older ``?token=``).
        self.url = f"{base}/ws/{code}"
        self.token = token
        self.frames: list[dict[str, Any]] = []
        self.ws: Any = None
        self.last_seq = 0
        self.stream: str | None = None
        self._cursor = 0
        #: The view of the last state frame (a state frame's "same" parts come from it).
        self.view: dict[str, Any] | None = None

    async def connect(self, last_seq: int | None = None, stream: str | None = None, hello: bool = True) -> Client:
        self.ws = await websockets.connect(self.url, max_size=2**22)
        if hello:
            hello: dict[str, Any] = {
                "type": "hello",
                "last_seq": self.last_seq if last_seq is None else last_seq,
                "stream": self.stream if stream is None else stream,
            }
            if self.token:
                hello["token"] = self.token
            await self.send(hello)
            welcome = await self.next(lambda m: m["kind"] in ("welcome", "error"))
            if welcome["kind"] == "welcome":
                self.stream = welcome["stream"]
        return self

    async def send(self, message: Any) -> None:
        await self.ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    async def act(self, action: dict[str, Any], id: str = "x") -> None:
        await self.send({"type": "action", "id": id, "action": action})

    async def recv(self, timeout: float = 5.0) -> dict[str, Any]:
        frame = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        kind = frame.get("kind")
        if kind == "welcome" and not frame.get("resumed"):
            self.view = None
        elif kind == "state":  # whole, as the page makes it: a steady part the stream sent last comes as "same"
            self.view = fill_same(frame, self.view)
        self.frames.append(frame)
        if "seq" in frame:
            self.last_seq = frame["seq"]
        return frame

    async def next(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 5.0) -> dict[str, Any]:
        """The next frame (already received but not yet looked at, or new) matching ``predicate``."""
        end = time.monotonic() + timeout
        while True:
            while self._cursor < len(self.frames):
                frame = self.frames[self._cursor]
                self._cursor += 1
                if predicate(frame):
                    return frame
            remaining = end - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no matching frame within {timeout} s; last frames: {self.frames[-5:]}")
            await self.recv(remaining)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


def kind(name: str) -> Callable[[dict[str, Any]], bool]:
    return lambda frame: frame.get("kind") == name


async def create_room(base: str, **body: Any) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=10) as http:
        response = await http.post("/api/rooms", json={"game": "the-mind", "players": 2, **body})
        assert response.status_code == 201, response.text
        return dict(response.json())


async def join_room(base: str, code: str, **body: Any) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=10) as http:
        response = await http.post(f"/api/rooms/{code}/join", json={"name": "Bo", **body})
        assert response.status_code == 200, response.text
        return dict(response.json())


class PlayingClient:
    """A human seat driven by one of the game's bots on the client side, with the bot's own timing.

    Every ``state`` frame is shown to the bot (``now`` = the frame's ``clock``); its wish is sent after
    ``Decision.at - clock`` ms unless a newer state arrives first.
    """

    def __init__(self, client: Client, seat: int, bot: str = "proportional", **params: Any) -> None:
        self.client = client
        self.seat = seat
        self.bot = mindtable.get_game("the-mind").make_bot(bot, seat=seat, seed=seat, **params)
        self.accepted: list[dict[str, Any]] = []
        self.sent: dict[str, dict[str, Any]] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._count = 0
        self._pending = False
        self._wait_step = 0
        self._latest: dict[str, Any] | None = None

    def _plan(self, state: dict[str, Any]) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._pending or state["step"] < self._wait_step or state["status"] != "playing" or not state["legal"]:
            return
        decision: Decision | None = self.bot.decide(
            Observation(seat=self.seat, view=state["view"], legal_actions=state["legal"], now=state["clock"])
        )
        if decision is None:
            return
        delay = 0 if decision.at is None else max(decision.at - state["clock"], 0)
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(delay / 1000, lambda: asyncio.ensure_future(self._send(decision.action)))

    async def _send(self, action: dict[str, Any]) -> None:
        self._timer = None
        self._pending = True
        self._count += 1
        ident = f"s{self.seat}-{self._count}"
        self.sent[ident] = dict(action)
        with contextlib.suppress(websockets.ConnectionClosed):
            await self.client.act(action, ident)

    async def run(self, until: Callable[[dict[str, Any]], bool], timeout: float) -> None:
        """Play until a frame satisfies ``until`` (or the time runs out: TimeoutError)."""
        end = time.monotonic() + timeout
        for frame in self.client.frames:
            if frame.get("kind") == "state":
                self._latest = frame
        if self._latest is not None:
            self._plan(self._latest)
        while True:
            remaining = end - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("the game did not finish in time")
            frame = await self.client.recv(remaining)
            kind = frame.get("kind")
            if kind == "state":
                self._latest = frame
                self._plan(frame)
            elif kind == "accepted":
                # The state of this step follows the acknowledgement: plan again when it arrives.
                self.accepted.append(frame)
                self._pending = False
                self._wait_step = frame["step"]
            elif kind == "rejected":
                self._pending = False
                if self._latest is not None:
                    self._plan(self._latest)
            if until(frame):
                if self._timer is not None:
                    self._timer.cancel()
                return


async def state_clocks(ws_base: str, code: str, count: int) -> list[int]:
    """The room's clock on each of the next ``count`` states a spectator of room ``code`` receives after the
    first (one a step: the pace and think time of bots are read from them)."""
    watcher = await Client(ws_base, code).connect()
    clocks: list[int] = []
    try:
        state = await watcher.next(lambda m: m.get("kind") == "state", timeout=10)
        step = state["step"]
        while len(clocks) < count:
            after = step
            state = await watcher.next(
                lambda m, after=after: m.get("kind") == "state" and m["step"] > after, timeout=15
            )
            step = state["step"]
            clocks.append(state["clock"])
    finally:
        await watcher.close()
    return clocks


@pytest.fixture
def helpers() -> Any:
    class Helpers:
        Client = Client
        PlayingClient = PlayingClient
        create_room = staticmethod(create_room)
        join_room = staticmethod(join_room)
        kind = staticmethod(kind)
        state_clocks = staticmethod(state_clocks)

    return Helpers


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh schema in the ``test`` database (dropped afterwards), as a URL whose search_path points to it; the
    test skips with a message when PostgreSQL is not reachable."""
    engine = None
    for user in ("postgres", "root"):
        candidate = sa.create_engine(
            f"postgresql+psycopg://{user}@127.0.0.1:5432/test", connect_args={"connect_timeout": 3}
        )
        try:
            with candidate.connect():
                engine = candidate
                break
        except sa.exc.OperationalError:
            candidate.dispose()
    if engine is None:
        pytest.skip("PostgreSQL is not reachable on 127.0.0.1:5432 (database 'test', users postgres/root)")
    schema = f"mt_test_{secrets.token_hex(4)}"
    with engine.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield f"{engine.url.render_as_string(hide_password=False)}?options=-csearch_path%3D{schema}"
    finally:
        with engine.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()
