"""Eesti mälumäng: knowing-bot games per second through the public API (one core), per variant.

Run: python benchmarks/eesti_malumang_bench.py [--games 100] [--players 4] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import time

import mindtable
from mindtable.core.driver import play_out


def bot_games(variant: str, games: int, players: int) -> dict[str, float]:
    game = mindtable.get_game("eesti-malumang")
    actions = questions = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for seed in range(games):
        match = mindtable.new_match("eesti-malumang", players=players, seed=seed, options={"variant": variant})
        bots = {s: game.make_bot("knowing", seat=s, seed=seed * 10 + s) for s in range(players)}
        result = play_out(match, bots)
        actions += len(match.actions)
        questions += int(result.details["questions"])
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    return {
        "games_per_s": games / elapsed,
        "games_per_cpu_s": games / cpu,
        "actions_per_s": actions / elapsed,
        "questions_per_game": questions / games,
        "actions_per_game": actions / games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    mindtable.new_match("eesti-malumang", players=2)  # warm the content and board caches
    out = {v: bot_games(v, args.games, args.players) for v in ("standard", "outer_track", "cards_only")}
    if args.json:
        print(json.dumps({"python": platform.python_version(), "players": args.players, "results": out}, indent=2))
        return
    for variant, figures in out.items():
        print(
            f"{variant:<12} {figures['games_per_s']:8.1f} bot games/s ({figures['games_per_cpu_s']:.1f} a CPU second)  "
            f"{figures['actions_per_s']:9.0f} actions/s  "
            f"{figures['questions_per_game']:6.1f} questions/game"
        )


if __name__ == "__main__":
    main()
