"""Rooms: matches in play, their seats, message streams, clock, bots and timers (one asyncio event loop).

A :class:`Room` owns a :class:`~mindtable.core.match.Match` and everything around it; the
:class:`RoomManager` creates, finds, loads and forgets rooms. Nothing here is game-specific: the server talks
to a game only through the core API (``Match``, ``Game.describe()``, ``Game.make_bot``, ``observe``).

Concurrency: each room has one :class:`asyncio.Lock`; an action is checked and applied by the engine,
appended to the database (awaiting the commit), and only then acknowledged and broadcast, all under that
lock. Streams are written from synchronous code only, so a reconnecting client's catch-up and its
registration for new messages happen without a gap.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import asdict, dataclass
from typing import Any

from starlette.websockets import WebSocket

from mindtable.core import Bot, Game, IllegalAction, InvalidOptions, Match, get_game, new_match, observe
from mindtable.core.events import Event
from mindtable.core.match import replay
from mindtable.server import storage as db
from mindtable.server.protocol import encode
from mindtable.server.storage import Storage, StoredRoom

log = logging.getLogger("mindtable.server")

#: Room-code alphabet: no 0/O, 1/I/L look-alikes.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: A stream keeps at most this many messages for clients that reconnect...
STREAM_KEEP = 1024
#: ...and, while the seat is connected, only the messages of the last minute.
STREAM_KEEP_S = 60.0
#: A connection whose outgoing queue grows past this is too slow: it is closed (it may reconnect and resume).
MAX_QUEUE = 2000
#: Commits slower than this are logged.
SLOW_COMMIT_S = 0.2


def body(message: dict[str, Any]) -> str:
    """A message's JSON without its opening brace, so that a stream can put its own ``seq`` in front.

    >>> f'{{"seq":3,{body({"kind": "over"})}'
    '{"seq":3,"kind":"over"}'
    """
    return encode(message)[1:]


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class RoomError(Exception):
    """A lobby request that cannot be served: HTTP status, stable code and a message for a person."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


@dataclass
class Settings:
    """Per-room settings (stored as JSON next to the room)."""

    public: bool = True
    turn_timer_s: float | None = None
    grace_s: float = 60.0
    replace_with_bot: bool = True
    replacement_bot: str | None = None


class Connection:
    """One WebSocket: an outgoing queue drained by its own task, and the per-connection rate limit."""

    def __init__(self, websocket: WebSocket, rate_per_s: float) -> None:
        self.websocket = websocket
        self.seat: int | None = None
        self.closed = False
        self._queue: asyncio.Queue[str | int] = asyncio.Queue()
        self._task = asyncio.create_task(self._writer())
        self._rate = rate_per_s
        self._tokens = rate_per_s
        self._stamp = time.monotonic()
        self.refused = 0

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self._queue.qsize() >= MAX_QUEUE:
            log.warning("closing a connection that does not read its messages")
            self.close(1013)
            return
        self._queue.put_nowait(text)

    def send_message(self, message: dict[str, Any]) -> None:
        self.send(encode(message))

    def error(self, code: str, message: str) -> None:
        self.send_message({"kind": "error", "code": code, "message": message})

    def allow(self) -> bool:
        """Token bucket: ``rate_per_s`` messages a second, bursts of the same size."""
        now = time.monotonic()
        self._tokens = min(self._rate, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        self.refused += 1
        return False

    def close(self, code: int = 1000) -> None:
        if self.closed:
            return
        self.closed = True
        self._queue.put_nowait(code)

    async def wait_closed(self, timeout: float = 5.0) -> None:
        with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError, Exception):
            await asyncio.wait_for(asyncio.shield(self._task), timeout)
        if not self._task.done():
            self._task.cancel()

    async def _writer(self) -> None:
        websocket = self.websocket
        queue = self._queue
        try:
            while True:
                item = await queue.get()
                if isinstance(item, int):
                    with contextlib.suppress(Exception):
                        await websocket.close(item)
                    return
                await websocket.send_text(item)
        except Exception:
            self.closed = True


class Stream:
    """The numbered messages of one seat (or of all spectators), kept for clients that reconnect."""

    def __init__(self, keep_when_idle: bool = True) -> None:
        self.id = secrets.token_hex(8)
        self.seq = 0
        self.keep_when_idle = keep_when_idle
        self.buffer: deque[tuple[int, float, str]] = deque()
        self.conns: set[Connection] = set()

    def push(self, message: dict[str, Any]) -> None:
        self.push_body(body(message))

    def push_body(self, encoded: str) -> None:
        """Push a message given as :func:`body` (encoded once, shared by every stream that sends it)."""
        self.seq += 1
        if not self.conns and not self.keep_when_idle:
            self.buffer.clear()  # nobody listens: a spectator who comes later gets a snapshot
            return
        text = f'{{"seq":{self.seq},{encoded}'
        now = time.monotonic()
        buffer = self.buffer
        buffer.append((self.seq, now, text))
        if len(buffer) > STREAM_KEEP:
            buffer.popleft()
        if self.conns:
            limit = now - STREAM_KEEP_S
            while buffer and buffer[0][1] < limit:
                buffer.popleft()
            for conn in self.conns:
                conn.send(text)

    def since(self, stream_id: str | None, last_seq: int) -> list[str] | None:
        """The messages after ``last_seq``, or ``None`` if they are not all kept (the client needs a snapshot)."""
        if stream_id != self.id or last_seq <= 0 or last_seq > self.seq:
            return None
        if last_seq == self.seq:
            return []
        if not self.buffer or self.buffer[0][0] > last_seq + 1:
            return None
        return [text for seq, _, text in self.buffer if seq > last_seq]


class SeatState:
    __slots__ = ("bot", "bot_params", "conns", "grace", "index", "kind", "name", "replaced", "token_hash")

    def __init__(
        self,
        index: int,
        kind: str,
        name: str | None = None,
        bot: str | None = None,
        bot_params: dict[str, Any] | None = None,
        token_hash: str | None = None,
        replaced: bool = False,
    ):
        self.index = index
        self.kind = kind  # "human" | "bot" | "open"
        self.name = name
        self.bot = bot
        self.bot_params = bot_params or {}
        self.token_hash = token_hash
        self.replaced = replaced
        self.conns: set[Connection] = set()
        self.grace: asyncio.TimerHandle | None = None

    def row(self) -> dict[str, Any]:
        return {
            "seat": self.index,
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "bot_params": json.dumps(self.bot_params) if self.bot_params else None,
            "token_hash": self.token_hash,
            "replaced": self.replaced,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.index,
            "name": self.name,
            "kind": self.kind,
            "bot": self.bot,
            "connected": bool(self.conns) or (self.kind == "bot" and not self.replaced),
            "replaced": self.replaced,
        }


class Room:
    def __init__(
        self,
        manager: RoomManager,
        room_id: int,
        code: str,
        game: Game,
        match: Match,
        settings: Settings,
        seats: list[SeatState],
        status: str,
        created_at: float,
        rematch: str | None = None,
    ) -> None:
        self.manager = manager
        self.id = room_id
        self.code = code
        self.game = game
        self.match = match
        self.players = match.players
        self.seed = match.seed
        self.settings = settings
        self.seats = seats
        self.status = status
        self.created_at = created_at
        self.rematch = rematch
        self.steps = 0
        self.streams = {seat: Stream() for seat in range(self.players)}
        self.spectators = Stream(keep_when_idle=False)
        self.lock = asyncio.Lock()
        self.bots: dict[int, Bot] = {}
        self.origin: float | None = None
        self.version = 0
        self.turn_base = 0
        self.over_since: float | None = None
        self._timers: list[asyncio.TimerHandle] = []
        self._describe = game.describe()

    # -- clock ---------------------------------------------------------------------------------------
    def now_ms(self) -> int:
        """Ms since the match began on the server's monotonic clock (never before the last action)."""
        if self.origin is None:
            return self.match.clock
        return max(int((asyncio.get_running_loop().time() - self.origin) * 1000), self.match.clock)

    # -- descriptions --------------------------------------------------------------------------------
    def seat_dicts(self) -> list[dict[str, Any]]:
        return [seat.to_dict() for seat in self.seats]

    def to_dict(self) -> dict[str, Any]:
        result = self.match.result
        return {
            "code": self.code,
            "game": self.game.id,
            "players": self.players,
            "options": self.match.options,
            "public": self.settings.public,
            "status": self.status,
            "seats": self.seat_dicts(),
            "result": result.to_dict() if result is not None else None,
            "turn_timer_s": self.settings.turn_timer_s,
            "grace_s": self.settings.grace_s,
            "replace_with_bot": self.settings.replace_with_bot,
            "replacement_bot": self._replacement_bot_name(),
            "spectators": len(self.spectators.conns),
            "rematch": self.rematch,
        }

    def _presence(self) -> dict[str, Any]:
        return {"kind": "presence", "status": self.status, "seats": self.seat_dicts(), "rematch": self.rematch}

    def _state(self, seat: int | None, deadline: int | None) -> dict[str, Any]:
        playing = self.status == "playing"
        legal = self.match.legal_actions(seat) if playing and seat is not None else []
        turn_deadline = None
        if (
            playing
            and seat is not None
            and legal
            and self.settings.turn_timer_s
            and not self.game.realtime
            and seat not in self.bots
        ):
            turn_deadline = self.turn_base + int(self.settings.turn_timer_s * 1000)
        return {
            "kind": "state",
            "step": self.steps,
            "status": self.status,
            "view": self.match.view(seat),
            "legal": legal,
            "clock": self.now_ms() if playing else self.match.clock,
            "deadline": deadline,
            "turn_deadline": turn_deadline,
        }

    def _deadline(self) -> int | None:
        if self.status != "playing":
            return None
        deadline = self.match.next_deadline()
        return deadline.at if deadline is not None else None

    def _all_streams(self) -> list[tuple[int | None, Stream]]:
        return [*self.streams.items(), (None, self.spectators)]

    def _push_all(self, message: dict[str, Any]) -> None:
        encoded = body(message)
        for _, stream in self._all_streams():
            stream.push_body(encoded)

    def broadcast_presence(self) -> None:
        self._push_all(self._presence())

    def _broadcast_state(self) -> None:
        deadline = self._deadline()
        for seat, stream in self._all_streams():
            if seat is None and not stream.conns:
                stream.push_body("")  # skipped: nobody watches
                continue
            stream.push(self._state(seat, deadline))

    def _broadcast_step(self, events: list[Event]) -> None:
        deadline = self._deadline()
        # Most events are public: seats that see the same events share one encoding of the message.
        public = all(event.to is None for event in events)
        shared = body({"kind": "events", "step": self.steps, "events": [e.to_dict() for e in events]})
        for seat, stream in self._all_streams():
            if seat is None and not stream.conns:
                stream.push_body("")  # skipped: nobody watches
                continue
            if public:
                if events:
                    stream.push_body(shared)
            else:
                visible = [event.to_dict() for event in events if event.visible_to(seat)]
                if visible:
                    stream.push({"kind": "events", "step": self.steps, "events": visible})
            stream.push(self._state(seat, deadline))

    # -- connections ---------------------------------------------------------------------------------
    async def attach(self, conn: Connection, seat: int | None, last_seq: int, stream_id: str | None) -> None:
        """Welcome a client after its hello: the messages it missed, or a snapshot of the room now."""
        async with self.lock:
            if seat is not None:
                state = self.seats[seat]
                if state.grace is not None:
                    state.grace.cancel()
                    state.grace = None
                if state.replaced and self.status == "playing":
                    await self._reclaim(seat)
            stream = self.spectators if seat is None else self.streams[seat]
            missed = stream.since(stream_id, last_seq)
            conn.send_message(
                {
                    "kind": "welcome",
                    "seq": stream.seq,
                    "stream": stream.id,
                    "resumed": missed is not None,
                    "seat": seat,
                    "room": self.to_dict(),
                    "game": self._describe,
                }
            )
            if missed is not None:
                for text in missed:
                    conn.send(text)
            else:
                snapshot = [self._presence(), self._state(seat, self._deadline())]
                result = self.match.result
                if self.status == "over" and result is not None:
                    snapshot.append({"kind": "over", "result": result.to_dict()})
                for message in snapshot:
                    conn.send_message({"seq": stream.seq, **message})
            stream.conns.add(conn)
            if seat is not None:
                first = not self.seats[seat].conns
                self.seats[seat].conns.add(conn)
                if first:
                    self.broadcast_presence()

    def detach(self, conn: Connection) -> None:
        seat = conn.seat
        stream = self.spectators if seat is None else self.streams[seat]
        stream.conns.discard(conn)
        if seat is None:
            return
        state = self.seats[seat]
        if conn not in state.conns:
            return
        state.conns.discard(conn)
        if state.conns:
            return
        self.broadcast_presence()
        self._start_grace(seat)

    def _start_grace(self, seat: int) -> None:
        state = self.seats[seat]
        if state.kind != "human" or state.conns or self.status != "playing" or not self.settings.replace_with_bot:
            return
        if state.grace is not None:
            state.grace.cancel()
        loop = asyncio.get_running_loop()
        state.grace = loop.call_later(self.settings.grace_s, lambda: self._spawn(self._grace_over(seat)))

    async def _grace_over(self, seat: int) -> None:
        async with self.lock:
            state = self.seats[seat]
            state.grace = None
            if state.kind == "human" and not state.conns and self.status == "playing":
                await self._replace(seat)

    async def _replace(self, seat: int) -> None:
        """Hand ``seat`` to the room's replacement bot (the player keeps their token to reclaim it)."""
        name = self._replacement_bot_name()
        if name is None:
            return
        try:
            bot = self.game.make_bot(name, seat=seat, seed=self.seed)
        except Exception:
            log.exception("room %s: cannot build replacement bot %r", self.code, name)
            return
        await self.manager.storage.run(lambda c: db.update_seat(c, self.id, seat, kind="bot", bot=name, replaced=True))
        state = self.seats[seat]
        state.kind, state.bot, state.replaced = "bot", name, True
        self.bots[seat] = bot
        self.version += 1
        self.broadcast_presence()
        self._schedule()

    async def _reclaim(self, seat: int) -> None:
        await self.manager.storage.run(
            lambda c: db.update_seat(c, self.id, seat, kind="human", bot=None, replaced=False)
        )
        state = self.seats[seat]
        state.kind, state.bot, state.replaced = "human", None, False
        self.bots.pop(seat, None)
        self.version += 1
        self.broadcast_presence()
        self._schedule()

    def _replacement_bot_name(self) -> str | None:
        if self.settings.replacement_bot:
            return self.settings.replacement_bot
        return next(iter(self.game.bots), None)

    # -- lobby ---------------------------------------------------------------------------------------
    async def maybe_start(self) -> None:
        """Start the match once every seat is taken (call under the lock)."""
        if self.status != "waiting" or any(seat.kind == "open" for seat in self.seats):
            return
        await self.manager.storage.run(lambda c: db.update_room(c, self.id, status="playing"))
        self.status = "playing"
        self.origin = asyncio.get_running_loop().time() - self.match.clock / 1000
        self.turn_base = self.match.clock
        self.version += 1
        self.broadcast_presence()
        self._broadcast_state()
        for seat in range(self.players):
            self._start_grace(seat)
        self._schedule()

    def build_bot(self, seat: int) -> None:
        state = self.seats[seat]
        if state.kind == "bot" and state.bot:
            self.bots[seat] = self.game.make_bot(state.bot, seat=seat, seed=self.seed, **state.bot_params)

    # -- playing -------------------------------------------------------------------------------------
    async def act(
        self,
        seat: int | None,
        payload: dict[str, Any],
        *,
        conn: Connection | None = None,
        client_id: Any = None,
        version: int | None = None,
    ) -> None:
        """Check, apply, persist, acknowledge and broadcast one action (from a client, a bot or a timer)."""
        async with self.lock:
            if version is not None and version != self.version:
                return  # a plan made before something else happened
            if self.status != "playing":
                what = "has not started yet: seats are still open" if self.status == "waiting" else "is over"
                self._reject(conn, client_id, "not_playing", f"the match {what}")
                return
            action = dict(payload)
            # Server-side plans (bots, deadlines) may not act before the time they asked for.
            floor = action.pop("at", 0) if version is not None else 0
            if not isinstance(floor, int) or isinstance(floor, bool):
                floor = 0
            if seat is None:
                action.pop("seat", None)
            else:
                action["seat"] = seat
            action["at"] = max(self.now_ms(), self.match.clock, floor)
            try:
                events = self.match.apply(action)
            except IllegalAction as exc:
                self._reject(conn, client_id, exc.code, exc.message, exc.params)
                if conn is None:
                    log.warning("room %s: server-side action %s refused: %s", self.code, action, exc)
                return
            except Exception as exc:
                log.exception("room %s: the rules engine failed on %s", self.code, action)
                self._rebuild(self.steps)
                self._reject(conn, client_id, "engine_error", f"the rules engine failed on this action: {exc!r}")
                return
            started = time.perf_counter()
            try:
                # What the engine normalised (declared fields only) is what is stored, recorded and broadcast.
                action = self.match.last_action or action
                await self.manager.storage.append(self.id, self.steps, action)
            except Exception:
                self._rebuild(self.steps)
                self._reject(conn, client_id, "storage_error", "the action could not be saved; it was not played")
                return
            waited = time.perf_counter() - started
            if waited > SLOW_COMMIT_S:
                log.warning("room %s: saving an action took %.0f ms", self.code, waited * 1000)
            self.steps += 1
            self.version += 1
            self.turn_base = action["at"]
            if conn is not None:
                conn.send_message({"kind": "accepted", "id": client_id, "step": self.steps})
            self._broadcast_step(events)
            result = self.match.result
            if result is not None:
                await self._finish()
            self._schedule()

    def _reject(
        self, conn: Connection | None, client_id: Any, code: str, message: str, params: dict[str, Any] | None = None
    ) -> None:
        if conn is not None:
            reply = {"kind": "rejected", "id": client_id, "code": code, "params": params or {}, "message": message}
            conn.send_message(reply)

    def _rebuild(self, steps: int) -> None:
        record = self.match.record()
        record["actions"] = record["actions"][:steps]
        record.pop("result", None)
        self.match = replay(record)

    async def _finish(self) -> None:
        result = self.match.result
        assert result is not None
        data = json.dumps(result.to_dict())
        await self.manager.storage.run(lambda c: db.update_room(c, self.id, status="over", result=data))
        self.status = "over"
        self.over_since = time.monotonic()
        self._cancel_timers()
        for state in self.seats:
            if state.grace is not None:
                state.grace.cancel()
                state.grace = None
        self._push_all({"kind": "over", "result": result.to_dict()})
        self.broadcast_presence()

    # -- timers: deadlines, bots, turn timers ------------------------------------------------------------
    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coroutine)
        self.manager.tasks.add(task)
        task.add_done_callback(self.manager.task_done)

    def _cancel_timers(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()

    def _later(self, delay_ms: int, factory: Callable[[], Coroutine[Any, Any, None]]) -> None:
        loop = asyncio.get_running_loop()
        self._timers.append(loop.call_later(max(delay_ms, 0) / 1000, lambda: self._spawn(factory())))

    def _schedule(self) -> None:
        """Plan what happens next without anyone acting: the game's deadline, bots' wishes, turn timers."""
        self._cancel_timers()
        if self.status != "playing":
            return
        now = self.now_ms()
        version = self.version
        deadline = self.match.next_deadline()
        if deadline is not None:
            due = deadline.due_action()
            self._later(deadline.at - now, lambda: self.act(None, due, version=version))
        for seat, bot in self.bots.items():
            try:
                decision = bot.decide(observe(self.match, seat, now))
            except Exception:
                log.exception("room %s: bot at seat %d failed", self.code, seat)
                continue
            if decision is None:
                continue
            at = now if decision.at is None else max(decision.at, now)
            wish = {**decision.action, "at": at}
            self._later(at - now, lambda seat=seat, wish=wish: self.act(seat, wish, version=version))  # type: ignore[misc]
        timer_s = self.settings.turn_timer_s
        if timer_s and not self.game.realtime:
            due_at = self.turn_base + int(timer_s * 1000)
            for seat in range(self.players):
                if seat not in self.bots and self.match.legal_actions(seat):
                    self._later(due_at - now, lambda seat=seat: self._turn_timeout(seat, version))  # type: ignore[misc]

    async def _turn_timeout(self, seat: int, version: int) -> None:
        """The seat's turn timer ran out: the room's replacement bot chooses one action for it."""
        name = self._replacement_bot_name()
        if name is None or version != self.version:
            return
        try:
            bot = self.game.make_bot(name, seat=seat, seed=self.seed + self.steps)
            decision = bot.decide(observe(self.match, seat, self.now_ms()))
        except Exception:
            log.exception("room %s: timeout bot failed for seat %d", self.code, seat)
            return
        if decision is not None:
            await self.act(seat, {**decision.action, "at": 0}, version=version)

    def shutdown(self) -> None:
        self._cancel_timers()
        for state in self.seats:
            if state.grace is not None:
                state.grace.cancel()
            for conn in list(state.conns):
                conn.close(1001)
        for conn in list(self.spectators.conns):
            conn.close(1001)


class RoomManager:
    """Every room of this server, by code, and the seat tokens that open them."""

    def __init__(self, storage: Storage, *, max_rooms: int = 5000, rate_per_s: float = 20.0) -> None:
        self.storage = storage
        self.rooms: dict[str, Room] = {}
        self.tokens: dict[str, tuple[str, int]] = {}
        self.tasks: set[asyncio.Future[Any]] = set()
        self.max_rooms = max_rooms
        self.rate_per_s = rate_per_s
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._lag: asyncio.Task[None] | None = None

    # -- life cycle ----------------------------------------------------------------------------------
    async def load(self) -> None:
        """Rebuild every unfinished room from its record (at start-up)."""
        stored = await self.storage.run(db.load_unfinished)
        for item in stored:
            try:
                room = await self._restore(item)
            except Exception:
                log.exception("room %s cannot be rebuilt from its record; it stays closed", item.row["code"])
                continue
            self.rooms[room.code] = room
        log.info("loaded %d unfinished rooms", len(self.rooms))
        self._sweeper = asyncio.create_task(self._sweep())
        self._lag = asyncio.create_task(self._watch_lag())

    async def _watch_lag(self) -> None:
        """Log when the event loop was blocked (every room waits while it is)."""
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(0.1)
            late = loop.time() - before - 0.1
            if late > 0.2:
                log.warning("the event loop was blocked for %.0f ms", late * 1000)

    def task_done(self, task: asyncio.Future[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a room task failed", exc_info=task.exception())

    async def _restore(self, item: StoredRoom) -> Room:
        row = item.row
        game = get_game(row["game"])
        match = new_match(game.id, row["players"], row["seed"], json.loads(row["options"]))
        for index, action in enumerate(item.actions):
            try:
                match.apply(action)
            except IllegalAction as exc:
                raise RuntimeError(f"action {index} {action} does not replay: {exc}") from None
        settings = Settings(**json.loads(row["settings"]))
        seats = [
            SeatState(
                s["seat"],
                s["kind"],
                s["name"],
                s["bot"],
                json.loads(s["bot_params"]) if s["bot_params"] else None,
                s["token_hash"],
                bool(s["replaced"]),
            )
            for s in item.seats
        ]
        room = Room(
            self, row["id"], row["code"], game, match, settings, seats, row["status"], row["created_at"], row["rematch"]
        )
        room.steps = len(item.actions)
        for state in seats:
            if state.token_hash:
                self.tokens[state.token_hash] = (room.code, state.index)
            room.build_bot(state.index)
        if room.status == "playing":
            # The clock resumes where the last action left it: time while the server was down does not count.
            room.origin = asyncio.get_running_loop().time() - match.clock / 1000
            room.turn_base = match.clock
            if match.result is not None:  # killed between the last action and marking the room over
                await room._finish()
            else:
                for index in range(room.players):
                    room._start_grace(index)
                room._schedule()
        elif room.status == "over":
            room.over_since = time.monotonic()
        return room

    async def shutdown(self) -> None:
        for watcher in (self._sweeper, self._lag):
            if watcher is not None:
                watcher.cancel()
        for room in self.rooms.values():
            room.shutdown()
        for task in list(self.tasks):
            task.cancel()

    async def _sweep(self) -> None:
        """Free finished rooms: their kept messages after a minute, the rooms themselves after 10 minutes
        without viewers (they stay in the database and are loaded again on demand)."""
        while True:
            await asyncio.sleep(30)
            now = time.monotonic()
            for code, room in list(self.rooms.items()):
                if room.over_since is None or now - room.over_since < 60:
                    continue
                for _, stream in room._all_streams():
                    if not stream.conns:
                        stream.buffer.clear()  # a late reconnection gets a snapshot (with the result)
                if (
                    now - room.over_since > 600
                    and not room.spectators.conns
                    and not any(seat.conns for seat in room.seats)
                ):
                    self.forget(code)

    def forget(self, code: str) -> None:
        room = self.rooms.pop(code, None)
        if room is None:
            return
        room.shutdown()
        for seat in room.seats:
            if seat.token_hash:
                self.tokens.pop(seat.token_hash, None)

    # -- finding ---------------------------------------------------------------------------------------
    async def get(self, code: str) -> Room | None:
        code = code.strip().upper()
        room = self.rooms.get(code)
        if room is not None:
            return room
        if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
            return None
        pending = self._loading.get(code)
        if pending is not None:
            return await pending
        future: asyncio.Future[Room | None] = asyncio.get_running_loop().create_future()
        self._loading[code] = future
        try:
            stored = await self.storage.run(lambda c: db.load_by_code(c, code))
            room = await self._restore(stored) if stored is not None else None
            if room is not None:
                self.rooms[code] = room
            future.set_result(room)
            return room
        except Exception as exc:
            log.exception("room %s cannot be loaded", code)
            future.set_exception(exc)
            raise
        finally:
            del self._loading[code]

    async def require(self, code: str) -> Room:
        room = await self.get(code)
        if room is None:
            raise RoomError(404, "unknown_room", f"there is no room {code.strip().upper()!r}; check the code")
        return room

    def seat_for_token(self, room: Room, token: str | None) -> int | None:
        if not token:
            return None
        found = self.tokens.get(hash_token(token))
        if found is None or found[0] != room.code:
            return None
        return found[1]

    async def authorize(self, code: str, token: str | None) -> tuple[Room, int]:
        room = await self.require(code)
        seat = self.seat_for_token(room, token)
        if seat is None:
            raise RoomError(
                401, "bad_token", "this needs the seat token of this room (header Authorization: Bearer <token>)"
            )
        return room, seat

    def public_rooms(self) -> list[dict[str, Any]]:
        return [room.to_dict() for room in self.rooms.values() if room.settings.public and room.status != "over"]

    # -- lobby ---------------------------------------------------------------------------------------
    async def create(
        self,
        *,
        game_id: str,
        players: int,
        options: dict[str, Any],
        bots: dict[str, str],
        bot_params: dict[str, dict[str, Any]],
        name: str,
        seat: int | None,
        settings: Settings,
    ) -> tuple[Room, int | None, str | None]:
        active = sum(1 for room in self.rooms.values() if room.status != "over")
        if active >= self.max_rooms:
            raise RoomError(503, "too_many_rooms", f"this server already runs {active} rooms; try again later")
        try:
            game = get_game(game_id)
        except Exception as exc:
            raise RoomError(404, "unknown_game", str(exc)) from None
        seed = secrets.randbelow(2**62)
        try:
            match = new_match(game.id, players, seed, options)
        except InvalidOptions as exc:
            raise RoomError(422, "bad_options", str(exc)) from None
        seat_bots: dict[int, tuple[str, dict[str, Any]]] = {}
        for key, bot_name in bots.items():
            index = _seat_index(key, players, "bots")
            params = bot_params.get(key, {})
            try:
                game.make_bot(bot_name, seat=index, seed=seed, **params)
            except (InvalidOptions, ValueError, TypeError) as exc:
                raise RoomError(422, "bad_bot", f"bots[{key!r}]: {exc}") from None
            seat_bots[index] = (bot_name, params)
        for key in bot_params:
            if _seat_index(key, players, "bot_params") not in seat_bots:
                raise RoomError(422, "bad_bot", f"bot_params[{key!r}]: seat {key} has no bot")
        replacement = settings.replacement_bot
        if replacement is not None and replacement not in game.bots:
            raise RoomError(
                422,
                "bad_bot",
                f"replacement_bot {replacement!r} is not a bot of {game.id}; available: {', '.join(sorted(game.bots))}",
            )
        humans = [index for index in range(players) if index not in seat_bots]
        if seat is not None and seat not in humans:
            raise RoomError(409, "seat_taken", f"seat {seat} is not a free human seat; free seats: {humans}")
        creator = seat if seat is not None else (humans[0] if humans else None)
        token = secrets.token_urlsafe(32) if creator is not None else None
        seats = []
        for index in range(players):
            if index in seat_bots:
                seats.append(SeatState(index, "bot", None, seat_bots[index][0], seat_bots[index][1]))
            elif index == creator:
                assert token is not None
                seats.append(SeatState(index, "human", name, token_hash=hash_token(token)))
            else:
                seats.append(SeatState(index, "open"))
        created_at = time.time()
        row = {
            "game": game.id,
            "players": players,
            "options": json.dumps(match.options),
            "seed": seed,
            "settings": json.dumps(asdict(settings)),
            "status": "waiting",
            "result": None,
            "rematch": None,
            "created_at": created_at,
        }

        def insert(connection: Any) -> tuple[int, str]:
            for _ in range(50):
                code = new_code()
                if code not in self.rooms and not db.code_exists(connection, code):
                    return db.insert_room(connection, {**row, "code": code}, [s.row() for s in seats]), code
            raise RuntimeError("could not draw a free room code")

        room_id, code = await self.storage.run(insert)
        room = Room(self, room_id, code, game, match, settings, seats, "waiting", created_at)
        for index in seat_bots:
            room.build_bot(index)
        self.rooms[code] = room
        if token is not None and creator is not None:
            self.tokens[hash_token(token)] = (code, creator)
        async with room.lock:
            await room.maybe_start()
        return room, creator, token

    async def join(self, code: str, name: str, seat: int | None) -> tuple[Room, int, str]:
        room = await self.require(code)
        async with room.lock:
            if room.status == "over":
                raise RoomError(409, "room_over", "this match is over; ask for a rematch or create a room")
            free = [s.index for s in room.seats if s.kind == "open"]
            if seat is not None:
                if not 0 <= seat < room.players:
                    raise RoomError(422, "bad_seat", f"seat must be from 0 to {room.players - 1}, got {seat}")
                if seat not in free:
                    raise RoomError(409, "seat_taken", f"seat {seat} is taken; free seats: {free}")
                chosen = seat
            elif free:
                chosen = free[0]
            else:
                raise RoomError(409, "room_full", "every seat of this room is taken; you can watch as a spectator")
            token = secrets.token_urlsafe(32)
            digest = hash_token(token)
            await self.storage.run(
                lambda c: db.update_seat(
                    c, room.id, chosen, kind="human", name=name, bot=None, token_hash=digest, replaced=False
                )
            )
            state = room.seats[chosen]
            state.kind, state.name, state.token_hash, state.replaced, state.bot = "human", name, digest, False, None
            self.tokens[digest] = (room.code, chosen)
            room.version += 1
            room.broadcast_presence()
            await room.maybe_start()
            if room.status == "playing":
                room._start_grace(chosen)
                room._schedule()
        return room, chosen, token

    async def leave(self, code: str, token: str | None) -> Room:
        room, seat = await self.authorize(code, token)
        async with room.lock:
            state = room.seats[seat]
            if room.status == "over":
                return room
            conns = list(state.conns)
            if room.status == "playing" and room.settings.replace_with_bot:
                if state.kind == "human":
                    await room._replace(seat)  # the token still reclaims the seat
            else:
                old = state.token_hash
                await self.storage.run(
                    lambda c: db.update_seat(
                        c, room.id, seat, kind="open", name=None, token_hash=None, replaced=False, bot=None
                    )
                )
                state.kind, state.name, state.token_hash, state.replaced, state.bot = "open", None, None, False, None
                room.bots.pop(seat, None)
                if old:
                    self.tokens.pop(old, None)
                room.version += 1
                room.broadcast_presence()
                room._schedule()
            for conn in conns:
                state.conns.discard(conn)
                room.streams[seat].conns.discard(conn)
                conn.close(4000)
            room.broadcast_presence()
        return room

    async def rematch(self, code: str, token: str | None) -> tuple[Room, int | None, str | None]:
        room, seat = await self.authorize(code, token)
        if room.status != "over":
            raise RoomError(409, "not_over", "a rematch can be asked for once the match is over")
        name = room.seats[seat].name or f"Player {seat + 1}"
        async with room.lock:
            if room.rematch is None:
                bots = {str(s.index): s.bot for s in room.seats if s.kind == "bot" and not s.replaced and s.bot}
                params = {
                    str(s.index): s.bot_params
                    for s in room.seats
                    if s.kind == "bot" and not s.replaced and s.bot_params
                }
                new_room, new_seat, new_token = await self.create(
                    game_id=room.game.id,
                    players=room.players,
                    options=dict(room.match.options),
                    bots=bots,
                    bot_params=params,
                    name=name,
                    seat=seat if str(seat) not in bots else None,
                    settings=Settings(**asdict(room.settings)),
                )
                await self.storage.run(lambda c: db.update_room(c, room.id, rematch=new_room.code))
                room.rematch = new_room.code
                room.broadcast_presence()
                return new_room, new_seat, new_token
        try:
            new_room, new_seat, new_token = await self.join(room.rematch, name, seat)
        except RoomError:
            try:
                new_room, new_seat, new_token = await self.join(room.rematch, name, None)
            except RoomError:
                return await self.require(room.rematch), None, None
        return new_room, new_seat, new_token


def _seat_index(key: str, players: int, where: str) -> int:
    try:
        index = int(key)
    except ValueError:
        raise RoomError(
            422, "bad_seat", f"{where}: seat keys are numbers from 0 to {players - 1}, got {key!r}"
        ) from None
    if not 0 <= index < players:
        raise RoomError(422, "bad_seat", f"{where}: seat {index} does not exist; seats are 0 to {players - 1}")
    return index
