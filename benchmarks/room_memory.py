"""What one played room holds in the server's memory: ``tracemalloc``'s traced bytes of a room of four, played
to its end in the server's own code (``RoomManager``, ``Room.act``, its streams and storage), for each game.

    .venv/bin/python benchmarks/room_memory.py [--games carrera-de-mente,eesti-malumang] [--players 4] [--json]

Each game: a seeded match is played out by the game's first bot (a virtual
clock, as ``mindtable.core.driver``), and its actions are then played in the room one by one, each seat with a
connection that reads everything (its stream keeps what a reconnecting client would be sent). Reported: the
traced bytes the room adds (kept in the manager, finished, its players still connected, as in the first
minute after a game), the traced peak while it played, the bytes its streams keep for reconnecting clients
(``ResumeBudget.used``) and the number of actions. A first room of the same game is played and forgotten
before, so that what is loaded once per process (content, caches) is not counted. ``tests/server/
test_memory.py`` bounds a played Carrera and Eesti room of four.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import platform
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any
from unittest import mock

import mindtable
from mindtable.core.driver import play_out
from mindtable.server import manager as manager_module
from mindtable.server.manager import RoomManager
from mindtable.server.room import Room, Settings
from mindtable.server.storage import Storage

GAMES = ("the-mind", "neurorace", "carrera-de-mente", "caida-libre", "eesti-malumang", "stepping-stones")


class Reader:
    """Stands in for a WebSocket connection that reads every message at once."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.closed = False
        self.frames = 0

    def send(self, text: str) -> None:
        self.frames += 1

    def send_message(self, message: dict[str, Any]) -> None:
        self.frames += 1

    def close(self, code: int = 1000) -> None:
        self.closed = True


def planned(game_id: str, players: int, seed: int, options: dict[str, Any]) -> list[dict[str, Any]]:
    """The actions of a seeded match of ``game_id`` played out by the game's first bot (a virtual clock)."""
    match = mindtable.new_match(game_id, players=players, seed=seed, options=options)
    bot = next(iter(match.game.bots))
    play_out(match, {s: match.game.make_bot(bot, seat=s, seed=seed + s) for s in range(players)})
    return match.actions


async def seated_room(manager: RoomManager, game_id: str, players: int, seed: int) -> Room:
    """A new room of ``game_id`` dealt with ``seed`` (the server's random seed patched), its ``players`` seats
    taken by people named P0, P1, …"""
    with mock.patch.object(manager_module.secrets, "randbelow", lambda _n: seed):  # the room's seed
        room, _, _ = await manager.create(
            game_id=game_id,
            players=players,
            options={},
            bots={},
            bot_params={},
            name="P0",
            seat=None,
            settings=Settings(),
        )
    for index in range(1, players):
        await manager.join(room.code, f"P{index}", None)
    return room


async def play_room(
    manager: RoomManager, game_id: str, players: int, seed: int, actions: list[dict[str, Any]] | None = None
) -> Room:
    """A room of ``players`` people (every seat human, each with a connection) dealt with ``seed``, in which
    ``actions`` (:func:`planned` with that seed and the room's options; by default planned here) are played to
    the match's end."""
    room = await seated_room(manager, game_id, players, seed)
    assert room.seed == seed
    assert room.status == "playing", room.status
    for seat in range(players):
        conn: Any = Reader(seat)
        assert await room.attach(conn, seat, 0, None, room.seats[seat].token_hash)
    if actions is None:
        actions = planned(game_id, players, seed, room.match.options)
    for action in actions:
        played = room.match.played
        # with the room's version: the action's own time stands (the room is played faster than real time)
        await room.act(action.get("seat"), action, version=room.version)
        assert room.match.played == played + 1, f"{game_id}: the room refused {action}"
    assert room.status == "over", room.status
    return room


async def measure(game_id: str, players: int = 4, seed: int = 1) -> dict[str, Any]:
    """The traced bytes of one played room of ``game_id`` (see the module's docstring)."""
    with tempfile.TemporaryDirectory() as folder:
        storage = Storage(f"sqlite:///{Path(folder) / 'rooms.sqlite3'}")
        await asyncio.to_thread(storage.start)
        manager = RoomManager(storage)
        try:
            warm = await play_room(manager, game_id, players, seed)  # content and caches loaded once per process
            options = warm.match.options
            manager.forget(warm.code)
            del warm
            gc.collect()
            # planned before tracing: what judging its answers compiles is the process's cache, not the room's
            actions = planned(game_id, players, seed + 100, options)
            started = not tracemalloc.is_tracing()
            if started:
                tracemalloc.start()
            try:
                gc.collect()
                before = tracemalloc.get_traced_memory()[0]
                tracemalloc.reset_peak()
                room = await play_room(manager, game_id, players, seed + 100, actions)
                gc.collect()
                after, peak = tracemalloc.get_traced_memory()
                resume = manager.resume_budget.used
                # A minute later, the players still connected: the server's sweep (lets expired messages go)
                sweep = getattr(manager, "sweep_rooms", None)
                if sweep is not None:
                    sweep(time.monotonic() + 61)
                gc.collect()
                later = tracemalloc.get_traced_memory()[0]
            finally:
                if started:
                    tracemalloc.stop()
            figures = {
                "game": game_id,
                "players": players,
                "actions": room.match.played,
                "traced_kb": round((after - before) / 1024, 1),
                "peak_kb": round((peak - before) / 1024, 1),
                "resume_kb": round(resume / 1024, 1),
                "traced_kb_a_minute_later": round((later - before) / 1024, 1),
                "resume_kb_a_minute_later": round(manager.resume_budget.used / 1024, 1),
            }
            manager.forget(room.code)
        finally:
            await manager.shutdown()
            await asyncio.to_thread(storage.stop)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [asyncio.run(measure(game, args.players, args.seed)) for game in args.games.split(",")]
    if args.json:
        print(json.dumps({"python": platform.python_version(), "mindtable": mindtable.__version__, "rooms": rows}))
        return
    print(f"{'game':18} {'actions':>7} {'traced KB':>10} {'peak KB':>9} {'resume KB':>10} {'a minute later':>15}")
    for row in rows:
        print(
            f"{row['game']:18} {row['actions']:>7} {row['traced_kb']:>10} {row['peak_kb']:>9} {row['resume_kb']:>10} "
            f"{row['traced_kb_a_minute_later']:>9} ({row['resume_kb_a_minute_later']})"
        )


if __name__ == "__main__":
    main()
