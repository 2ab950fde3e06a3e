"""Environment steps per second of every mindtable RL environment beside PettingZoo's and OpenSpiel's own, in one run.

    PYTHONPATH=. .venv/bin/python benchmarks/rl_envs.py                 # the table (about a minute)
    PYTHONPATH=. .venv/bin/python benchmarks/rl_envs.py --steps 2000 --json rl.json

Each workload plays uniformly random *legal* actions (sampled with the action mask) from fixed seeds, resetting
when an episode ends, for a fixed number of steps, and counts CPU time (``time.process_time``, the least of
``--repeat`` runs: on a shared machine a run is only ever slowed down by others). A step is one ``env.step`` call:

* AEC (PettingZoo): one agent's action — the quiz games, and PettingZoo's ``connect_four_v3`` and
  ``leduc_holdem_v4`` (they need ``pygame`` and ``rlcard``; without them their rows say so);
* Parallel: one tick for all agents (agent-steps are ticks × agents); Gymnasium: one SOLO tick;
* OpenSpiel: one ``apply_action`` (chance outcomes included) — the quiz games and OpenSpiel's ``python_kuhn_poker``.

Nothing is downloaded: the libraries are the ``[rl]`` extra's.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from measures import _timed


def aec_steps(make: Callable[[], Any], steps: int) -> Callable[[], int]:
    def run() -> int:
        env = make()
        episode = 0
        env.reset(seed=episode)
        for agent in range(steps):
            del agent
            agent = env.agent_selection
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                if not env.agents:
                    episode += 1
                    env.reset(seed=episode)
                continue
            mask = obs["action_mask"] if isinstance(obs, dict) else None
            env.step(env.action_space(agent).sample(mask))
        return steps

    return run


def parallel_steps(make: Callable[[], Any], steps: int) -> Callable[[], int]:
    def run() -> int:
        env = make()
        episode = 0
        obs, _ = env.reset(seed=episode)
        for _ in range(steps):
            if not env.agents:
                episode += 1
                obs, _ = env.reset(seed=episode)
            actions = {a: env.action_space(a).sample(obs[a]["action_mask"]) for a in env.agents}
            obs, *_ = env.step(actions)
        return steps

    return run


def gym_steps(make: Callable[[], Any], steps: int) -> Callable[[], int]:
    def run() -> int:
        env = make()
        episode = 0
        obs, _ = env.reset(seed=episode)
        for _ in range(steps):
            obs, _, term, trunc, _ = env.step(env.action_space.sample(obs["action_mask"]))
            if term or trunc:
                episode += 1
                obs, _ = env.reset(seed=episode)
        return steps

    return run


def spiel_steps(load: Callable[[], Any], steps: int) -> Callable[[], int]:
    def run() -> int:
        game = load()
        chooser = random.Random(1)
        state = game.new_initial_state()
        for _ in range(steps):
            if state.is_terminal():
                state = game.new_initial_state()
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(chooser.choices(outcomes, weights)[0])
            else:
                state.apply_action(chooser.choice(state.legal_actions()))
        return steps

    return run


def workloads(steps: int) -> list[tuple[str, str, Callable[[], int] | str]]:
    """(kind, name, workload or the reason it cannot run)."""
    out: list[tuple[str, str, Callable[[], int] | str]] = []
    from mindtable.rl import caida_libre, carrera_de_mente, eesti_malumang, neurorace, the_mind

    out.append(
        (
            "AEC",
            "carrera_de_mente_v0 (3 players, small board)",
            aec_steps(lambda: carrera_de_mente.env(players=3, options={"board": "small"}), steps),
        )
    )
    out.append(
        (
            "AEC",
            "caida_libre_v0 (3 players)",
            aec_steps(lambda: caida_libre.env(players=3, options={"language": "en"}), steps),
        )
    )
    out.append(
        (
            "AEC",
            "eesti_malumang_v0 (3 players)",
            aec_steps(lambda: eesti_malumang.env(players=3, options={"language": "en"}), steps),
        )
    )
    try:
        from pettingzoo.classic import connect_four_v3, leduc_holdem_v4

        out.append(("AEC", "PettingZoo connect_four_v3", aec_steps(connect_four_v3.env, steps)))
        out.append(("AEC", "PettingZoo leduc_holdem_v4", aec_steps(leduc_holdem_v4.env, steps)))
    except ImportError as exc:
        out.append(("AEC", "PettingZoo classic", f"not installed ({exc.name}): pip install pygame rlcard"))
    out.append(
        (
            "Parallel",
            "the_mind_v0 (2 players, 250 ms ticks)",
            parallel_steps(lambda: the_mind.parallel_env(players=2), steps),
        )
    )
    out.append(
        (
            "Parallel",
            "neurorace_v0 (2 players BASIC, 250 ms ticks)",
            parallel_steps(lambda: neurorace.parallel_env(players=2), steps // 4),
        )
    )
    out.append(("Gymnasium", "mindtable/NeuroRaceSolo-v0", gym_steps(neurorace.SoloEnv, steps // 4)))
    try:
        import pyspiel
        from open_spiel.python.games import kuhn_poker  # noqa: F401  # registers python_kuhn_poker

        import mindtable.rl.openspiel  # noqa: F401  # registers the games

        for name, options in (
            ("mindtable_carrera_de_mente", "board:small"),
            ("mindtable_caida_libre", "language:en"),
            ("mindtable_eesti_malumang", "language:en"),
        ):
            out.append(
                (
                    "OpenSpiel",
                    f"{name} (2 players)",
                    spiel_steps(lambda n=name, o=options: pyspiel.load_game(n, {"players": 2, "options": o}), steps),
                )
            )
        out.append(
            (
                "OpenSpiel",
                "OpenSpiel python_kuhn_poker",
                spiel_steps(lambda: pyspiel.load_game("python_kuhn_poker"), steps),
            )
        )
    except ImportError as exc:
        out.append(("OpenSpiel", "OpenSpiel", f"not installed ({exc.name})"))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=3000, help="steps per workload (NeuroRace: a quarter)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per workload; the fastest counts")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    np.random.seed(0)
    rows = []
    print(f"{'kind':<10} {'environment':<50} {'steps/s':>10}")
    for kind, name, work in workloads(args.steps):
        if isinstance(work, str):
            rows.append({"kind": kind, "env": name, "steps_per_s": None, "note": work})
            print(f"{kind:<10} {name:<50} {'-':>10}  {work}")
            continue
        units, cpu = _timed(work, args.repeat)
        rate = units / cpu if cpu else float("inf")
        rows.append({"kind": kind, "env": name, "steps": units, "cpu_s": round(cpu, 4), "steps_per_s": round(rate)})
        print(f"{kind:<10} {name:<50} {rate:>10,.0f}", flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({"python": sys.version.split()[0], "rows": rows}, handle, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
