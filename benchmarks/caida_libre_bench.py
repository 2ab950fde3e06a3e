"""Caída Libre benchmarks: knowledge-bot games per second through the engine (``play_out`` on the virtual clock).

Run: ``.venv/bin/python benchmarks/caida_libre_bench.py [--games 40] [--json]``.
Every game is a whole game to Free Fall with the ``knowing`` bot (knows 0.6) in every seat, pack 1, Spanish;
each row reports games/s, actions/s and the mean number of cards a game plays.
"""

from __future__ import annotations

import argparse
import json
import time

import mindtable
from mindtable.core.driver import play_out
from mindtable.games.caida_libre import GAME

if GAME.id not in mindtable.available_game_ids():
    mindtable.register_game(GAME)


def bench(players: int, games: int, seed: int = 0) -> dict[str, float]:
    actions = cards = 0
    started, cpu_started = time.perf_counter(), time.process_time()
    for i in range(games):
        match = mindtable.new_match("caida-libre", players=players, seed=seed + i)
        bots = {s: match.game.make_bot("knowing", seat=s, seed=seed + i) for s in range(players)}
        result = play_out(match, bots)
        actions += len(match.actions)
        cards += int(result.details["progress"])
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    return {
        "players": players,
        "games": games,
        "games_per_s": games / elapsed,
        "games_per_cpu_s": games / cpu,
        "actions_per_s": actions / elapsed,
        "cards_per_game": cards / games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40, help="games per player count")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    rows = [bench(players, args.games) for players in (2, 4, 8)]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for row in rows:
        print(
            f"{row['players']} players: {row['games_per_s']:.1f} games/s ({row['games_per_cpu_s']:.1f} a CPU second), "
            f"{row['actions_per_s']:,.0f} actions/s, "
            f"{row['cards_per_game']:.1f} cards a game"
        )


if __name__ == "__main__":
    main()
