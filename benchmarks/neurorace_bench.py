"""NeuroRace benchmarks: solve one task, verify the whole deck, bot-race games per second.

Run: ``.venv/bin/python benchmarks/neurorace_bench.py [--games 20] [--json]``.
Targets (docs/benchmarks/neurorace.md): solve median < 5 ms, deck verification < 1 s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import mindtable
from mindtable.core.driver import play_out
from mindtable.games.neurorace.bots import SolverBot
from mindtable.games.neurorace.deck import CARDS, deck_problems
from mindtable.games.neurorace.solver import _tile_candidates, difficulty, solve


def bench_solve(repeats: int = 5) -> dict[str, float]:
    """Median and worst time to solve one deck task, from a cold cache each time."""
    times = []
    for _ in range(repeats):
        for card in CARDS.values():
            for task in card.tasks:
                _tile_candidates.cache_clear()
                started = time.perf_counter()
                solve(task)
                times.append(time.perf_counter() - started)
    return {"median_ms": statistics.median(times) * 1000, "max_ms": max(times) * 1000, "tasks": len(times)}


def bench_difficulty() -> dict[str, float]:
    times = []
    for card in CARDS.values():
        for task in card.tasks:
            started = time.perf_counter()
            difficulty(task)
            times.append(time.perf_counter() - started)
    return {"median_ms": statistics.median(times) * 1000}


def bench_verify(repeats: int = 3) -> dict[str, float]:
    """Whole-deck verification: counts, duplicates, a solver proof per task, the difficulty curve."""
    times = []
    for _ in range(repeats):
        _tile_candidates.cache_clear()
        started = time.perf_counter()
        problems = deck_problems(CARDS.values())
        times.append(time.perf_counter() - started)
        assert problems == [], problems
    return {"best_s": min(times), "median_s": statistics.median(times)}


def bench_race(games: int, players: int = 2) -> dict[str, float]:
    """Full BASIC games (to level 10) between solver bots on the virtual clock."""
    actions = 0
    started = time.perf_counter()
    for seed in range(games):
        match = mindtable.new_match("neurorace", players=players, seed=seed)
        bots = {
            s: SolverBot(seat=s, seed=seed, actions_per_second=2 + s, mistakes_per_task=0.2) for s in range(players)
        }
        play_out(match, bots)
        actions += len(match.actions)
    elapsed = time.perf_counter() - started
    return {
        "games": games,
        "games_per_s": games / elapsed,
        "actions_per_game": actions / games,
        "actions_per_s": actions / elapsed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20, help="bot-race games to play")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    figures = {
        "solve": bench_solve(),
        "difficulty": bench_difficulty(),
        "verify_deck": bench_verify(),
        "bot_race_2p": bench_race(args.games, 2),
        "bot_race_4p": bench_race(max(1, args.games // 2), 4),
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    s, v = figures["solve"], figures["verify_deck"]
    print(
        f"solve one task      median {s['median_ms']:.3f} ms, max {s['max_ms']:.3f} ms over {s['tasks']} solves"
        f"  (target median < 5 ms)"
    )
    print(f"difficulty          median {figures['difficulty']['median_ms']:.3f} ms")
    print(f"verify whole deck   best {v['best_s']:.3f} s, median {v['median_s']:.3f} s  (target < 1 s)")
    for key in ("bot_race_2p", "bot_race_4p"):
        r = figures[key]
        print(
            f"{key:<19} {r['games_per_s']:.2f} games/s, {r['actions_per_game']:.0f} actions/game, "
            f"{r['actions_per_s']:.0f} actions/s ({r['games']} games)"
        )


if __name__ == "__main__":
    main()
