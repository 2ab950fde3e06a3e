"""One room: a match in play, its seats, clock, bots, timers and what each seat hears (one asyncio event loop).

A :class:`Room` owns a :class:`~mindtable.core.match.Match` and everything around it. Nothing here is
game-specific: the server talks to a game only through the core API (``Match``, ``Game.describe()``,
``Game.make_bot``, ``observe``).

Concurrency: each room has one :class:`asyncio.Lock`; an action is checked and applied by the engine,
appended to the database (awaiting the commit), and only then acknowledged and broadcast, all under that
lock. Streams are written from synchronous code only, so a reconnecting client's catch-up and its
registration for new messages happen without a gap.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import marshal
import secrets
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

try:
    import orjson as _orjson
except ImportError:  # pragma: no cover - a dependency; the standard library is the fallback
    _orjson = None  # type: ignore[assignment]

from mindtable.core import Bot, Game, IllegalAction, Match, observe
from mindtable.core.bot_params import room_defaults, validate_bot_params
from mindtable.core.codes import label_params, seat_params
from mindtable.core.driver import observation
from mindtable.core.events import Event
from mindtable.core.match import replay, replay_into
from mindtable.core.pace import PacedBot, pace_of
from mindtable.kit import names
from mindtable.server import storage as db
from mindtable.server.protocol import json_safe, safe_text, show
from mindtable.server.streams import Connection, Stream, body

if TYPE_CHECKING:
    from mindtable.server.manager import RoomManager

log = logging.getLogger("mindtable.server")

_SORTED = _orjson.OPT_SORT_KEYS | _orjson.OPT_NON_STR_KEYS if _orjson is not None else 0
#: Room-code alphabet: no 0/O, 1/I/L look-alikes.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6  #: Commits slower than this are logged.
SLOW_COMMIT_S = 0.2


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
    #: The bots' pace (:mod:`mindtable.core.pace`): ``off``, ``normal``, ``slow`` or seconds; ``None`` until the
    #: room is made, then the game's ``room_bot_pace`` unless the creator gave one.
    bot_pace: str | float | None = None


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
        cluster = manager.cluster
        if cluster is not None:  # several processes: seat streams are kept in Redis too (for a hand-over)
            for seat, stream in self.streams.items():
                stream.mirror = lambda text, seat=seat, stream=stream: cluster.mirror(self, seat, stream, text)
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
        #: (match, actions played, state object) -> every seat's view then (see _seat_views)
        self._views_of: tuple[tuple[Any, ...], dict[int, dict[str, Any]]] | None = None
        self.no_progress = [0] * self.players
        #: Shut down (forgotten by this process): it never acts or writes again, even from a task under way.
        self.closed = False
        #: A finished room nobody is connected to: when it leaves memory (see :meth:`release_when_idle`).
        self._release: asyncio.TimerHandle | None = None

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
            "bot_pace": self._bot_pace_value(),
            "spectators": len(self.spectators.conns),
            "rematch": self.rematch,
            "integrity": self.integrity,
            "integrity_message": self.integrity_message,
            "notices": self.notices,
        }

    def _presence(self) -> dict[str, Any]:
        return {"kind": "presence", "status": self.status, "seats": self.seat_dicts(), "rematch": self.rematch}

    def _state(self, seat: int | None, deadline: int | None, view: dict[str, Any] | None = None) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (``view``: that seat's view when the caller built it already)."""
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
            "view": self.match.view(seat) if view is None else view,
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

    def _watched_streams(self) -> list[tuple[int | None, Stream]]:
        """The streams to write to now: every seat's (a seat's stream keeps what its player may come back to)
        and the spectators' when someone watches; an unwatched spectator stream gets an empty slot instead."""
        streams = self._all_streams()
        if self.spectators.conns:
            return streams
        self.spectators.push_body("")  # skipped: nobody watches
        self.spectators.steady.clear()
        return streams[:-1]

    def _views(self, streams: list[tuple[int | None, Stream]]) -> dict[int | None, dict[str, Any]]:
        """The view of each stream's seat, built together (games build what every seat sees once); the bots
        are asked with the same views (:meth:`_seat_views`). Views are read-only: they may share parts."""
        views: dict[int | None, dict[str, Any]] = {seat: view for seat, view in self._seat_views().items()}
        if any(seat is None for seat, _ in streams):
            views[None] = self.match.view(None)
        return views

    def _seat_views(self) -> dict[int, dict[str, Any]]:
        """Every seat's view of the position now, built once per position."""
        match = self.match
        cached = self._views_of
        if cached is not None:
            (was, played, state), views = cached
            if was is match and played == match.played and state is match.state:
                return views
        views = match.views(range(self.players))
        self._views_of = ((match, match.played, match.state), views)
        return views

    def _broadcast_state(self) -> None:
        deadline = self._deadline()
        streams = self._watched_streams()
        views = self._views(streams)
        for seat, stream in streams:
            stream.push(self._steady(stream, self._state(seat, deadline, views[seat])))

    def _broadcast_step(self, events: list[Event]) -> None:
        deadline = self._deadline()
        # Most events are public: seats that see the same events share one encoding of the message.
        public = all(event.to is None for event in events)
        shared = body({"kind": "events", "step": self.steps, "events": [e.to_dict() for e in events]})
        streams = self._watched_streams()
        views = self._views(streams)
        for seat, stream in streams:
            if public:
                if events:
                    stream.push_body(shared)
            else:
                visible = [event.to_dict() for event in events if event.visible_to(seat)]
                if visible:
                    stream.push({"kind": "events", "step": self.steps, "events": visible})
            stream.push(self._steady(stream, self._state(seat, deadline, views[seat])))

    def _steady(self, stream: Stream, message: dict[str, Any]) -> dict[str, Any]:
        """``message`` without the view's steady parts (:attr:`Game.steady_view`) that are what ``stream`` sent
        last, named in ``"same"``: a quiz game's board and history are most of its frames and seldom change."""
        parts = self.game.steady_view
        if not parts:
            return message
        view, last = message["view"], stream.steady
        same = [part for part in parts if part in view and part in last and last[part] == view[part]]
        for part in parts:
            if part in view:
                last[part] = view[part]
        if same:
            message["view"] = {key: value for key, value in view.items() if key not in same}
            message["same"] = same
        return message

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
                stream.steady.clear()  # the next state frame is whole again, for this client and the others
                snapshot = [self._presence(), self._state(seat, self._deadline())]
                result = self.match.result
                if self.status == "over" and result is not None:
                    snapshot.append({"kind": "over", "result": self.shown_result()})
                for message in snapshot:
                    conn.send_message({"seq": stream.seq, **message})
            stream.conns.add(conn)
            self.unwatched_since = None
            if self._release is not None:  # someone looks at the finished room: it stays while they do
                self._release.cancel()
                self._release = None
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
        if seat is not None:
            state = self.seats[seat]
            if conn in state.conns:
                state.conns.discard(conn)
                if not state.conns:
                    self.broadcast_presence()
                    self._start_grace(seat)
        if not self._watched():
            if self.unwatched_since is None:
                self.unwatched_since = asyncio.get_running_loop().time()
            self.release_when_idle()

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
            if state.kind == "human" and not state.conns and self.status == "playing" and not self.closed:
                await self._replace(seat)

    async def _replace(self, seat: int) -> None:
        """Hand ``seat`` to the room's replacement bot (the player keeps their token to reclaim it)."""
        name = self._replacement_bot_name()
        if name is None:
            return
        try:
            bot = self._paced(self.game.make_bot(name, seat=seat, seed=self.seed, **room_defaults(self.game, name)))
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
            self.bots[seat] = self._paced(self.game.make_bot(state.bot, seat=seat, seed=self.seed, **params))

    def _bot_pace_value(self) -> str | float:
        pace = self.settings.bot_pace
        return self.game.room_bot_pace if pace is None else pace

    def _paced(self, bot: Bot) -> Bot:
        """``bot`` at this table's pace (a turn-based game's bots take a person's time; real-time bots time
        themselves): each decision is due a think time (and the reading of what the game names) later."""
        if self.game.realtime:
            return bot
        pace = pace_of(self._bot_pace_value())
        if pace.off:
            return bot
        return PacedBot(bot, pace, self.game.read_before, self._next_deadline_at)

    def _next_deadline_at(self) -> int | None:
        deadline = self.match.next_deadline()
        return deadline.at if deadline is not None else None

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
            cluster = self.manager.cluster
            if self.closed:
                # Forgotten here while this action waited (its lease ran out): the room lives on elsewhere, or
                # here again as another object rebuilt from the database.
                self._reject(conn, client_id, "room_moving", "the room is moving to another process; try again")
                return
            if cluster is not None and not cluster.holds(self.code):
                # This process could not renew its lease on the room lately: another may take it over any
                # moment. A person is told to try again; the room's own plans (bots, deadlines) are made
                # again shortly (if the lease is lost for good, the room is forgotten here meanwhile).
                self._reject(conn, client_id, "room_moving", "the room is moving to another process; try again")
                if conn is None:
                    self._timers.append(asyncio.get_running_loop().call_later(0.2, self._schedule))
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
            except Exception as exc:
                log.exception("room %s: action %d could not be saved; it is taken back", self.code, self.steps)
                self._rollback(self.steps)
                self._reject(conn, client_id, "storage_error", "the action could not be saved; it was not played")
                if cluster is not None and isinstance(exc, sa.exc.IntegrityError):
                    # Another writer (a process that held the room during a pause of this one) wrote this step:
                    # this copy is behind the log. Forget it; the room is rebuilt from the log at once.
                    log.warning("room %s: the log has moved on without this process; rebuilding the room", self.code)
                    self.manager.forget(self.code, close_code=1012)
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

        Exact (sorted JSON of every part) but for the parts the game declares fixed (:attr:`Game.fixed_state`:
        its questions, its board), which no move changes and so tell no two positions apart. A part whose
        ``marshal`` bytes are those of the last time reuses its digest: ``marshal`` writes in C many times faster
        than sorted JSON. (Format 2: it writes no back-references, whose presence depends on how many other
        places hold the same object, so the bytes of an unchanged part are always the same.)"""
        state = self.match.state if state is None else state
        if not isinstance(state, dict):
            return hash(_canonical(state))
        memo = self._digests
        fixed = self.game.fixed_state
        parts = []
        for key in sorted(state):
            if key in fixed:
                continue
            value = state[key]
            try:
                raw: bytes | None = marshal.dumps(value, 2)
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
        self.let_go_of_play()
        if self.manager.cluster is not None:
            self.manager.cluster.room_over(self.code, self.players)
        self.release_when_idle()

    def let_go_of_play(self) -> None:
        """A finished match needs no more what only play needs: the fingerprints of the positions reached and
        their digests (loop detection), the views cached for the last position and the view parts each
        stream sent last (a later state frame, or a client's snapshot, is whole), and the bots. Its state,
        record and result stay: the room still shows the finished match, its record and replay."""
        self.positions = set()
        self._digests = {}
        self._views_of = None
        self.no_progress = [0] * self.players
        self.bots = {}
        for _, stream in self._all_streams():
            stream.steady = {}

    # -- memory: a finished room is stored, and need not stay -------------------------------------------
    def release_when_idle(self) -> None:
        """A finished room nobody is connected to leaves this process's memory ``finished_room_linger_s``
        later (everything about it is stored by then: its actions, result, rematch and seat holds; its page,
        record, replay and rematch load it again on demand). Anyone who connects meanwhile keeps it."""
        if self.status != "over" or self.closed or self._watched():
            return
        if self._release is not None:
            self._release.cancel()
        loop = asyncio.get_running_loop()
        self._release = loop.call_later(self.manager.limits.finished_room_linger_s, self._release_now)

    def _release_now(self) -> None:
        self._release = None
        if self.status != "over" or self.closed or self._watched():
            return
        if self.lock.locked():  # a rematch is being made: look again shortly
            self._release = asyncio.get_running_loop().call_later(1.0, self._release_now)
            return
        if self.manager.rooms.get(self.code) is self:
            log.debug("room %s: finished and unwatched; released from memory (it stays stored)", self.code)
            self.manager.forget(self.code)

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
        views = self._seat_views() if self.bots else {}
        for seat, bot in self.bots.items():
            try:
                decision = bot.decide(observation(self.match, seat, views[seat], now))
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

    async def catch_up(self, reached: dict[int, int] | None) -> None:
        """After a hand-over: the messages of the steps each seat's kept stream misses (it reached step
        ``reached[seat]``), then the room as it is now, so that a client resuming its stream hears everything
        it would have heard."""
        if reached is None:
            return
        behind = {seat: step for seat, step in reached.items() if step < self.steps}
        if behind and self.integrity == "ok":
            record = self.match.record()
            record.pop("result", None)
            record["actions"] = record["actions"][: self.steps]
            collected: list[list[Event]] = []
            # off the event loop: a long record takes a while to play again, and other rooms go on meanwhile
            await asyncio.to_thread(replay_into, record, lambda _match, _action, events: collected.append(events))
            for seat, step_reached in behind.items():
                stream = self.streams[seat]
                for step, events in enumerate(collected[step_reached:], start=step_reached + 1):
                    visible = [event.to_dict() for event in events if event.visible_to(seat)]
                    if visible:
                        stream.push({"kind": "events", "step": step, "events": visible})
        self.broadcast_presence()
        self._broadcast_state()

    def shutdown(self, code: int = 1001) -> None:
        self.closed = True
        self._cancel_timers()
        if self._release is not None:
            self._release.cancel()
            self._release = None
        for state in self.seats:
            if state.grace is not None:
                state.grace.cancel()
            for conn in list(state.conns):
                conn.close(code)
        for conn in list(self.spectators.conns):
            conn.close(code)


def _canonical(value: Any) -> str | bytes:
    """Sorted JSON of a state part (what tells two positions apart; only compared within this process).

    orjson where it can (5-8 times faster; its text differs from the standard library's in spelling only, and
    is the same for the same value), the standard library for what it refuses (an integer over 64 bits). One
    difference: orjson writes a non-finite float as null, like ``None`` (game states hold neither)."""
    if _orjson is not None:
        try:
            return _orjson.dumps(value, default=repr, option=_SORTED)
        except TypeError:
            pass
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=repr)
