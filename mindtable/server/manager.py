"""Every room of a server: the :class:`RoomManager` creates, finds, loads (rebuilding from the database),
expires and forgets rooms, holds the seat tokens that open them and the per-address and per-network limits of
the lobby. Rooms themselves live in :mod:`mindtable.server.room`.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import secrets
import shutil
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from dataclasses import asdict, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mindtable.core import Game, InvalidOptions, get_game, new_match
from mindtable.core.bot_params import room_defaults, validate_bot_params
from mindtable.core.errors import ReplayMismatch
from mindtable.core.match import pinned_part, record_notices, replay, start_of
from mindtable.core.options import room_options, stated_options
from mindtable.core.pace import MOST_SECONDS, PACE_NAMES, pace_of
from mindtable.server import storage as db
from mindtable.server.content import HOST, UPLOAD, HostContent, materialize
from mindtable.server.limits import AddressBook, Limits, network_of
from mindtable.server.protocol import json_safe, safe_text, show
from mindtable.server.redis_link import RedisError
from mindtable.server.room import (
    CODE_ALPHABET,
    CODE_LENGTH,
    Room,
    RoomError,
    SeatState,
    Settings,
    hash_token,
    new_code,
)
from mindtable.server.storage import Storage, StoredRoom

if TYPE_CHECKING:
    from mindtable.server.cluster import Cluster
from mindtable.server.streams import Connection, ResumeBudget

log = logging.getLogger("mindtable.server")


@contextlib.asynccontextmanager
async def scratch_folder() -> AsyncIterator[Path]:
    """A temporary folder made and removed off the event loop: a room's creation writes the files its options
    name there, and on a busy disk ``mkdtemp``/``rmtree`` take milliseconds that every other room would wait
    (``benchmarks/loop_stalls.py`` found them among the loop's longest stalls while rooms were being made)."""
    folder = Path(await asyncio.to_thread(tempfile.mkdtemp, prefix="mindtable-room-"))
    try:
        yield folder
    finally:
        await asyncio.to_thread(shutil.rmtree, folder, True)


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
        cluster: Cluster | None = None,
    ) -> None:
        limits = limits or Limits()
        self.content = content or HostContent()
        if max_rooms is not None:
            limits = limits.with_overrides({"max_rooms": max_rooms})
        if rate_per_s is not None:
            limits = limits.with_overrides({"ws_rate_per_s": rate_per_s})
        self.limits = limits
        self.book = AddressBook(limits)
        #: Several processes (``--redis``): leases, forwarding, shared limits; ``None``: this process alone.
        self.cluster = cluster
        if cluster is not None:
            cluster.manager = self
            self.book.shared = cluster.book
        #: Whether :meth:`load` has run (a cluster takes rooms over only then).
        self.started = False
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
        #: Freeze the heap after each game's first room (:meth:`_settle_heap`; the server's ``tune_gc``).
        self.freeze_heap = False
        self._settled: set[str] = set()

    # -- life cycle ----------------------------------------------------------------------------------
    async def load(self) -> None:
        """Rebuild every unfinished room from its record (at start-up). With several processes, the rooms
        nobody owns are taken over a few at a time instead, each by one process (:mod:`.cluster`)."""
        if self.cluster is not None:
            await self.cluster._reconcile()
            self.started = True
            self._sweeper = asyncio.create_task(self._sweep())
            self._lag = asyncio.create_task(self._watch_lag())
            return
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
        self.started = True
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
            if self.cluster is not None:  # taking a room over while others play: off the event loop
                match = await asyncio.to_thread(replay, record, verify=True)
            else:
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
        # Taken over from another process: its seat streams go on where that process left them.
        reached = (
            await self.cluster.restore_streams(room)
            if self.cluster is not None and row["status"] == "playing"
            else None
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
        if room.status != "over":
            room.positions.add(room._fingerprint())
        if room.status == "playing" and room.integrity == "ok":
            # The clock resumes where the last action left it: time while the server was down does not count.
            room.origin = asyncio.get_running_loop().time() - match.clock / 1000
            room.turn_base = match.clock
            await room.catch_up(reached)
            if match.result is not None:  # killed between the last action and marking the room over
                await room._finish()
            else:
                for index in range(room.players):
                    room._start_grace(index)
                room._schedule()
        elif room.status == "over":
            room.over_since = time.monotonic()
            room.let_go_of_play()
            room.release_when_idle()  # loaded for a look (its page, record, replay, rematch): not kept for long
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
        """Every ``interval``: forget idle address entries, expire waiting rooms and uploads, and
        :meth:`sweep_rooms`."""
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
            self.sweep_rooms()

    def sweep_rooms(self, now: float | None = None) -> None:
        """Let go of kept messages past their time (:meth:`Stream.expire`: a quiet stream's too, not only at its
        next push). Free finished rooms: their kept messages a minute after the end (a stream nobody is
        connected to), the rooms themselves ``finished_room_linger_s`` without viewers (they stay in the
        database and are loaded again on demand; each room asks for that itself, :meth:`Room.release_when_idle`:
        this is the safety net). ``now``: ``time.monotonic()``'s, by default now."""
        now = time.monotonic() if now is None else now
        for code, room in list(self.rooms.items()):
            for _, stream in room._all_streams():
                stream.expire(now)
            if room.over_since is None or now - room.over_since < 60:
                continue
            for _, stream in room._all_streams():
                if not stream.conns:
                    stream.clear()  # a late reconnection gets a snapshot (with the result)
            if (
                now - room.over_since > self.limits.finished_room_linger_s
                and not room.spectators.conns
                and not any(seat.conns for seat in room.seats)
                and not room.lock.locked()
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
            if self.cluster is not None:
                self.cluster.room_over(room.code)
            if room.status == "waiting":
                log.info("room %s expired after %.0f s without activity", room.code, time.time() - room.last_active)
                self.forget(room.code)

    def forget(self, code: str, *, close_code: int = 1001) -> None:
        room = self.rooms.pop(code, None)
        if self.cluster is not None:
            self.cluster.release(code)
        if room is None:
            return
        room.shutdown(close_code)
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
        if self.cluster is not None:
            try:
                owner = await self.cluster.claim(code)
            except (ConnectionError, TimeoutError, RedisError, RuntimeError):
                raise RoomError(503, "storage_error", f"room {code} cannot be looked up now; try again") from None
            if owner is not None:
                raise RoomError(503, "room_moving", f"room {code} is served by another process now; try again")
        return await self._load_room(code)

    async def _load_room(self, code: str, check: Callable[[StoredRoom], bool] | None = None) -> Room | None:
        """Load a room from the database, once however many ask at the same time. ``check`` (taking a room
        over): whether the stored room is to be rebuilt at all."""
        room = self.rooms.get(code)
        if room is not None:
            return room
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
            if stored is not None and check is not None and not check(stored):
                stored = None
            room = await self._restore(stored) if stored is not None else None
            if room is not None:
                self.rooms[code] = room
                if self.cluster is not None:
                    log.info("room %s taken over at step %d", code, room.steps)
            elif self.cluster is not None:
                self.cluster.release(code)
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

    async def take_over(self, code: str) -> bool:
        """Rebuild a room whose owner process died (this process holds its lease now). ``False``: it needs
        no owner (unknown, over, expired while waiting, or it cannot be rebuilt: it is loaded on demand)."""
        expired: list[int] = []

        def wanted(stored: StoredRoom) -> bool:
            row = stored.row
            if row["status"] == "over":
                return False
            if row["status"] == "waiting" and self._stale(
                row.get("last_active") or row["created_at"], row["created_at"]
            ):
                expired.append(row["id"])
                return False
            return True

        try:
            room = await self._load_room(code, wanted)
        except RoomError as exc:
            log.error("room %s cannot be rebuilt from its record; it stays closed: %s", code, exc.message)
            return False
        if expired:
            await self.storage.run(lambda c: db.delete_rooms(c, expired))
        return room is not None and room.status != "over"

    async def listed_rooms(self) -> list[dict[str, Any]]:
        """:meth:`public_rooms` of every process of the deployment (this one's alone without ``--redis``)."""
        mine = self.public_rooms()
        if self.cluster is None:
            return mine
        try:
            return await self.cluster.public_rooms(mine)
        except (ConnectionError, TimeoutError, RedisError):
            return mine

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
        async with self._creating(creator, network) as (active, mine, ours):
            return await self._create(
                game_id=game_id,
                players=players,
                options=options,
                bots=bots,
                bot_params=bot_params,
                name=name,
                seat=seat,
                settings=settings,
                address=address,
                rematch_of=rematch_of,
                counts=(active, mine, ours),
                creator=creator,
                network=network,
            )

    @contextlib.asynccontextmanager
    async def _creating(self, creator: str | None, network: str | None) -> AsyncIterator[tuple[int, int, int]]:
        """The unfinished rooms (in all, the creator's, the network's) a new room is counted with; the room
        being created counts from here on, so concurrent creates cannot all pass the same check. With several
        processes the rooms are counted in the database and the ones being created in Redis."""
        holders: list[str | None] = [None, creator, network] if creator is not None else [None]
        if self.cluster is not None:
            try:
                flying = await self.cluster.creating(holders, 1)
                try:
                    total, mine, ours = await self.storage.run(lambda c: db.count_unfinished(c, creator, network))
                except Exception:
                    raise RoomError(503, "storage_error", "the database cannot be reached now; try again") from None
            except (ConnectionError, TimeoutError, RedisError):
                raise RoomError(503, "storage_error", "Redis cannot be reached now; try again") from None
            try:
                yield (
                    total + flying[0] - 1,
                    mine + (flying[1] - 1 if creator is not None else 0),
                    ours + (flying[2] - 1 if network is not None else 0),
                )
            finally:
                await self.cluster.creating(holders, -1)
            return
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
        with self._counted(holders):
            yield active, mine, ours

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
        address: str | None,
        rematch_of: Room | None,
        counts: tuple[int, int, int],
        creator: str | None,
        network: str | None,
    ) -> tuple[Room, int | None, str | None]:
        active, mine, ours = counts
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
        if address is not None and not await self.book.take_async("create", address):
            raise RoomError(
                429, "rate_limited", "too many rooms created from your address lately; try again in a minute"
            )
        try:
            game = get_game(game_id)
        except Exception as exc:
            raise RoomError(404, "unknown_game", safe_text(str(exc))) from None
        try:
            json_safe(options, "options", max_depth=4, max_values=256)
        except ValueError as exc:
            raise RoomError(422, "bad_options", str(exc)) from None
        # The room's defaults (``Option.room_default``, e.g. a few seconds to take a verdict back), then what the
        # creator gave; the engine's own defaults for the rest.
        options = _strict_options(game, room_options(game.option_schema, options))
        seed = secrets.randbelow(2**62)
        uploads: list[str] = []
        async with scratch_folder() as folder:
            files = await self._content_files(game, options, creator, rematch_of, folder, uploads)
            try:
                # Off the event loop: a game's first match reads its content (seconds for a quiz game's
                # thousands of questions) and an uploaded file is read here (checked in its own process
                # first); other rooms go on meanwhile.
                match = await asyncio.to_thread(new_match, game.id, players, seed, options, files=files)
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
        # The bots' pace at this table (the game's default unless the creator gave one); kept with the room.
        pace = game.room_bot_pace if settings.bot_pace is None else settings.bot_pace
        try:
            pace_of(pace)
        except InvalidOptions as exc:
            raise RoomError(
                422, "bad_bot_pace", safe_text(str(exc)), {"allowed": list(PACE_NAMES), "most": MOST_SECONDS}
            ) from None
        settings = replace(settings, bot_pace=pace)
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
        if self.cluster is not None:
            await self.cluster.adopt(code)
        room = Room(self, room_id, code, game, match, settings, seats, "waiting", created_at, creator=creator)
        room.creator_network = network
        for index in seat_bots:
            room.build_bot(index)
        self.rooms[code] = room
        if token is not None and taker is not None:
            self.tokens[hash_token(token)] = (code, taker)
        async with room.lock:
            await room.maybe_start()
        self._settle_heap(game.id)
        return room, taker, token

    def _settle_heap(self, game_id: str) -> None:
        """After the first room of a game (when :attr:`freeze_heap`): what loading it built (its questions,
        compiled answers, caches: ~100,000 objects for the five games) lives as long as the process, so it is
        taken out of the garbage collector's reach (``gc.freeze``) after one full collection. A full collection
        scans everything not frozen and stops the event loop meanwhile: 70-140 ms with that content and 250
        rooms in memory (docs/benchmarks/server.md); once per game, here, it takes that off every later one."""
        if not self.freeze_heap or game_id in self._settled:
            return
        self._settled.add(game_id)
        gc.collect()
        gc.freeze()

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

    @contextlib.contextmanager
    def _counted(self, holders: list[str | None]) -> Iterator[None]:
        """A room being created counts, while it is, for each of ``holders`` (creator, network, all)."""
        for key in holders:
            self.creating[key] = self.creating.get(key, 0) + 1
        try:
            yield
        finally:
            for key in holders:
                left = self.creating[key] - 1
                if left:
                    self.creating[key] = left
                else:
                    del self.creating[key]

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
        await room.lock.acquire()
        while room.closed:
            # Released from memory while this request waited: the stored room (loaded once, whoever else
            # asks now) decides, so that two players never make two rematch rooms.
            room.lock.release()
            room, seat = await self.authorize(code, token)
            await room.lock.acquire()
        try:
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
                    options=stated_options(room.game.option_schema, room.match.options),
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
        finally:
            room.lock.release()
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
