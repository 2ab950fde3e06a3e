"""The server's own work per action, without the network or a load generator: seeded rooms of each game played
in the server's code (``RoomManager``, ``Room.act``, SQLite storage on its thread, a real
:class:`~mindtable.server.streams.Connection` per seat over a socket stand-in that takes every frame at once),
each action timed from ``Room.act`` until it is committed and every frame it made is encoded and handed to the
socket. CPU time, so other processes' load on a shared machine does not count.

    .venv/bin/python benchmarks/action_path.py [--games the-mind,neurorace] [--rooms 3] [--players 4]
        [--profile 25] [--json]

Per game: the actions played, the loop thread's CPU µs per action (``time.thread_time``: what holds the event
loop while other rooms wait; p50, p99, max and mean), the process's (``time.process_time``: the database
thread's share too) and the frames and bytes sent per action. Garbage collection is counted through
``gc.callbacks``: how many collections ran during the actions, of which generation, and their longest pause
(a pause stops the whole loop), with the server's collector settings (``app.GC_THRESHOLDS``, each game's
first room freezing the heap: ``RoomManager._settle_heap``; ``--default-gc``: Python's); and at the end, what
a full collection takes then (the longest pause a collection can make), and without anything frozen.
``--profile N`` plays the same rooms again under ``cProfile`` (only the actions'
spans) and prints the ``N`` functions with the most time of their own and the ``N`` with the most time below
them. Planned actions come from a match played out by the game's first bot beforehand (a virtual clock), as in
``benchmarks/room_memory.py``; the first room of each game warms the process's caches and is not counted.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import json
import platform
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import mindtable
from mindtable.server import app as app_module
from mindtable.server.manager import RoomManager
from mindtable.server.room import Room
from mindtable.server.storage import Storage
from mindtable.server.streams import Connection

sys.path.insert(0, str(Path(__file__).resolve().parent))
from room_memory import planned, seated_room  # the benchmarks' shared room set-up

GAMES = ("the-mind", "neurorace", "carrera-de-mente", "caida-libre", "eesti-malumang")


class Socket:
    """Stands in for a uvicorn WebSocket whose client reads everything at once."""

    def __init__(self) -> None:
        self.scope: dict[str, Any] = {}
        self.frames = 0
        self.bytes = 0

    async def send_text(self, text: str) -> None:
        self.frames += 1
        self.bytes += len(text.encode("utf-8"))

    async def close(self, code: int = 1000) -> None:
        pass


class GcWatch:
    """Garbage collections and their pauses (``gc.callbacks``; CPU time of the loop thread, which they stop),
    counted only while :attr:`on`."""

    def __init__(self) -> None:
        self.on = False
        self.started = 0.0
        self.pauses: list[tuple[int, float]] = []  # (generation, seconds)

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self.started = time.thread_time()
        elif self.on:
            self.pauses.append((info["generation"], time.thread_time() - self.started))


async def _drained(conns: list[Connection]) -> None:
    """Until every connection's writer has sent all it was given."""
    await asyncio.sleep(0)
    while any(not conn._queue.empty() for conn in conns):
        await asyncio.sleep(0)


async def play(
    manager: RoomManager,
    game_id: str,
    players: int,
    seed: int,
    samples: list[tuple[float, float]] | None,
    profile: cProfile.Profile | None = None,
    watch: GcWatch | None = None,
) -> tuple[Room, list[Socket]]:
    """A room of ``players`` seats dealt with ``seed``, played to its end with the actions :func:`planned` for
    it; appends each action's (loop thread CPU s, process CPU s) to ``samples``."""
    room = await seated_room(manager, game_id, players, seed)
    sockets = [Socket() for _ in range(players)]
    conns = [Connection(sock) for sock in sockets]  # type: ignore[arg-type]
    for seat, conn in enumerate(conns):
        conn.seat = seat
        assert await room.attach(conn, seat, 0, None, room.seats[seat].token_hash)
    await _drained(conns)
    actions = planned(game_id, players, seed, room.match.options)
    for action in actions:
        played = room.match.played
        if watch is not None:
            watch.on = True
        if profile is not None:
            profile.enable()
        thread0, process0 = time.thread_time(), time.process_time()
        await room.act(action.get("seat"), action, version=room.version)
        await _drained(conns)
        thread1, process1 = time.thread_time(), time.process_time()
        if profile is not None:
            profile.disable()
        if watch is not None:
            watch.on = False
        if room.match.played != played + 1:
            raise AssertionError(f"{game_id}: the room refused {action}")
        if samples is not None:
            samples.append((thread1 - thread0, process1 - process0))
    assert room.status == "over", room.status
    for conn in conns:
        conn.close()
    await asyncio.gather(*(conn.wait_closed() for conn in conns))
    return room, sockets


def _timed_collect() -> float:
    started = time.thread_time()
    gc.collect()
    return time.thread_time() - started


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def measure(
    game_id: str, rooms: int, players: int, seed: int, profile: cProfile.Profile | None, server_gc: bool = True
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        storage = Storage(f"sqlite:///{Path(folder) / 'rooms.sqlite3'}")
        await asyncio.to_thread(storage.start)
        manager = RoomManager(storage)
        manager.freeze_heap = server_gc  # as the server does (RoomManager._settle_heap)
        watch = GcWatch()
        gc.callbacks.append(watch)
        try:
            warm, _ = await play(manager, game_id, players, seed, None)
            manager.forget(warm.code)
            samples: list[tuple[float, float]] = []
            frames = sent = 0
            for n in range(rooms):
                room, sockets = await play(
                    manager,
                    game_id,
                    players,
                    seed + 1 + n,
                    samples if profile is None else None,
                    profile,
                    watch if profile is None else None,
                )
                frames += sum(sock.frames for sock in sockets)
                sent += sum(sock.bytes for sock in sockets)
                manager.forget(room.code)
            # the longest a collection can stop the loop now: a full one, of what is not frozen, then of all
            full_gc = _timed_collect()
            gc.unfreeze()
            full_gc_unfrozen = _timed_collect()
        finally:
            gc.callbacks.remove(watch)
            await manager.shutdown()
            await asyncio.to_thread(storage.stop)
    if profile is not None:
        return {}
    loop_us = [s[0] * 1e6 for s in samples]
    process_us = [s[1] * 1e6 for s in samples]
    return {
        "game": game_id,
        "rooms": rooms,
        "actions": len(samples),
        "loop_us": {
            "p50": round(_quantile(loop_us, 0.5)),
            "p99": round(_quantile(loop_us, 0.99)),
            "max": round(max(loop_us)),
            "mean": round(statistics.fmean(loop_us)),
        },
        "process_us": {
            "p50": round(_quantile(process_us, 0.5)),
            "p99": round(_quantile(process_us, 0.99)),
            "max": round(max(process_us)),
            "mean": round(statistics.fmean(process_us)),
        },
        "frames_per_action": round(frames / len(samples), 2),
        "bytes_per_action": round(sent / len(samples)),
        "gc": {
            "collections": len(watch.pauses),
            "by_generation": [sum(1 for g, _ in watch.pauses if g == gen) for gen in range(3)],
            "longest_ms": round(max((p for _, p in watch.pauses), default=0.0) * 1000, 2),
            "total_ms": round(sum(p for _, p in watch.pauses) * 1000, 2),
            "full_collection_ms": round(full_gc * 1000, 1),
            "full_collection_unfrozen_ms": round(full_gc_unfrozen * 1000, 1),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--rooms", type=int, default=3, help="seeded rooms measured per game")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", type=int, default=0, help="also profile; show this many functions")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--default-gc", action="store_true", help="Python's collector settings, not the server's (GC_THRESHOLDS)"
    )
    parser.add_argument(
        "--gc-thresholds", help="the collector's thresholds, e.g. 10000,50,100 (instead of the server's)"
    )
    args = parser.parse_args()
    if args.gc_thresholds:
        gc.set_threshold(*(int(n) for n in args.gc_thresholds.split(",")))
    elif not args.default_gc:
        gc.set_threshold(*getattr(app_module, "GC_THRESHOLDS", gc.get_threshold()))
    games = args.games.split(",")
    rows = [
        asyncio.run(measure(game, args.rooms, args.players, args.seed, None, not args.default_gc)) for game in games
    ]
    if args.json:
        print(
            json.dumps(
                {
                    "python": platform.python_version(),
                    "mindtable": mindtable.__version__,
                    "gc_thresholds": gc.get_threshold(),
                    "games": rows,
                }
            )
        )
    else:
        print("CPU µs per action: the loop thread's (p50 / p99 / max / mean), the process's (p99 / mean)")
        print(
            f"{'game':18} {'actions':>7} {'loop p50':>8} {'p99':>7} {'max':>7} {'mean':>6} "
            f"{'proc p99':>8} {'mean':>6} {'frames':>6} {'bytes':>7}  gc (gen0/1/2, longest ms)"
        )
        for r in rows:
            lo, pr, g = r["loop_us"], r["process_us"], r["gc"]
            print(
                f"{r['game']:18} {r['actions']:>7} {lo['p50']:>8} {lo['p99']:>7} {lo['max']:>7} {lo['mean']:>6} "
                f"{pr['p99']:>8} {pr['mean']:>6} {r['frames_per_action']:>6} {r['bytes_per_action']:>7}  "
                f"{g['collections']} ({'/'.join(map(str, g['by_generation']))}, {g['longest_ms']}); "
                f"full {g['full_collection_ms']} ms ({g['full_collection_unfrozen_ms']} unfrozen)"
            )
    if args.profile:
        profile = cProfile.Profile()
        for game in games:
            asyncio.run(measure(game, args.rooms, args.players, args.seed, profile))
        for order in ("tottime", "cumulative"):
            out = io.StringIO()
            pstats.Stats(profile, stream=out).sort_stats(order).print_stats(args.profile)
            print(out.getvalue())


if __name__ == "__main__":
    main()
