"""How fast could the engine measure get if ``Match.apply`` checked nothing? (the target of 0.6× the bare loop)

Runs the engine measure's workload (``measures.first_legal_games``: The Mind through ``legal_actions`` and
``apply``, a random seat taking its first legal action) three ways in one process, interleaved over rounds:

- ``engine``: as shipped;
- ``unchecked``: the same, with every generated one-pass check replaced by one that accepts the action as given
  (no envelope, no gate, no domain: what no server may do). This is a ceiling for any scheme that skips checks,
  such as trusting an action that was just listed;
- ``bare``: the bare Python loop of the same game (``measures.bare_games``).

    .venv/bin/python benchmarks/engine_ceiling.py [--games 3000] [--rounds 3]

It prints actions per CPU-second and the ratios to the bare loop within each round.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import measures  # the sibling module, found through the path set just above


def _rate(run: Callable[[int], int], games: int) -> float:
    gc.collect()
    start = time.process_time()
    actions = run(games)
    return actions / (time.process_time() - start)


def _accept_as_given(state: Any, action: dict[str, Any], players: int, clock: int, realtime: bool) -> dict[str, Any]:
    return action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    import mindtable

    table = mindtable.new_match("the-mind", players=2, seed=0)._table
    assert table is not None, "The Mind takes its checks from its move table"
    checks = dict(table.checks)
    measures.first_legal_games(50)  # warm up
    measures.bare_games(50)
    rows: dict[str, list[float]] = {"engine": [], "unchecked": [], "bare": []}
    for _ in range(args.rounds):
        table.checks.update(checks)
        rows["engine"].append(_rate(measures.first_legal_games, args.games))
        table.checks.update({kind: _accept_as_given for kind in checks})
        rows["unchecked"].append(_rate(measures.first_legal_games, args.games))
        table.checks.update(checks)
        rows["bare"].append(_rate(measures.bare_games, args.games))
    for name, rates in rows.items():
        ratios = ", ".join(f"{rate / bare:.2f}" for rate, bare in zip(rates, rows["bare"], strict=True))
        print(f"{name:10} {', '.join(f'{rate:,.0f}' for rate in rates)} actions/s; × bare per round: {ratios}")


if __name__ == "__main__":
    main()
