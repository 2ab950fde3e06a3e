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
import marshal
import secrets
import tempfile
import time
from collections import deque
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from starlette.websockets import WebSocket

from mindtable.core import Bot, Game, IllegalAction, InvalidOptions, Match, get_game, new_match, observe
from mindtable.core.bot_params import room_defaults, validate_bot_params
from mindtable.core.codes import label_params, seat_params
from mindtable.core.errors import ReplayMismatch
from mindtable.core.events import Event
from mindtable.core.match import pinned_part, record_notices, replay, start_of
from mindtable.kit import names
from mindtable.server import storage as db
from mindtable.server.content import HOST, UPLOAD, HostContent, materialize
from mindtable.server.limits import AddressBook, Bucket, Limits, network_of
from mindtable.server.protocol import encode, json_safe, safe_text, show
from mindtable.server.storage import Storage, StoredRoom

log = logging.getLogger("mindtable.server")

#: Room-code alphabet: no 0/O, 1/I/L look-alikes.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: A stream keeps at most this many messages for clients that reconnect...
STREAM_KEEP = 1024
#: ...and, while the seat is connected, only the messages of the last minute...
STREAM_KEEP_S = 60.0
#: ...and while it is not, of the last five (its player may come back within the grace period and more).
STREAM_KEEP_IDLE_S = 300.0
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
    """A lobby request that cannot be served: HTTP status, stable code, a message for a person and the code's
    parameters (what a page needs to say it in its own words)."""

    def __init__(self, status: int, code: str, message: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.params = params or {}


@dataclass
class Settings:
    """Per-room settings (stored as JSON next to the room)."""

    public: bool = True
    turn_timer_s: float | None = None
    grace_s: float = 60.0
    replace_with_bot: bool = True
    replacement_bot: str | None = None


def _transport_of(websocket: WebSocket) -> Any:
    """The asyncio transport under a uvicorn WebSocket, if it can be found (to drop a stuck connection)."""
    send = websocket.scope.get("mindtable.raw_send")
    protocol = getattr(send, "__self__", None)
    return getattr(protocol, "transport", None)


class Connection:
    """One WebSocket: an outgoing queue drained by its own task, and the per-connection rate limit.

    The queue is bounded in messages and in bytes, and every write has a timeout: a client that does not
    read is dropped (its TCP connection aborted at once, code 1013 when it can still be sent), so it never
    holds more than ``ws_queue_bytes`` of the server's memory.
    """

    def __init__(
        self,
        websocket: WebSocket,
        limits: Limits | float | None = None,
        address: str = "unknown",
        book: AddressBook | None = None,
    ) -> None:
        if not isinstance(limits, Limits):
            limits = Limits() if limits is None else Limits(ws_rate_per_s=float(limits))
        self.websocket = websocket
        self.limits = limits
        self.address = address
        self.book = book
        self.seat: int | None = None
        self.closed = False
        self.dropped = False
        self.on_drop: Callable[[], None] | None = None
        self._queue: asyncio.Queue[str | int] = asyncio.Queue()
        self._bytes = 0
        self._task = asyncio.create_task(self._writer())
        self._rate = limits.ws_rate_per_s
        self._bucket = Bucket(limits.ws_rate_per_s, limits.ws_rate_per_s)
        self.refused = 0

    def send(self, text: str) -> None:
        if self.closed:
            return
        size = len(text)
        if self._queue.qsize() >= self.limits.ws_queue_messages or self._bytes + size > self.limits.ws_queue_bytes:
            log.warning("dropping a connection from %s that does not read its messages", self.address)
            self.drop()
            return
        self._bytes += size
        self._queue.put_nowait(text)

    def send_message(self, message: dict[str, Any]) -> None:
        self.send(encode(message))

    def error(self, code: str, message: str) -> None:
        self.send_message({"kind": "error", "code": code, "message": message})

    def allow(self) -> bool:
        """Token buckets: this connection's (``ws_rate_per_s``) and its address's (all its connections)."""
        if not self._bucket.take():
            self.refused += 1
            return False
        if self.book is not None and not self.book.take("message", self.address):
            self.refused += 1
            return False
        return True

    def close(self, code: int = 1000) -> None:
        if self.closed:
            return
        self.closed = True
        self._queue.put_nowait(code)

    def drop(self, code: int = 1013) -> None:
        """Stop at once: forget queued messages, abort the TCP connection, tell the room."""
        if self.dropped:
            return
        self.dropped = True
        self.closed = True
        while not self._queue.empty():
            self._queue.get_nowait()
        self._bytes = 0
        loop = asyncio.get_running_loop()
        loop.call_soon(self._abort, code)
        if self.on_drop is not None:
            loop.call_soon(self.on_drop)

    def _abort(self, code: int) -> None:
        if not self._task.done():
            self._task.cancel()
        transport = _transport_of(self.websocket)
        if transport is not None:
            with contextlib.suppress(Exception):
                transport.abort()
        else:  # not under uvicorn: ask politely (cannot block: the writer task is gone)
            self._task = asyncio.create_task(self._close_only(code))

    async def _close_only(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.websocket.close(code), self.limits.ws_send_timeout_s)

    async def wait_closed(self, timeout: float = 5.0) -> None:
        with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError, Exception):
            await asyncio.wait_for(asyncio.shield(self._task), timeout)
        if not self._task.done():
            self._task.cancel()

    async def _writer(self) -> None:
        websocket = self.websocket
        queue = self._queue
        timeout = self.limits.ws_send_timeout_s
        try:
            while True:
                item = await queue.get()
                if isinstance(item, int):
                    try:
                        await asyncio.wait_for(websocket.close(item), timeout)
                    except TimeoutError:
                        self.drop(item)
                    except Exception:
                        pass
                    return
                self._bytes -= len(item)
                try:
                    await asyncio.wait_for(websocket.send_text(item), timeout)
                except TimeoutError:
                    log.warning("dropping a connection from %s: a write took over %g s", self.address, timeout)
                    self.drop()
                    return
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if not isinstance(exc, (OSError, RuntimeError)) and type(exc).__name__ != "ClientDisconnected":
                log.warning("a connection from %s failed to send: %r", self.address, exc)
            self.closed = True


class ResumeBudget:
    """The bytes every stream of the server keeps for reconnecting clients, together (``resume_total_bytes``),
    and what one room's streams may keep (``resume_room_bytes``): memory stays bounded however many messages
    pass. A client whose missed messages were let go gets a snapshot instead."""

    def __init__(self, total: int, per_room: int) -> None:
        self.limit = total
        self.per_room = per_room
        self.used = 0


class Stream:
    """The numbered messages of one seat (or of all spectators), kept for clients that reconnect."""

    def __init__(
        self, keep_when_idle: bool = True, budget: ResumeBudget | None = None, room: list[int] | None = None
    ) -> None:
        self.id = secrets.token_hex(8)
        self.seq = 0
        self.keep_when_idle = keep_when_idle
        self.buffer: deque[tuple[int, float, str]] = deque()
        self.conns: set[Connection] = set()
        self.budget = budget
        #: the bytes this room's streams keep (one list shared by them: ``[bytes]``)
        self.room = room if room is not None else [0]

    def _drop_oldest(self) -> None:
        size = len(self.buffer.popleft()[2])
        self.room[0] -= size
        if self.budget is not None:
            self.budget.used -= size

    def clear(self) -> None:
        while self.buffer:
            self._drop_oldest()

    def push(self, message: dict[str, Any]) -> None:
        self.push_body(body(message))

    def push_body(self, encoded: str) -> None:
        """Push a message given as :func:`body` (encoded once, shared by every stream that sends it)."""
        self.seq += 1
        if not self.conns and not self.keep_when_idle:
            self.clear()  # nobody listens: a spectator who comes later gets a snapshot
            return
        text = f'{{"seq":{self.seq},{encoded}'
        now = time.monotonic()
        buffer = self.buffer
        buffer.append((self.seq, now, text))
        size = len(text)
        self.room[0] += size
        budget = self.budget
        if budget is not None:
            budget.used += size
        if len(buffer) > STREAM_KEEP:
            self._drop_oldest()
        limit = now - (STREAM_KEEP_S if self.conns else STREAM_KEEP_IDLE_S)
        while buffer and buffer[0][1] < limit:
            self._drop_oldest()
        if budget is not None:
            while len(buffer) > 1 and (self.room[0] > budget.per_room or budget.used > budget.limit):
                self._drop_oldest()
        for conn in tuple(self.conns):
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

    def display_name(self) -> str | None:
        """The name the table shows: a person's name, or for a bot (also one playing a replaced seat) "Ada (bot)"."""
        if self.kind == "bot":
            return names.bot_name(self.index)
        return self.name

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.index,
            "name": self.display_name(),
            "player": self.name if self.replaced else None,
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
        creator: str | None = None,
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
        budget = manager.resume_budget
        kept = [0]  # the bytes this room's streams keep, together
        self.streams = {seat: Stream(budget=budget, room=kept) for seat in range(self.players)}
        self.spectators = Stream(keep_when_idle=False, budget=budget, room=kept)
        self.lock = asyncio.Lock()
        self.bots: dict[int, Bot] = {}
        self.origin: float | None = None
        #: A room only bots play stands still while nobody watches it (after ``bot_room_grace_s``): the match
        #: clock it stopped at, and since when (event-loop time) nobody has been connected.
        self.paused_clock: int | None = None
        self.unwatched_since: float | None = None
        self.version = 0
        self.turn_base = 0
        self.over_since: float | None = None
        self._timers: list[asyncio.TimerHandle] = []
        self._describe = game.describe()
        #: Hashed address of whoever created the room (for the per-address room limit).
        self.creator = creator
        #: The hash of the creator's network (/24, /64), counted against ``rooms_per_network``.
        self.creator_network: str | None = None
        #: Whether anyone took a seat after the creator or connected to a seat (an untouched waiting room
        #: expires after ``unjoined_room_ttl_s``: a flood of rooms nobody uses does not lock others out).
        self.touched = False
        #: Wall-clock time of the last lobby activity (waiting rooms expire without it).
        self.last_active = time.time()
        #: Rematch rooms: seat -> (token hash of that seat in the previous match, held until).
        self.reserved: dict[int, tuple[str | None, float]] = {}
        #: "ok", or "mismatch"/"broken" when the stored record does not replay (the room then refuses actions).
        self.integrity = "ok"
        self.integrity_message: str | None = None
        #: What differs between the rules/content the room was made with and the installed ones (codes).
        self.notices: list[dict[str, Any]] = []
        self.stored_result: dict[str, Any] | None = None
        #: Progress accounting: fingerprints of the positions reached, and per seat the actions in a row
        #: that only led back to a position seen before.
        self.positions: set[int] = set()
        #: state key -> (its marshal bytes, its digest) the last time (see _fingerprint)
        self._digests: dict[str, tuple[bytes, int]] = {}
        self.no_progress = [0] * self.players

    # -- clock ---------------------------------------------------------------------------------------
    def now_ms(self) -> int:
        """Ms since the match began on the server's monotonic clock (never before the last action)."""
        if self.origin is None:
            return self.match.clock
        return max(int((asyncio.get_running_loop().time() - self.origin) * 1000), self.match.clock)

    # -- descriptions --------------------------------------------------------------------------------
    def seat_dicts(self) -> list[dict[str, Any]]:
        seats = [seat.to_dict() for seat in self.seats]
        if self.reserved:
            now = time.time()
            for seat in seats:
                hold = self.reserved.get(seat["seat"])
                seat["reserved"] = hold is not None and hold[1] > now and seat["kind"] == "open"
        else:
            for seat in seats:
                seat["reserved"] = False
        return seats

    def reserved_for(self, seat: int, claim: str | None) -> bool:
        """Whether ``seat`` is held for another player (of the previous match) than the holder of ``claim``."""
        hold = self.reserved.get(seat)
        if hold is None or hold[1] <= time.time():
            return False
        return hold[0] != claim

    def bot_finished(self) -> list[int]:
        """The human seats a replacement bot was playing when the match ended (their player had left)."""
        return [seat.index for seat in self.seats if seat.replaced]

    def shown_result(self) -> dict[str, Any] | None:
        """The result as rooms report it: the engine's, with ``details["bot_finished"]`` added by the room.

        The stored result (and the record's) stays the engine's own, so that records replay and verify.
        """
        result = self.match.result
        shown = result.to_dict() if result is not None else None
        if self.integrity != "ok" and self.stored_result is not None:
            return self.stored_result  # shown as stored, with the room's integrity warning
        if shown is not None:
            details = shown.get("details")
            shown["details"] = {**(details if isinstance(details, dict) else {}), "bot_finished": self.bot_finished()}
        return shown

    def only_bots(self) -> bool:
        """Every seat is played by a bot (created so, or every player left): not an open game to list."""
        return all(seat.kind == "bot" for seat in self.seats)

    def to_dict(self) -> dict[str, Any]:
        shown = self.shown_result()
        return {
            "code": self.code,
            "game": self.game.id,
            "players": self.players,
            "options": self.match.options,
            "public": self.settings.public,
            "status": self.status,
            "seats": self.seat_dicts(),
            "result": shown,
            "turn_timer_s": self.settings.turn_timer_s,
            "grace_s": self.settings.grace_s,
            "replace_with_bot": self.settings.replace_with_bot,
            "replacement_bot": self._replacement_bot_name(),
            "spectators": len(self.spectators.conns),
            "rematch": self.rematch,
            "integrity": self.integrity,
            "integrity_message": self.integrity_message,
            "notices": self.notices,
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
    async def attach(
        self, conn: Connection, seat: int | None, last_seq: int, stream_id: str | None, token_hash: str | None = None
    ) -> bool:
        """Welcome a client after its hello: the messages it missed, or a snapshot of the room now.

        A seat's token is checked again here, under the room's lock: a token that no longer opens ``seat``
        (its player left, someone else took the seat) attaches nothing, gets ``bad_token`` and is closed."""
        async with self.lock:
            if seat is not None and (token_hash is None or self.manager.tokens.get(token_hash) != (self.code, seat)):
                conn.error("bad_token", "this token no longer opens a seat of this room; connect without one to watch")
                conn.close(4401)
                return False
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
                    snapshot.append({"kind": "over", "result": self.shown_result()})
                for message in snapshot:
                    conn.send_message({"seq": stream.seq, **message})
            stream.conns.add(conn)
            self.unwatched_since = None
            self._resume()
            self.last_active = time.time()
            if seat is not None and not self.touched:
                self.touched = True
                if self.status == "waiting":  # kept, so a restart does not take the room for an unused one
                    now = self.last_active
                    await self.manager.storage.run(lambda c: db.update_room(c, self.id, last_active=now))
            if seat is not None:
                first = not self.seats[seat].conns
                self.seats[seat].conns.add(conn)
                if first:
                    self.broadcast_presence()
            return True

    def detach(self, conn: Connection) -> None:
        seat = conn.seat
        stream = self.spectators if seat is None else self.streams[seat]
        if conn in stream.conns:
            self.last_active = time.time()
        stream.conns.discard(conn)
        if not self._watched() and self.unwatched_since is None:
            self.unwatched_since = asyncio.get_running_loop().time()
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
            bot = self.game.make_bot(name, seat=seat, seed=self.seed, **room_defaults(self.game, name))
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
        self.positions.add(self._fingerprint())
        self.version += 1
        self.broadcast_presence()
        self._broadcast_state()
        for seat in range(self.players):
            self._start_grace(seat)
        self._schedule()

    def build_bot(self, seat: int) -> None:
        state = self.seats[seat]
        if state.kind == "bot" and state.bot:
            if state.replaced:
                params = room_defaults(self.game, state.bot)
            else:
                params = validate_bot_params(self.game, state.bot, state.bot_params)
            self.bots[seat] = self.game.make_bot(state.bot, seat=seat, seed=self.seed, **params)

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
        """Check, apply, persist, acknowledge and broadcast one action (from a client, a bot or a timer).

        What is applied, stored and broadcast is the same JSON value: the engine's normalised action, after a
        JSON round trip. If anything fails after the engine applied it (storage, a refused repetition), the
        match is put back as it was, so memory never holds an action the database does not.
        """
        async with self.lock:
            if version is not None and version != self.version:
                return  # a plan made before something else happened
            if self.integrity != "ok":
                self._reject(conn, client_id, "room_broken", f"this room is closed: {self.integrity_message}")
                return
            if self.status != "playing":
                what = "has not started yet: seats are still open" if self.status == "waiting" else "is over"
                self._reject(conn, client_id, "not_playing", f"the match {what}")
                return
            action = dict(payload)
            # Server-side plans (bots, deadlines) may not act before the time they asked for.
            floor = action.pop("at", 0) if version is not None else 0
            if not isinstance(floor, int) or isinstance(floor, bool) or not 0 <= floor <= 2**53:
                floor = 0
            if seat is None:
                action.pop("seat", None)
            else:
                action["seat"] = seat
            action["at"] = max(self.now_ms(), self.match.clock, floor)
            try:
                normalized = self.match.check(action)
                json_safe(normalized, "action")
                normalized = json.loads(json.dumps(normalized, allow_nan=False))
            except IllegalAction as exc:
                self._reject(conn, client_id, exc.code, exc.message, exc.params)
                if conn is None:
                    log.warning("room %s: server-side action %s refused: %s", self.code, show(action, 200), exc)
                return
            except Exception as exc:
                log.warning("room %s: action %s refused by the checks: %r", self.code, show(action, 200), exc)
                self._reject(conn, client_id, "bad_action", f"the action cannot be played: {safe_text(str(exc), 200)}")
                return
            limit = self.manager.limits.no_progress_actions_per_seat
            if seat is not None and self.no_progress[seat] >= limit and self._returns_to_known(normalized):
                self._reject(
                    conn,
                    client_id,
                    "no_progress",
                    f"seat {seat} has made {limit} actions in a row that only brought the game back to where it "
                    "was; this one is refused until the game moves on",
                )
                return
            try:
                events = self.match.apply(normalized)
            except IllegalAction as exc:
                self._reject(conn, client_id, exc.code, exc.message, exc.params)
                return
            except Exception as exc:
                log.exception("room %s: the rules engine failed on %s", self.code, show(normalized, 200))
                self._rollback(self.steps)
                self._reject(conn, client_id, "engine_error", f"the rules engine failed on this action: {exc!r}")
                return
            position = self._fingerprint()
            progress = position not in self.positions
            started = time.perf_counter()
            try:
                # What the engine normalised (declared fields only) is what is stored, recorded and broadcast.
                await self.manager.storage.append(self.id, self.steps, self.match.last_action or normalized)
            except Exception:
                log.exception("room %s: action %d could not be saved; it is taken back", self.code, self.steps)
                self._rollback(self.steps)
                self._reject(conn, client_id, "storage_error", "the action could not be saved; it was not played")
                return
            if progress:
                self.positions.add(position)
                self.no_progress = [0] * self.players
            elif seat is not None:
                self.no_progress[seat] += 1
            waited = time.perf_counter() - started
            if waited > SLOW_COMMIT_S:
                log.warning("room %s: saving an action took %.0f ms", self.code, waited * 1000)
            self.steps += 1
            self.version += 1
            self.turn_base = normalized.get("at", self.turn_base)
            if conn is not None:
                conn.send_message({"kind": "accepted", "id": client_id, "step": self.steps})
            self._broadcast_step(events)
            result = self.match.result
            if result is not None:
                await self._finish()
            self._schedule()

    def _fingerprint(self, state: Any = None) -> int:
        """A fingerprint of the game's position (its full state), to tell progress from going round in circles.

        Exact (sorted JSON of every part), but a part whose ``marshal`` bytes are those of the last time reuses
        its digest: the quiz games' states carry their questions (40-80 KB) that no action changes, and
        ``marshal`` writes them in C many times faster than sorted JSON."""
        state = self.match.state if state is None else state
        if not isinstance(state, dict):
            return hash(_canonical(state))
        memo = self._digests
        parts = []
        for key in sorted(state):
            value = state[key]
            try:
                raw: bytes | None = marshal.dumps(value)
            except ValueError:  # not JSON-like: no shortcut
                raw = None
            known = memo.get(key)
            if raw is not None and known is not None and known[0] == raw:
                digest = known[1]
            else:
                digest = hash(_canonical(value))
                if raw is not None:
                    memo[key] = (raw, digest)
            parts.append((key, digest))
        return hash(tuple(parts))

    def _returns_to_known(self, action: dict[str, Any]) -> bool:
        """Whether ``action`` would lead to a position already reached (tried on a copy of the match)."""
        try:
            trial = Match.from_snapshot(self.match.snapshot())
            trial.apply(action)
        except Exception:
            return False  # let the real apply answer
        return self._fingerprint(trial.state) in self.positions

    def _reject(
        self, conn: Connection | None, client_id: Any, code: str, message: str, params: dict[str, Any] | None = None
    ) -> None:
        if conn is not None:
            params = params or {}
            reply = {
                "kind": "rejected",
                "id": client_id,
                "code": code,
                "params": params,
                # the parameters that name a seat, for the page to say as the seat's name (docs/protocol.md)
                "seats": seat_params(code, params, self.match.game.seat_params),
                # the parameters that are ids with a label (a colour, a topic): parameter -> the label key's prefix
                "labels": label_params(code, params, self.match.game.label_params),
                "message": message,
            }
            conn.send_message(reply)

    def _rollback(self, steps: int) -> None:
        """Put the match back to its first ``steps`` actions (the ones saved); if even that fails, close the room."""
        try:
            record = self.match.record()
            record["actions"] = record["actions"][:steps]
            record.pop("result", None)
            self.match = replay(record, verify=False)
        except Exception as exc:
            log.exception("room %s: cannot be put back to step %d; closing it", self.code, steps)
            self.integrity = "broken"
            self.integrity_message = f"the match could not be put back after a failure: {safe_text(str(exc), 200)}"
            self._cancel_timers()

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
        self._push_all({"kind": "over", "result": self.shown_result()})
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
        if self.status != "playing" or self.integrity != "ok" or self.paused_clock is not None:
            return
        now = self.now_ms()
        if self._nobody_watches():
            self.paused_clock = now  # no person plays and nobody watches: the bots stop using the server
            log.info("room %s: only bots play and nobody watches; paused at %d ms", self.code, now)
            return
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
                    self._later(due_at - now, lambda seat=seat: self._turn_timeout(seat, version, due_at))  # type: ignore[misc]

    async def _turn_timeout(self, seat: int, version: int, due_at: int) -> None:
        """The seat's turn timer ran out: the room's replacement bot chooses one action for it."""
        name = self._replacement_bot_name()
        if name is None or version != self.version:
            return
        try:
            bot = self.game.make_bot(name, seat=seat, seed=self.seed + self.steps)
            decision = bot.decide(observe(self.match, seat, max(self.now_ms(), due_at)))
        except Exception:
            log.exception("room %s: timeout bot failed for seat %d", self.code, seat)
            return
        if decision is not None:
            # stamped no earlier than the deadline, like the game's own deadlines (the event loop may wake a
            # millisecond early)
            await self.act(seat, {**decision.action, "at": due_at}, version=version)

    def _watched(self) -> bool:
        return bool(self.spectators.conns) or any(seat.conns for seat in self.seats)

    def _nobody_watches(self) -> bool:
        """Only bots play, nobody has been connected for ``bot_room_grace_s``."""
        if not self.only_bots() or self._watched():
            return False
        if self.unwatched_since is None:
            self.unwatched_since = asyncio.get_running_loop().time()
        return asyncio.get_running_loop().time() - self.unwatched_since >= self.manager.limits.bot_room_grace_s

    def _resume(self) -> None:
        """Someone came to watch a paused room: its clock goes on from where it stopped."""
        if self.paused_clock is not None:
            self.origin = asyncio.get_running_loop().time() - self.paused_clock / 1000
            self.paused_clock = None
            log.info("room %s: watched again; resumed", self.code)
            self._schedule()

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

    def __init__(
        self,
        storage: Storage,
        *,
        limits: Limits | None = None,
        max_rooms: int | None = None,
        rate_per_s: float | None = None,
        content: HostContent | None = None,
    ) -> None:
        limits = limits or Limits()
        self.content = content or HostContent()
        if max_rooms is not None:
            limits = limits.with_overrides({"max_rooms": max_rooms})
        if rate_per_s is not None:
            limits = limits.with_overrides({"ws_rate_per_s": rate_per_s})
        self.limits = limits
        self.book = AddressBook(limits)
        self.storage = storage
        self.rooms: dict[str, Room] = {}
        self.tokens: dict[str, tuple[str, int]] = {}
        #: Connections that presented a seat token, attached or still before their hello, by token hash:
        #: leaving closes every one of them.
        self.token_conns: dict[str, set[Connection]] = {}
        self.resume_budget = ResumeBudget(limits.resume_total_bytes, limits.resume_room_bytes)
        #: Rooms being created now, by creator hash, network hash and None (all): counted by every check.
        self.creating: dict[str | None, int] = {}
        #: Uploads checked at once (each in its own process).
        self.upload_slots = asyncio.Semaphore(2)
        self.tasks: set[asyncio.Future[Any]] = set()
        self.max_rooms = limits.max_rooms
        self.rate_per_s = limits.ws_rate_per_s
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._lag: asyncio.Task[None] | None = None

    # -- life cycle ----------------------------------------------------------------------------------
    async def load(self) -> None:
        """Rebuild every unfinished room from its record (at start-up)."""
        stored = await self.storage.run(db.load_unfinished)
        expired = []
        for item in stored:
            row = item.row
            last = row.get("last_active") or row["created_at"]
            if row["status"] == "waiting" and self._stale(last, row["created_at"]):
                expired.append(item.row["id"])
                continue
            try:
                room = await self._restore(item)
            except RoomError as exc:
                log.error("room %s cannot be rebuilt from its record; it stays closed: %s", item.row["code"], exc)
                continue
            self.rooms[room.code] = room
        if expired:
            await self.storage.run(lambda c: db.delete_rooms(c, expired))
        log.info("loaded %d unfinished rooms (%d waiting rooms expired)", len(self.rooms), len(expired))
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

    def _stale(self, last_active: float, created_at: float | None = None) -> bool:
        """A waiting room to delete: untouched for ``waiting_room_ttl_s``, or, when nobody ever joined or
        connected to it (``last_active`` is still ``created_at``), for ``unjoined_room_ttl_s``."""
        idle = time.time() - last_active
        if created_at is not None and last_active == created_at:
            return idle > min(self.limits.unjoined_room_ttl_s, self.limits.waiting_room_ttl_s)
        return idle > self.limits.waiting_room_ttl_s

    async def _restore(self, item: StoredRoom) -> Room:
        """Rebuild a stored room by replaying its record, verifying any stored result.

        A record that does not replay, or replays to another result, is not rewritten: the room is kept as
        far as it replays, marked ``integrity: "mismatch"`` (or ``"broken"``) with the reason, and refuses
        actions. A room whose match cannot even be set up raises :class:`RoomError` (``room_broken``).
        """
        row = item.row
        code = row["code"]
        try:
            game = get_game(row["game"])
            options = json.loads(row["options"])
            settings = Settings(**json.loads(row["settings"]))
            pinned = json.loads(row["pinned"]) if row.get("pinned") else None
            if pinned is None or "start" not in pinned:
                # A room stored before records pinned their start (format 1): set up from its options, which
                # may name no file (a file is read only from the start a room pins).
                if any(option.file and options.get(option.name) for option in game.option_schema):
                    raise ValueError("it was stored before rooms kept their content, and names a file")
                new_match(game.id, row["players"], row["seed"], options)
        except Exception as exc:
            log.error("room %s cannot be set up again from its record: %r", code, exc)
            raise RoomError(
                409, "room_broken", f"room {code} cannot be rebuilt from its record: {safe_text(str(exc), 200)}"
            ) from None
        integrity, message = "ok", None
        stored_result: dict[str, Any] | None = None
        try:
            stored_result = json.loads(row["result"]) if row["result"] else None
        except ValueError:
            integrity, message = "broken", "the stored result is not valid JSON"
        record = {
            "game": game.id,
            "players": row["players"],
            "seed": row["seed"],
            "options": options,
            "actions": item.actions,
        }
        # The start, rules revision and content the room was created with (none: a format-1 room).
        record.update(pinned if pinned is not None else {"format": "mindtable-record/1"})
        if stored_result is not None:
            record["result"] = stored_result
        notices = record_notices(record)
        for notice in notices:
            log.warning("room %s: %s %s", code, notice["code"], notice["params"])
        try:
            match = replay(record, verify=True)
        except ReplayMismatch as exc:
            integrity, message = "mismatch", safe_text(str(exc), 300)
        except Exception as exc:
            integrity, message = "broken", f"the record does not replay: {safe_text(str(exc), 300)}"
        if integrity == "ok" and row["status"] == "over" and match.result is None:
            integrity, message = "mismatch", "the room is stored as over but its record does not finish the match"
        if integrity != "ok":
            log.error("room %s: %s: %s (the stored record is left as it is)", code, integrity, message)
            match = start_of(record)
            for action in item.actions:
                try:
                    match.apply(action)
                except Exception:
                    break
        seats = [
            SeatState(
                s["seat"],
                s["kind"],
                s["name"],
                s["bot"],
                _load_params(s["bot_params"]),
                s["token_hash"],
                bool(s["replaced"]),
            )
            for s in item.seats
        ]
        room = Room(
            self, row["id"], code, game, match, settings, seats, row["status"], row["created_at"], row["rematch"]
        )
        for s in item.seats:
            if s.get("held_for") and s.get("held_until") and s["kind"] == "open":
                room.reserved[s["seat"]] = (s["held_for"], float(s["held_until"]))
        room.creator = row.get("creator")
        room.creator_network = row.get("creator_network")
        room.touched = (row.get("last_active") or row["created_at"]) != row["created_at"]
        room.last_active = row.get("last_active") or row["created_at"]
        room.steps = len(match.actions) if integrity != "ok" else len(item.actions)
        room.stored_result = stored_result
        room.integrity, room.integrity_message = integrity, message
        room.notices = notices
        for state in seats:
            if state.token_hash:
                self.tokens[state.token_hash] = (room.code, state.index)
        if room.integrity == "ok":
            for state in seats:
                try:
                    room.build_bot(state.index)
                except Exception as exc:
                    room.integrity = "broken"
                    room.integrity_message = (
                        f"the bot of seat {state.index} ({state.bot}) cannot be rebuilt: {safe_text(str(exc), 200)}"
                    )
                    log.error("room %s: %s", code, room.integrity_message)
                    room.bots.clear()
                    break
        room.positions.add(room._fingerprint())
        if room.status == "playing" and room.integrity == "ok":
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
        shortest = min(self.limits.waiting_room_ttl_s, self.limits.unjoined_room_ttl_s)
        interval = min(30.0, max(shortest / 2, 0.5))
        while True:
            await asyncio.sleep(interval)
            self.book.sweep()
            try:
                await self._expire_waiting()
                await self._expire_uploads()
            except Exception:
                log.exception("expiring waiting rooms or uploads failed")
            now = time.monotonic()
            for code, room in list(self.rooms.items()):
                if room.over_since is None or now - room.over_since < 60:
                    continue
                for _, stream in room._all_streams():
                    if not stream.conns:
                        stream.clear()  # a late reconnection gets a snapshot (with the result)
                if (
                    now - room.over_since > 600
                    and not room.spectators.conns
                    and not any(seat.conns for seat in room.seats)
                ):
                    self.forget(code)

    async def _expire_uploads(self) -> None:
        """Uploads no room took within ``upload_ttl_s`` are forgotten."""
        before = time.time() - self.limits.upload_ttl_s
        await self.storage.run(lambda c: db.delete_stale_uploads(c, before))

    async def _expire_waiting(self) -> None:
        """Waiting rooms nobody has touched for ``waiting_room_ttl_s`` are deleted (nothing was played in them)."""
        stale = [
            room
            for room in self.rooms.values()
            if room.status == "waiting"
            and self._stale(room.last_active, None if room.touched else room.created_at)
            and not room.spectators.conns
            and not any(seat.conns for seat in room.seats)
        ]
        if not stale:
            return
        ids = [room.id for room in stale]
        await self.storage.run(lambda c: db.delete_rooms(c, ids))
        for room in stale:
            if room.status == "waiting":
                log.info("room %s expired after %.0f s without activity", room.code, time.time() - room.last_active)
                self.forget(room.code)

    def forget(self, code: str) -> None:
        room = self.rooms.pop(code, None)
        if room is None:
            return
        room.shutdown()
        for _, stream in room._all_streams():
            stream.clear()  # its kept messages leave the server's budget
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
            try:
                stored = await self.storage.run(lambda c: db.load_by_code(c, code))
            except Exception:
                raise RoomError(503, "storage_error", f"room {code} cannot be read from the database now") from None
            room = await self._restore(stored) if stored is not None else None
            if room is not None:
                self.rooms[code] = room
            future.set_result(room)
            return room
        except Exception as exc:
            if not isinstance(exc, RoomError):
                log.exception("room %s cannot be loaded", code)
                exc = RoomError(409, "room_broken", f"room {code} cannot be rebuilt: {safe_text(str(exc), 200)}")
            future.set_exception(exc)
            future.exception()  # retrieved: waiting callers get it; nobody else needs to
            raise exc from None
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
        """Public rooms a person may join or watch: not over, and with a person (or an open seat) in them."""
        return [
            room.to_dict()
            for room in self.rooms.values()
            if room.settings.public and room.status != "over" and not room.only_bots()
        ]

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
        address: str | None = None,
        rematch_of: Room | None = None,
    ) -> tuple[Room, int | None, str | None]:
        """Create a room. ``address`` (the client's, when a client asks) is held to the per-address limits.

        File options (``Option.file``) take ``""``, ``"host:NAME"`` (offered by the host) or ``"upload:ID"``
        (sent by this creator, or the upload of ``rematch_of``): never a path."""
        creator = self.owner_of(address) if address is not None else None
        network = self.owner_of(network_of(address)) if address is not None else None
        # Rooms being created count from here on: concurrent creates cannot all pass the same check.
        active = self.creating.get(None, 0)
        mine = self.creating.get(creator, 0) if creator is not None else 0
        ours = self.creating.get(network, 0) if network is not None else 0
        for room in self.rooms.values():
            if room.status != "over":
                active += 1
                if creator is not None and room.creator == creator:
                    mine += 1
                if network is not None and room.creator_network == network:
                    ours += 1
        if creator is not None and mine >= self.limits.rooms_per_address:
            raise RoomError(
                429,
                "too_many_rooms",
                f"you already have {mine} unfinished rooms on this server (the limit per address); "
                "finish or leave one first",
            )
        if network is not None and ours >= self.limits.rooms_per_network:
            raise RoomError(
                429,
                "too_many_rooms",
                f"your network already has {ours} unfinished rooms on this server (the limit per network); "
                "finish or leave one first",
            )
        if active >= self.max_rooms:
            raise RoomError(503, "too_many_rooms", f"this server already runs {active} rooms; try again later")
        if address is not None and not self.book.take("create", address):
            raise RoomError(
                429, "rate_limited", "too many rooms created from your address lately; try again in a minute"
            )
        holders = [None, creator, network] if creator is not None else [None]
        for key in holders:
            self.creating[key] = self.creating.get(key, 0) + 1
        try:
            return await self._create(
                game_id=game_id,
                players=players,
                options=options,
                bots=bots,
                bot_params=bot_params,
                name=name,
                seat=seat,
                settings=settings,
                creator=creator,
                network=network,
                rematch_of=rematch_of,
            )
        finally:
            for key in holders:
                left = self.creating[key] - 1
                if left:
                    self.creating[key] = left
                else:
                    del self.creating[key]

    async def _create(
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
        creator: str | None,
        network: str | None,
        rematch_of: Room | None,
    ) -> tuple[Room, int | None, str | None]:
        try:
            game = get_game(game_id)
        except Exception as exc:
            raise RoomError(404, "unknown_game", safe_text(str(exc))) from None
        try:
            json_safe(options, "options", max_depth=4, max_values=256)
        except ValueError as exc:
            raise RoomError(422, "bad_options", str(exc)) from None
        options = _strict_options(game, options)
        seed = secrets.randbelow(2**62)
        uploads: list[str] = []
        with tempfile.TemporaryDirectory(prefix="mindtable-room-") as folder:
            files = await self._content_files(game, options, creator, rematch_of, Path(folder), uploads)
            try:
                if files:  # a file is read off the event loop (an upload was checked in its own process first)
                    match = await asyncio.to_thread(new_match, game.id, players, seed, options, files=files)
                else:
                    match = new_match(game.id, players, seed, options, files={})
                json_safe(match.options, "options", max_depth=8, max_values=4096)
            except (InvalidOptions, ValueError, TypeError) as exc:
                raise RoomError(422, "bad_options", safe_text(str(exc))) from None
        seat_bots: dict[int, tuple[str, dict[str, Any]]] = {}
        for key, bot_name in bots.items():
            index = _seat_index(key, players, "bots")
            try:
                given = bot_params.get(key, {})
                # The room's defaults for this bot (e.g. a think time), then what the creator gave.
                params = validate_bot_params(game, bot_name, {**room_defaults(game, bot_name), **given})
                game.make_bot(bot_name, seat=index, seed=seed, **params)
            except Exception as exc:
                raise RoomError(422, "bad_bot", f"bots[{show(key)}]: {safe_text(str(exc))}") from None
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
        if seat is not None and not 0 <= seat < players:
            raise RoomError(422, "bad_seat", f"seat must be from 0 to {players - 1}, got {seat}")
        if seat is not None and seat not in humans:
            raise RoomError(409, "seat_taken", f"seat {seat} is not a free human seat; free seats: {humans}")
        taker = seat if seat is not None else (humans[0] if humans else None)
        token = secrets.token_urlsafe(32) if taker is not None else None
        seats = []
        for index in range(players):
            if index in seat_bots:
                seats.append(SeatState(index, "bot", None, seat_bots[index][0], seat_bots[index][1]))
            elif index == taker:
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
            "creator": creator,
            "creator_network": network,
            "last_active": created_at,
            "pinned": json.dumps(pinned_part(match)),
        }

        def insert(connection: Any) -> tuple[int, str]:
            for _ in range(50):
                code = new_code()
                if code not in self.rooms and not db.code_exists(connection, code):
                    return db.insert_room(connection, {**row, "code": code}, [s.row() for s in seats]), code
            raise RuntimeError("could not draw a free room code")

        def insert_and_bind(connection: Any) -> tuple[int, str]:
            room_id, code = insert(connection)
            for upload_id in uploads:  # the upload is this room's now (and its rematches')
                db.bind_upload(connection, upload_id, room_id)
            return room_id, code

        room_id, code = await self.storage.run(insert_and_bind)
        room = Room(self, room_id, code, game, match, settings, seats, "waiting", created_at, creator=creator)
        room.creator_network = network
        for index in seat_bots:
            room.build_bot(index)
        self.rooms[code] = room
        if token is not None and taker is not None:
            self.tokens[hash_token(token)] = (code, taker)
        async with room.lock:
            await room.maybe_start()
        return room, taker, token

    async def _content_files(
        self,
        game: Game,
        options: Mapping[str, Any],
        owner: str | None,
        rematch_of: Room | None,
        folder: Path,
        uploads: list[str],
    ) -> dict[str, Path]:
        """Where each file option's value is read from (see :mod:`mindtable.server.content`); the uploads it
        uses are added to ``uploads``. Anything else a file option is given is refused: no path is opened."""
        files: dict[str, Path] = {}
        for option in game.option_schema:
            value = options.get(option.name) if isinstance(options, Mapping) else None
            if option.file is None or value in (None, ""):
                continue
            offered = self.content.offered(game.id, option.name)
            params: dict[str, Any] = {"option": option.name, "offered": [HOST + name for name in offered]}
            if isinstance(value, str) and value.startswith(HOST):
                path = self.content.path(game.id, option.name, value[len(HOST) :])
                if path is None:
                    raise RoomError(
                        422,
                        "bad_options",
                        f"option {option.name!r}: this server offers no {option.file} {show(value)}; offered: "
                        + (", ".join(params["offered"]) or "none"),
                        params,
                    )
                files[value] = path
                continue
            if isinstance(value, str) and value.startswith(UPLOAD):
                upload_id = value[len(UPLOAD) :]
                found = await self._load_upload(upload_id) if upload_id else None
                mine = found is not None and (
                    (found["room_id"] is None and owner is not None and found["owner"] == owner)
                    or (rematch_of is not None and found["room_id"] == rematch_of.id)
                )
                if found is None or not mine or found["game"] != game.id or found["option"] != option.name:
                    raise RoomError(
                        422,
                        "bad_options",
                        f"option {option.name!r}: {show(value)} is no upload of yours for this option of {game.id}; "
                        "send the file to POST /api/uploads first",
                        params,
                    )
                files[value] = materialize(folder, found)
                uploads.append(upload_id)
                continue
            raise RoomError(
                422,
                "bad_options",
                f'option {option.name!r} names a {option.file} file: give "" (the game\'s own), host:NAME '
                f"(offered: {', '.join(params['offered']) or 'none'}) or upload:ID (POST /api/uploads); "
                "a server never opens a path a client names",
                params,
            )
        return files

    async def _load_upload(self, upload_id: str) -> dict[str, Any] | None:
        return await self.storage.run(lambda c: db.load_upload(c, upload_id))

    async def join(self, code: str, name: str, seat: int | None, *, claim: str | None = None) -> tuple[Room, int, str]:
        """Take a free seat. Seats held for the players of the previous match (rematch rooms) are free only
        to ``claim``, the token hash that player had."""
        room = await self.require(code)
        async with room.lock:
            if room.status == "over":
                raise RoomError(
                    409,
                    "room_over",
                    f"the game in room {room.code} is over: watch its replay at replay.html?code={room.code}, "
                    "or create a room",
                    {"code": room.code, "game": room.game.id, "replay": f"replay.html?code={room.code}"},
                )
            if room.integrity != "ok":
                raise RoomError(409, "room_broken", f"this room is closed: {room.integrity_message}")
            open_seats = [s.index for s in room.seats if s.kind == "open"]
            free = [index for index in open_seats if not room.reserved_for(index, claim)]
            if seat is not None:
                if not 0 <= seat < room.players:
                    raise RoomError(422, "bad_seat", f"seat must be from 0 to {room.players - 1}, got {seat}")
                if seat in open_seats and seat not in free:
                    raise RoomError(
                        409,
                        "seat_reserved",
                        f"seat {seat} is held for its player of the previous match for a while; free seats: {free}",
                    )
                if seat not in free:
                    raise RoomError(409, "seat_taken", f"seat {seat} is taken; free seats: {free}")
                chosen = seat
            elif free:
                chosen = free[0]
            elif open_seats:
                raise RoomError(
                    409, "seat_reserved", "the open seats are held for the players of the previous match for a while"
                )
            else:
                raise RoomError(
                    409,
                    "room_full",
                    "every seat of this room is taken; you can watch as a spectator",
                    {"code": room.code, "game": room.game.id},
                )
            token = secrets.token_urlsafe(32)
            digest = hash_token(token)
            now = time.time()
            await self.storage.run(
                lambda c: db.update_seat(
                    c,
                    room.id,
                    chosen,
                    kind="human",
                    name=name,
                    bot=None,
                    token_hash=digest,
                    replaced=False,
                    held_for=None,
                    held_until=None,
                    room_values={"last_active": now},
                )
            )
            room.reserved.pop(chosen, None)
            room.last_active = now
            room.touched = True
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
                now = time.time()
                await self.storage.run(
                    lambda c: db.update_seat(
                        c,
                        room.id,
                        seat,
                        kind="open",
                        name=None,
                        token_hash=None,
                        replaced=False,
                        bot=None,
                        room_values={"last_active": now},
                    )
                )
                room.last_active = now
                state.kind, state.name, state.token_hash, state.replaced, state.bot = "open", None, None, False, None
                room.bots.pop(seat, None)
                if old:
                    self.tokens.pop(old, None)
                room.version += 1
                room.broadcast_presence()
                room._schedule()
            held = hash_token(token) if token else None
            for conn in {*conns, *self.token_conns.get(held or "", ())}:
                state.conns.discard(conn)
                room.streams[seat].conns.discard(conn)
                conn.close(4000)
            room.broadcast_presence()
        return room

    @staticmethod
    def owner_of(address: str) -> str:
        """What rooms and uploads keep of the address that made them (its hash)."""
        return hash_token(f"address:{address}")

    def watch_token(self, token_hash: str, conn: Connection) -> None:
        self.token_conns.setdefault(token_hash, set()).add(conn)

    def unwatch_token(self, token_hash: str, conn: Connection) -> None:
        conns = self.token_conns.get(token_hash)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.token_conns[token_hash]

    async def rematch(
        self, code: str, token: str | None, address: str | None = None
    ) -> tuple[Room, int | None, str | None]:
        """A new room with the same settings (made once; the others join it). It counts against the address
        of the player who asked for it, as any room that player creates."""
        room, seat = await self.authorize(code, token)
        if room.status != "over":
            raise RoomError(409, "not_over", "a rematch can be asked for once the match is over")
        name = room.seats[seat].name or f"Player {seat + 1}"  # the person's own name, even if a bot took over
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
                    address=address,
                    rematch_of=room,
                )
                # The other players of this match get their seats held for a while: no stranger takes them.
                until = time.time() + self.limits.rematch_hold_s
                holds: dict[int, tuple[str, float]] = {}
                for old in room.seats:
                    if old.index != new_seat and old.token_hash and new_room.seats[old.index].kind == "open":
                        holds[old.index] = (old.token_hash, until)
                new_room.reserved.update(holds)

                def remember(c: Any) -> None:
                    db.hold_seats(c, new_room.id, holds)  # a restart keeps the holds
                    db.update_room(c, room.id, rematch=new_room.code)

                await self.storage.run(remember)
                room.rematch = new_room.code
                room.broadcast_presence()
                return new_room, new_seat, new_token
        claim = room.seats[seat].token_hash
        try:
            new_room, new_seat, new_token = await self.join(room.rematch, name, seat, claim=claim)
        except RoomError:
            try:
                new_room, new_seat, new_token = await self.join(room.rematch, name, None, claim=claim)
            except RoomError:
                return await self.require(room.rematch), None, None
        return new_room, new_seat, new_token


def _load_params(text: str | None) -> dict[str, Any] | None:
    if not text:
        return None
    try:
        params = json.loads(text)
    except ValueError:
        return {"<unreadable>": text[:40]}
    return params if isinstance(params, dict) else {"<unreadable>": params}


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=repr)


_JSON_TYPES: dict[type, tuple[type, ...]] = {bool: (bool,), int: (int,), float: (int, float), str: (str,)}


def _strict_options(game: Game, options: Mapping[str, Any]) -> dict[str, Any]:
    """Options from a client have the JSON type their schema says (the Python API and the terminal may give
    ``"3"`` for 3; a client may not): ``"2"`` is no number and ``1`` no ``true``; ``2.0`` is the whole number
    2, as JSON (and JSON Schema's "integer") has it."""
    by_name = {option.name: option for option in game.option_schema}
    out = dict(options)
    for name, value in options.items():
        option = by_name.get(name)
        if option is None or value is None:
            continue  # unknown names and "as the book says" are the schema's own errors
        allowed = _JSON_TYPES.get(option.type)
        if allowed is None:
            continue
        if option.type is int and isinstance(value, float) and value.is_integer():
            out[name] = value = int(value)
        if not isinstance(value, allowed) or (option.type is not bool and isinstance(value, bool)):
            raise RoomError(
                422,
                "bad_options",
                f"option {name!r} must be {option.describe_allowed()} (JSON {option.to_dict()['json_type']}), "
                f"got {show(value)}",
                {"option": name},
            )
    return out


def _seat_index(key: str, players: int, where: str) -> int:
    try:
        if not (isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 3):
            raise ValueError(key)
        index = int(key)
        if str(index) != key:  # "01" is not seat 1: one spelling per seat
            raise ValueError(key)
    except ValueError:
        raise RoomError(
            422, "bad_seat", f"{where}: seat keys are numbers from 0 to {players - 1}, got {show(key)}"
        ) from None
    if not 0 <= index < players:
        raise RoomError(422, "bad_seat", f"{where}: seat {index} does not exist; seats are 0 to {players - 1}")
    return index
