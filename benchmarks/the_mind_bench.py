"""The Mind: engine throughput through the public API, and the vectorised simulator against the engine.

Run: python benchmarks/the_mind_bench.py [--seconds 5] [--games 200] [--batch 100000]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time

import mindtable
from mindtable.core.driver import play_out
from mindtable.games.the_mind.vector import simulate_batch


def api_throughput(seconds: float, players: int) -> dict[str, float]:
    """Actions per second and games per second with legal_actions + apply (one core, no bots)."""
    chooser = random.Random(1)
    actions = games = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        match = mindtable.new_match("the-mind", players=players, seed=seed)
        seed += 1
        now = 0
        while not match.is_over:
            seat = chooser.randrange(players)
            legal = match.legal_actions(seat)
            if not legal:
                continue
            now += 10
            action = legal[0] if legal[0]["type"] != "propose_star" else legal[-1]
            match.apply({**action, "at": now})
            actions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"actions_per_s": actions / elapsed, "games_per_s": games / elapsed, "actions": actions}


def engine_vs_vector(games: int, batch: int, players: int) -> dict[str, float]:
    """Games per second for the proportional bots: per-action engine (virtual clock) vs vectorised."""
    start = time.perf_counter()
    wins = 0
    for seed in range(games):
        match = mindtable.new_match("the-mind", players=players, seed=seed)
        bots = {s: match.game.make_bot("proportional", seat=s, seed=seed) for s in range(players)}
        wins += bool(play_out(match, bots).winners)
    engine_rate = games / (time.perf_counter() - start)
    start = time.perf_counter()
    results = simulate_batch(players, {}, "proportional", {}, batch, seed=7)
    vector_rate = batch / (time.perf_counter() - start)
    return {
        "engine_games_per_s": engine_rate,
        "engine_win_rate": wins / games,
        "vector_games_per_s": vector_rate,
        "vector_win_rate": sum(bool(r.winners) for r in results) / batch,
        "speedup": vector_rate / engine_rate,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--games", type=int, default=200, help="engine games for the comparison")
    parser.add_argument("--batch", type=int, default=100_000, help="vectorised games for the comparison")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    report = {
        "machine": f"{platform.processor() or platform.machine()}, Python {platform.python_version()}",
        "api": api_throughput(args.seconds, args.players),
        "bots": engine_vs_vector(args.games, args.batch, args.players),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
