"""Carrera de Mente: bot games per second through the public API (knowledge bots in every seat).

.venv/bin/python benchmarks/carrera_de_mente_bench.py [--games 40] [--players 4] [--board standard] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import mindtable
from mindtable.core.driver import play_out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--board", default="standard")
    parser.add_argument("--knows", type=float, default=None, help="the bots' knows (default: the bot's own)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    game = mindtable.get_game("carrera-de-mente")
    game.make_bot("knowing", 0)  # read the booklets once, outside the timing
    mindtable.new_match("carrera-de-mente", players=args.players, options={"board": args.board})
    actions, turns = [], []
    started, cpu_started = time.perf_counter(), time.process_time()
    for seed in range(args.games):
        match = mindtable.new_match("carrera-de-mente", players=args.players, seed=seed, options={"board": args.board})
        params = {} if args.knows is None else {"knows": args.knows}
        bots = {s: game.make_bot("knowing", s, seed=seed, **params) for s in range(args.players)}
        result = play_out(match, bots)
        actions.append(len(match.actions))
        turns.append(result.details["turns"])
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    out = {
        "games": args.games,
        "players": args.players,
        "board": args.board,
        "games_per_second": round(args.games / elapsed, 2),
        "games_per_cpu_second": round(args.games / cpu, 2),
        "actions_per_second": round(sum(actions) / elapsed),
        "mean_actions_per_game": round(statistics.mean(actions), 1),
        "mean_turns_per_game": round(statistics.mean(turns), 1),
    }
    print(json.dumps(out) if args.json else "\n".join(f"{k}: {v}" for k, v in out.items()))


if __name__ == "__main__":
    main()
