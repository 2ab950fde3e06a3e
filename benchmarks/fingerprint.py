"""The server's position fingerprint per action (``Room._fingerprint``), in seeded knowing-bot games of the quiz
games: the time per action now, and with the shortcuts off (every part but the memo's) for a ratio in one run.

    .venv/bin/python benchmarks/fingerprint.py [--games 5]

The fingerprint runs after every accepted action to tell progress from going round in circles (docs/benchmarks/
server.md); the quiz games' states carry 40-500 KB of questions that no move changes."""

from __future__ import annotations

import argparse
import json
import platform
import time
from types import SimpleNamespace
from typing import Any

import mindtable
from mindtable.core.driver import play_out
from mindtable.server.room import Room

GAMES = ("caida-libre", "carrera-de-mente", "eesti-malumang")


def per_action_ms(game_id: str, games: int, fixed: bool) -> float:
    """Mean ms of one fingerprint after each action of ``games`` seeded 3-player games."""
    spent, actions = 0.0, 0
    for seed in range(games):
        match = mindtable.new_match(game_id, players=3, seed=seed)
        game = match.game if fixed else SimpleNamespace(fixed_state=())
        room: Any = SimpleNamespace(match=match, game=game, _digests={})
        bots = {s: match.game.make_bot("knowing", seat=s, seed=seed + s) for s in range(3)}

        def fingerprint(action: dict[str, Any], events: list[Any], room: Any = room) -> None:
            nonlocal spent, actions
            started = time.perf_counter()
            Room._fingerprint(room)
            spent += time.perf_counter() - started
            actions += 1

        play_out(match, bots, on_events=fingerprint)
    return spent / actions * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    report: dict[str, Any] = {"machine": f"{platform.machine()} {platform.python_version()}"}
    for game_id in GAMES:
        all_parts = per_action_ms(game_id, args.games, fixed=False)
        now = per_action_ms(game_id, args.games, fixed=True)
        report[game_id] = {"ms_all_parts": round(all_parts, 4), "ms": round(now, 4), "ratio": round(all_parts / now, 1)}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
