"""The same simulation on this machine's process pool and on a local Ray, 1 and 2 workers, in one run.

    .venv/bin/python benchmarks/sim_backends.py              # Carrera de Mente, 40 bot games of 3 players
    .venv/bin/python benchmarks/sim_backends.py --game caida-libre --games 200 --players 4

Ray is started once for each worker count before its timing (its start-up, 5-10 s here, is reported apart:
a cluster is started once for many studies). Each figure is games per second of wall time, the best of
``--rounds`` runs; the summaries of every run must be equal (the script stops otherwise). Needs
``mindtable[cluster]``.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import ray

from mindtable.core.registry import get_game
from mindtable.sim.runner import run_simulation


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="carrera-de-mente")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    bot = next(iter(get_game(args.game).bots))
    common = {"players": args.players, "bot": bot, "games": args.games, "seed": 5, "engine": "match"}
    figures: dict[str, float] = {}
    summaries = []
    for workers in (1, 2):
        best = float("inf")
        for _ in range(args.rounds):
            started = time.perf_counter()
            summaries.append(run_simulation(args.game, workers=workers, **common).summary)
            best = min(best, time.perf_counter() - started)
        figures[f"local, {workers} worker(s)"] = args.games / best
    for workers in (1, 2):
        started = time.perf_counter()
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, configure_logging=False)
        figures[f"ray start-up, {workers} CPU(s), s"] = time.perf_counter() - started
        best = float("inf")
        for _ in range(args.rounds):
            started = time.perf_counter()
            summaries.append(run_simulation(args.game, workers=workers, backend="ray", **common).summary)
            best = min(best, time.perf_counter() - started)
        figures[f"ray, {workers} worker(s)"] = args.games / best
        ray.shutdown()
    if any(s != summaries[0] for s in summaries):
        raise SystemExit("the backends disagree: not a benchmark of the same work")
    loadavg = Path("/proc/loadavg")
    load = loadavg.read_text().split()[0] if loadavg.exists() else "?"
    print(
        json.dumps(
            {
                "game": args.game,
                "games": args.games,
                "cpus": os.cpu_count(),
                "load_1min": load,
                **{k: round(v, 2) for k, v in figures.items()},
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
