"""Environment steps per second of every mindtable RL environment beside PettingZoo's and OpenSpiel's own, in one run.

    PYTHONPATH=. .venv/bin/python benchmarks/rl_envs.py                     # 3 interleaved rounds, the table
    PYTHONPATH=. .venv/bin/python benchmarks/rl_envs.py --write-docs        # ... and put it into docs/benchmarks.md
    PYTHONPATH=. .venv/bin/python benchmarks/rl_envs.py --rounds 1 --steps 1000 --json rl.json   # a quick look

Each workload plays uniformly random *legal* actions from fixed seeds (the action spaces are seeded too, so every
run does the same work), resetting when an episode ends, for a fixed number of steps. Environments are built and
run once before timing (imports, the judge's caches, the question files: a training run pays them once); the figure
is CPU time (``time.process_time``), the least of ``--repeat`` runs within a round. Rounds are interleaved (round 1
runs every workload, then round 2 ...): a figure is the median over rounds, a ratio the median of the ratios
measured within one round (the machine may be shared: other work only ever slows a run down). A step is:

* AEC (PettingZoo): one ``env.step`` — one agent's action, sampled from ``action_mask`` with the agent's action
  space, or ``None`` for a finished agent — the quiz games, and PettingZoo's ``connect_four_v3`` and
  ``leduc_holdem_v4`` in the same loop (they need ``pygame`` and ``rlcard``, the ``[bench]`` extra; without them
  their rows say so). The quiz spaces sample faster than gymnasium's ``Discrete`` the references use (the same
  actions): each quiz game has a second row drawing with gymnasium's ``Discrete.sample``, as the references do;
* AEC rules: the match calls one quiz AEC run makes (``new_match``, ``to_act``, ``legal_actions``, ``apply``),
  recorded once and replayed without the environment: the part of those steps no environment can save;
* Parallel: one tick for all agents; Gymnasium: one SOLO tick;
* OpenSpiel: one ``apply_action`` (chance outcomes included) — the quiz games and OpenSpiel's ``python_kuhn_poker``;
* The Mind engine: one ``match.apply`` through the public API (``new_match``, ``legal_actions``, ``apply``: a random
  seat takes its first legal action — ``benchmarks/measures.py``'s ``engine`` workload), beside
  ``python_kuhn_poker``'s ``apply_action`` (the same loop as ``measures.py``'s ``openspiel``).

Nothing is downloaded: the libraries are the ``[rl]`` and ``[bench]`` extras'.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from measures import _timed, first_legal_games, kuhn_games  # noqa: E402

#: A workload's set-up (not timed): builds what it needs and returns the timed run, which returns its units.
Setup = Callable[[], Callable[[], int]]
BEGIN, END = "<!-- benchmarks/rl_envs.py: begin -->", "<!-- benchmarks/rl_envs.py: end -->"
#: The PettingZoo references every quiz AEC environment is compared with, and The Mind engine's.
AEC_REFERENCES = ("connect_four", "leduc_holdem")
KUHN = "kuhn"


def aec_steps(make: Callable[[], Any], steps: int, gymnasium_sample: bool = False) -> Setup:
    """``steps`` AEC steps; ``gymnasium_sample``: each agent's action drawn by gymnasium's own ``Discrete(n)``,
    seeded as the agent's space is (the same actions as the quiz spaces' faster sample draw), as the references'
    spaces draw them."""

    def setup() -> Callable[[], int]:
        from gymnasium.spaces import Discrete

        env = make()
        plain = {a: Discrete(env.action_space(a).n) for a in env.possible_agents} if gymnasium_sample else {}

        def run() -> int:
            for index, agent in enumerate(env.possible_agents):
                env.action_space(agent).seed(index)
                if gymnasium_sample:
                    plain[agent].seed(index)
            episode = 0
            env.reset(seed=episode)
            for _ in range(steps):
                agent = env.agent_selection
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    if not env.agents:
                        episode += 1
                        env.reset(seed=episode)
                    continue
                mask = obs["action_mask"] if isinstance(obs, dict) else None
                space = env.action_space(agent)
                if gymnasium_sample:
                    space = plain[agent]
                env.step(space.sample(mask))
            return steps

        return run

    return setup


def aec_rules(make: Callable[[], Any], steps: int) -> Setup:
    """The match calls :func:`aec_steps`'s loop makes (``new_match``, ``to_act``, ``legal_actions``, ``apply``),
    recorded once and replayed on their own: the rules' share of those steps, with no environment around them (the
    knowing bot's answers to ``know`` are not in it). A figure is the steps replayed per second."""

    def setup() -> Callable[[], int]:
        import copy

        import mindtable
        from mindtable.core.match import Match

        calls: list[tuple[Any, ...]] = []
        new_match, apply, legal, to_act = mindtable.new_match, Match.apply, Match.legal_actions, Match.to_act

        def record_new(game: str, **kwargs: Any) -> Any:
            calls.append(("new", game, copy.deepcopy(kwargs)))
            return new_match(game, **kwargs)

        def record_apply(match: Match, action: Any) -> Any:
            calls.append(("apply", copy.deepcopy(action)))
            return apply(match, action)

        def record_legal(match: Match, seat: int) -> Any:
            calls.append(("legal", seat))
            return legal(match, seat)

        def record_to_act(match: Match) -> Any:
            calls.append(("to_act",))
            return to_act(match)

        loop = aec_steps(make, steps)()
        recorders = {"apply": record_apply, "legal_actions": record_legal, "to_act": record_to_act}
        mindtable.new_match = record_new  # type: ignore[assignment]
        for name, recorder in recorders.items():
            setattr(Match, name, recorder)
        try:
            loop()
        finally:
            mindtable.new_match = new_match
            for name, method in (("apply", apply), ("legal_actions", legal), ("to_act", to_act)):
                setattr(Match, name, method)

        def run() -> int:
            match: Any = None
            for call in calls:
                kind = call[0]
                if kind == "apply":
                    match.apply(dict(call[1]))
                elif kind == "legal":
                    match.legal_actions(call[1])
                elif kind == "to_act":
                    match.to_act()
                else:
                    match = new_match(call[1], **call[2])
            return steps

        return run

    return setup


def parallel_steps(make: Callable[[], Any], steps: int) -> Setup:
    def setup() -> Callable[[], int]:
        env = make()

        def run() -> int:
            for index, agent in enumerate(env.possible_agents):
                env.action_space(agent).seed(index)
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

    return setup


def gym_steps(make: Callable[[], Any], steps: int) -> Setup:
    def setup() -> Callable[[], int]:
        env = make()

        def run() -> int:
            env.action_space.seed(0)
            episode = 0
            obs, _ = env.reset(seed=episode)
            for _ in range(steps):
                obs, _, term, trunc, _ = env.step(env.action_space.sample(obs["action_mask"]))
                if term or trunc:
                    episode += 1
                    obs, _ = env.reset(seed=episode)
            return steps

        return run

    return setup


def spiel_steps(load: Callable[[], Any], steps: int) -> Setup:
    def setup() -> Callable[[], int]:
        import random

        game = load()

        def run() -> int:
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

    return setup


def engine_actions(games: int) -> Setup:
    def setup() -> Callable[[], int]:
        return lambda: first_legal_games(games)

    return setup


def kuhn_actions(games: int) -> Setup:
    def setup() -> Callable[[], int]:
        import pyspiel
        from open_spiel.python.games import kuhn_poker  # noqa: F401  # registers python_kuhn_poker

        game = pyspiel.load_game("python_kuhn_poker")
        return lambda: kuhn_games(game, games)[0]

    return setup


#: (key, kind, name, set-up or the reason it cannot run)
Workload = tuple[str, str, str, Setup | str]


def workloads(steps: int, games: int) -> list[Workload]:
    from mindtable.rl import caida_libre, carrera_de_mente, eesti_malumang, neurorace, the_mind

    quiz: list[tuple[str, str, Callable[[], Any]]] = [
        (
            "carrera",
            "carrera_de_mente_v0 (3 players, small board)",
            lambda: carrera_de_mente.env(players=3, options={"board": "small"}),
        ),
        ("caida", "caida_libre_v0 (3 players)", lambda: caida_libre.env(players=3, options={"language": "en"})),
        ("eesti", "eesti_malumang_v0 (3 players)", lambda: eesti_malumang.env(players=3, options={"language": "en"})),
    ]
    out: list[Workload] = [(key, "AEC", name, aec_steps(make, steps)) for key, name, make in quiz]
    out += [
        (f"{key}_gym", "AEC", f"{name}, gymnasium's Discrete.sample", aec_steps(make, steps, gymnasium_sample=True))
        for key, name, make in quiz
    ]
    try:
        from pettingzoo.classic import connect_four_v3

        out.append(("connect_four", "AEC", "PettingZoo connect_four_v3", aec_steps(connect_four_v3.env, steps)))
    except ImportError as exc:
        out.append(("connect_four", "AEC", "PettingZoo connect_four_v3", _missing(exc)))
    try:
        from pettingzoo.classic import leduc_holdem_v4

        out.append(("leduc_holdem", "AEC", "PettingZoo leduc_holdem_v4", aec_steps(leduc_holdem_v4.env, steps)))
    except ImportError as exc:
        out.append(("leduc_holdem", "AEC", "PettingZoo leduc_holdem_v4", _missing(exc)))
    out += [
        (f"{key}_rules", "AEC rules", f"{name.split(' ')[0]}: its match calls alone", aec_rules(make, steps))
        for key, name, make in quiz
    ]
    out += [
        (
            "the_mind",
            "Parallel",
            "the_mind_v0 (2 players, 250 ms ticks)",
            parallel_steps(lambda: the_mind.parallel_env(players=2), steps),
        ),
        (
            "neurorace",
            "Parallel",
            "neurorace_v0 (2 players BASIC, 250 ms ticks)",
            parallel_steps(lambda: neurorace.parallel_env(players=2), steps // 4),
        ),
        ("solo", "Gymnasium", "mindtable/NeuroRaceSolo-v0", gym_steps(neurorace.SoloEnv, steps // 4)),
    ]
    try:
        import pyspiel
        from open_spiel.python.games import kuhn_poker  # noqa: F401  # registers python_kuhn_poker

        import mindtable.rl.openspiel  # noqa: F401  # registers the games

        for key, name, options in (
            ("spiel_carrera", "mindtable_carrera_de_mente", "board:small"),
            ("spiel_caida", "mindtable_caida_libre", "language:en"),
            ("spiel_eesti", "mindtable_eesti_malumang", "language:en"),
        ):
            load = lambda n=name, o=options: pyspiel.load_game(n, {"players": 2, "options": o})  # noqa: E731
            out.append((key, "OpenSpiel", f"{name} (2 players)", spiel_steps(load, steps)))
        out.append(
            (
                "spiel_kuhn",
                "OpenSpiel",
                "OpenSpiel python_kuhn_poker",
                spiel_steps(lambda: pyspiel.load_game("python_kuhn_poker"), steps),
            )
        )
        kuhn: Setup | str = kuhn_actions(games * 3)
    except ImportError as exc:
        out.append(("spiel", "OpenSpiel", "OpenSpiel", _missing(exc)))
        kuhn = _missing(exc)
    out.append(("engine", "engine", "The Mind engine, public API (legal_actions + apply)", engine_actions(games)))
    out.append((KUHN, "engine", "OpenSpiel python_kuhn_poker, every apply_action", kuhn))
    return out


def _missing(exc: ImportError) -> str:
    return f"not installed ({exc.name}): pip install -e '.[rl,bench]'"


def _package(name: str) -> str:
    try:
        return f"{name} {version(name)}"
    except PackageNotFoundError:
        return f"{name} (not installed)"


def collect(steps: int, games: int, rounds: int, repeat: int, only: set[str]) -> dict[str, Any]:
    """Every workload's figures, round by round: {key: {"kind", "name", "rates": [...] or "note"}}."""
    table = [w for w in workloads(steps, games) if not only or w[0] in only]
    runs: dict[str, Callable[[], int]] = {}
    out: dict[str, Any] = {}
    for key, kind, name, setup in table:
        out[key] = {"kind": kind, "name": name, "rates": []}
        if isinstance(setup, str):
            out[key]["note"] = setup
            print(f"  {name}: {setup}", flush=True)
            continue
        runs[key] = setup()
        runs[key]()  # warm up: imports, caches, question files
    for index in range(rounds):
        for key, run in runs.items():
            units, cpu = _timed(run, repeat)
            rate = units / cpu if cpu else float("inf")
            out[key]["rates"].append(rate)
            print(f"  round {index + 1} {out[key]['name']:<55} {rate:>10,.0f}/s", flush=True)
    return out


def ratio(figures: dict[str, Any], top: str, bottom: str) -> float | None:
    a, b = figures.get(top, {}).get("rates", []), figures.get(bottom, {}).get("rates", [])
    values = [x / y for x, y in zip(a, b, strict=False) if y]
    return statistics.median(values) if values else None


def rate(figures: dict[str, Any], key: str) -> float | None:
    rates = figures.get(key, {}).get("rates", [])
    return statistics.median(rates) if rates else None


def _fmt(value: float | None, digits: int = 0, suffix: str = "") -> str:
    return "–" if value is None else f"{value:,.{digits}f}{suffix}"


def table(figures: dict[str, Any]) -> str:
    lines = [
        "| kind | environment | steps/s | × connect_four_v3 | × leduc_holdem_v4 |",
        "|---|---|---|---|---|",
    ]
    for key, entry in figures.items():
        if entry["kind"] == "engine":
            continue
        shown = entry.get("note") or _fmt(rate(figures, key))
        versus = ["", ""]
        if entry["kind"] in ("AEC", "AEC rules") and key not in AEC_REFERENCES:
            versus = [_fmt(ratio(figures, key, ref), 2, "×") for ref in AEC_REFERENCES]
        lines.append(f"| {entry['kind']} | {entry['name']} | {shown} | {versus[0]} | {versus[1]} |")
    if "engine" in figures:
        engine, kuhn = figures["engine"], figures.get(KUHN, {})
        lines += [
            "",
            "| per action | actions/s | × python_kuhn_poker | target |",
            "|---|---|---|---|",
            f"| {engine['name']} | {_fmt(rate(figures, 'engine'))} | {_fmt(ratio(figures, 'engine', KUHN), 2, '×')} "
            "| ≥ 1.0× |",
            f"| {kuhn.get('name', KUHN)} | {kuhn.get('note') or _fmt(rate(figures, KUHN))} | 1× | – |",
        ]
    return "\n".join(lines)


def note(args: argparse.Namespace, started: str, load: float) -> str:
    from all import machine

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "mindtable"], cwd=ROOT, capture_output=True, text=True)
    code = commit.stdout.strip() + (" + uncommitted changes" if dirty.stdout.strip() else "")
    libraries = ", ".join(_package(p) for p in ("pettingzoo", "gymnasium", "open_spiel", "rlcard", "numpy"))
    return (
        f"Measured {started} on {machine()}, code {code}; {libraries}; load average {load:.1f} at the start (a "
        f"shared machine). `PYTHONPATH=. .venv/bin/python benchmarks/rl_envs.py --rounds {args.rounds} --repeat "
        f"{args.repeat} --steps {args.steps} --games {args.games}`: CPU time, the least of {args.repeat} runs "
        f"in a round, median of {args.rounds} interleaved rounds; a ratio is the median of the ratios within each "
        "round."
    )


def write_docs(text: str) -> None:
    path = ROOT / "docs" / "benchmarks.md"
    doc = path.read_text(encoding="utf-8")
    if BEGIN not in doc or END not in doc:
        raise SystemExit(f"{path} has no {BEGIN} ... {END} section to replace")
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    path.write_text(head + BEGIN + "\n" + text + "\n" + END + tail, encoding="utf-8")
    print(f"wrote the table into {path}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=3000, help="steps per environment workload (NeuroRace: 1/4)")
    parser.add_argument("--games", type=int, default=4000, help="The Mind engine games (Kuhn poker: 3 times as many)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; figures are their medians")
    parser.add_argument("--repeat", type=int, default=2, help="runs per workload in a round; the fastest counts")
    parser.add_argument("--only", default="", help="workload keys to run, comma-separated (e.g. carrera,leduc_holdem)")
    parser.add_argument("--json", help="also write every round's figures to this file")
    parser.add_argument("--write-docs", action="store_true", help="replace the RL table in docs/benchmarks.md")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    started = time.strftime("%Y-%m-%d %H:%M")
    figures = collect(args.steps, args.games, args.rounds, args.repeat, set(filter(None, args.only.split(","))))
    text = note(args, started, load) + "\n\n" + table(figures)
    print()
    print(text)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({"note": text.split("\n\n")[0], "figures": figures}, handle, indent=1)
    if args.write_docs:
        write_docs(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
