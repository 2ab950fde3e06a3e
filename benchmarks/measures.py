"""The measures of ``benchmarks/all.py``, each run in its own process: ``python benchmarks/measures.py NAME``.

A measure runs a fixed workload (the same games, seeds and bank files every time, so two versions of the code do
the same work) and prints one JSON object: ``cpu`` (``time.process_time`` seconds spent on the workload, set-up
excluded), ``units`` (what was counted), ``rate`` (``units / cpu``) and facts about the run. ``all.py`` runs
every measure on the current code and, where it says so, on an older version of ``mindtable`` (a ``git archive``
put first on ``PYTHONPATH``), in interleaved rounds.

Only APIs that exist in every measured version are used (``new_match``, ``legal_actions``, ``apply``,
``play_out``, ``make_bot``, ``simulate_batch``, ``SolverBot``). The OpenSpiel measure imports no ``mindtable``
at all: it runs in OpenSpiel's own virtual environment (``benchmarks/.venv-openspiel``, see ``all.py``).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
Measure = Callable[[float], dict[str, Any]]
MEASURES: dict[str, Measure] = {}


def measure(name: str) -> Callable[[Measure], Measure]:
    def register(function: Measure) -> Measure:
        MEASURES[name] = function
        return function

    return register


def _timed(run: Callable[[], int], repeat: int = 3) -> tuple[int, float]:
    """The units of one run of the workload and the least CPU time of ``repeat`` runs (as ``timeit`` does: on a
    shared machine a run is only ever slowed down by others, so the fastest is the nearest to the code's own
    cost). Every workload here does the same work each time (fixed seeds)."""
    best: tuple[int, float] | None = None
    for _ in range(repeat):
        gc.collect()
        start = time.process_time()
        units = run()
        cpu = time.process_time() - start
        if best is None or cpu < best[1]:
            best = (units, cpu)
    assert best is not None
    return best


# -- The Mind through the public API, and the same game as a bare Python loop ------------------------------
def first_legal_games(games: int, players: int = 2, keep: list[Any] | None = None) -> int:
    """The Mind through the public API: a random seat takes its first legal action (a star proposal last).

    ``keep`` (a list) receives each game as (seed, its recorded actions), for the rules measure."""
    import mindtable

    chooser = random.Random(1)
    actions = 0
    for seed in range(games):
        match = mindtable.new_match("the-mind", players=players, seed=seed)
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
        if keep is not None:
            keep.append((seed, match.record()["actions"]))
    return actions


@measure("engine")
def engine(scale: float) -> dict[str, Any]:
    games = max(1, round(4000 * scale))
    first_legal_games(50)  # warm up: imports, registry, caches
    actions, cpu = _timed(lambda: first_legal_games(games))
    return {"units": actions, "unit": "actions", "cpu": cpu, "games": games}


_REWARDS = {2: "star", 3: "life", 5: "star", 6: "life", 8: "star", 9: "life"}
_LAST = {2: 12, 3: 10, 4: 8}


def bare_games(games: int, players: int = 2) -> int:
    """The same game and the same player as :func:`first_legal_games`, written as one plain Python loop.

    The same rules (table detection, normal mode: ready checks, lowest card only, a card out of order costs a
    life and sets the lower cards aside, stars proposed and agreed, level rewards, win after the last level)
    and the same interface (legal actions as dicts, the chosen one stamped with ``"at"``), with nothing checked
    or recorded and cards dealt by :func:`random.Random.sample` (C code).
    """
    chooser = random.Random(1)
    actions = 0
    cards = range(1, 101)
    for seed in range(games):
        dealer = random.Random(seed)
        lives, stars, last, level = players, 1, _LAST[players], 1
        deck = dealer.sample(cards, players)
        hands = [sorted(deck[i : i + 1]) for i in range(players)]
        aside: list[list[int]] = [[] for _ in range(players)]
        ready = [False] * players
        playing = False
        proposal: list[int] | None = None
        over = False
        now = 0
        while not over:
            seat = chooser.randrange(players)
            legal: list[dict[str, Any]]
            if proposal is not None:
                legal = [] if seat in proposal else [{"type": "agree", "seat": seat}, {"type": "reject", "seat": seat}]
            elif not playing:
                legal = [] if ready[seat] else [{"type": "ready", "seat": seat}]
            else:
                legal = []
                hand, own = hands[seat], aside[seat]
                if hand or own:
                    lowest = min(hand[0], own[0]) if hand and own else (hand or own)[0]
                    legal.append({"type": "play", "seat": seat, "card": lowest})
                if stars > 0:
                    legal.append({"type": "propose_star", "seat": seat})
            if not legal:
                continue
            now += 10
            action = legal[0] if legal[0]["type"] != "propose_star" else legal[-1]
            action = {**action, "at": now}
            actions += 1
            kind = action["type"]
            if kind == "ready":
                ready[seat] = True
                if all(ready):
                    playing = True
                continue
            if kind == "reject":
                proposal = None
                continue
            if kind == "propose_star":
                proposal = [seat]
            elif kind == "agree":
                assert proposal is not None
                proposal.append(seat)
            if proposal is not None:
                if len(proposal) < players:
                    continue
                proposal = None
                stars -= 1
                for s in range(players):
                    hand, own = hands[s], aside[s]
                    if own and (not hand or own[0] < hand[0]):
                        own.pop(0)
                    elif hand:
                        hand.pop(0)
                playing = False
                ready = [False] * players
            elif kind == "play":
                hand, own = hands[seat], aside[seat]
                card = own.pop(0) if own and (not hand or own[0] < hand[0]) else hand.pop(0)
                if any(c and c[0] < card for c in hands) or any(c and c[0] < card for c in aside):
                    for s in range(players):
                        lower = [c for c in hands[s] if c < card]
                        if lower:
                            del hands[s][: len(lower)]
                            aside[s] = sorted(aside[s] + lower)
                    lives -= 1
                    if lives <= 0:
                        over = True
                        continue
                    playing = False
                    ready = [False] * players
            if not any(hands) and not any(aside):
                reward = _REWARDS.get(level)
                if reward == "life":
                    lives = min(lives + 1, 5)
                elif reward == "star":
                    stars = min(stars + 1, 3)
                if level >= last:
                    over = True
                    continue
                level += 1
                deck = dealer.sample(cards, level * players)
                hands = [sorted(deck[i * level : (i + 1) * level]) for i in range(players)]
                aside = [[] for _ in range(players)]
                playing = False
                ready = [False] * players
    return actions


@measure("rules")
def rules(scale: float) -> dict[str, Any]:
    """The floor under the engine measure: the same games replayed through The Mind's own rules alone (its
    ``initial_state`` and each move's effect, called directly: nothing listed, checked or recorded)."""
    import mindtable
    from mindtable.core.rng import Rng

    games: list[tuple[int, list[dict[str, Any]]]] = []
    first_legal_games(max(1, round(4000 * scale)), keep=games)
    game = mindtable.new_match("the-mind", players=2, seed=0).game
    options = dict(mindtable.new_match("the-mind", players=2, seed=0).options)
    assert game.moves is not None
    effects = {move.type: move.effect for move in game.moves.moves}

    def replay() -> int:
        actions = 0
        for seed, recorded in games:
            rng = Rng(seed)
            state = game.initial_state(2, options, rng)
            for action in recorded:
                effects[action["type"]](state, action, rng)
            actions += len(recorded)
        return actions

    replay()  # warm up
    actions, cpu = _timed(replay)
    return {"units": actions, "unit": "actions", "cpu": cpu, "games": len(games)}


@measure("bare")
def bare(scale: float) -> dict[str, Any]:
    games = max(1, round(4000 * scale))
    bare_games(50)
    actions, cpu = _timed(lambda: bare_games(games))
    return {"units": actions, "unit": "actions", "cpu": cpu, "games": games}


# -- OpenSpiel's Kuhn poker, implemented in Python ----------------------------------------------------------
@measure("openspiel")
def openspiel(scale: float) -> dict[str, Any]:
    """``python_kuhn_poker``: random legal actions and chance outcomes; every ``apply_action`` is counted."""
    import pyspiel  # type: ignore[import-not-found]
    from open_spiel.python.games import kuhn_poker  # type: ignore[import-not-found]  # noqa: F401 -- registers it

    game = pyspiel.load_game("python_kuhn_poker")
    counts = [0]

    def run(games: int) -> int:
        actions, counts[0] = kuhn_games(game, games)
        return actions

    games = max(1, round(12000 * scale))
    run(200)
    actions, cpu = _timed(lambda: run(games))
    return {
        "units": actions,
        "unit": "actions",
        "cpu": cpu,
        "games": games,
        "player_actions_per_s": counts[0] / cpu,
        "version": _version("open_spiel"),
    }


def kuhn_games(game: Any, games: int) -> tuple[int, int]:
    """``games`` games of ``game`` (OpenSpiel's ``python_kuhn_poker``) from the initial state, random legal actions
    and chance outcomes, every ``apply_action`` counted: (actions, of them players' actions)."""
    chooser = random.Random(1)
    actions = players = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = outcomes[chooser.randrange(len(outcomes))][0]
            else:
                legal = state.legal_actions()
                action = legal[chooser.randrange(len(legal))]
                players += 1
            state.apply_action(action)
            actions += 1
    return actions, players


def _version(package: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return None


# -- bots on the virtual clock ------------------------------------------------------------------------------
def _the_mind_bot_games(games: int, players: int = 2) -> tuple[int, int, int]:
    import mindtable
    from mindtable.core.driver import play_out

    actions = wins = 0
    for seed in range(games):
        match = mindtable.new_match("the-mind", players=players, seed=seed)
        bots = {s: match.game.make_bot("proportional", seat=s, seed=seed) for s in range(players)}
        wins += bool(play_out(match, bots).winners)
        actions += len(match._actions)
    return games, actions, wins


@measure("bots")
def bots(scale: float) -> dict[str, Any]:
    games = max(1, round(300 * scale))
    _the_mind_bot_games(5)
    box: list[tuple[int, int, int]] = []
    units, cpu = _timed(lambda: (box.append(_the_mind_bot_games(games)), games)[1])
    _, actions, wins = box[0]
    return {"units": units, "unit": "games", "cpu": cpu, "actions_per_s": actions / cpu, "win_rate": wins / games}


def _neurorace_races(games: int, players: int) -> tuple[int, int]:
    import mindtable
    from mindtable.core.driver import play_out
    from mindtable.games.neurorace.bots import SolverBot

    actions = 0
    for seed in range(games):
        match = mindtable.new_match("neurorace", players=players, seed=seed)
        bots = {
            s: SolverBot(seat=s, seed=seed, actions_per_second=2 + s, mistakes_per_task=0.2) for s in range(players)
        }
        play_out(match, bots)
        actions += len(match._actions)
    return games, actions


def _neurorace_warm_up() -> None:
    """Imports and the registry, outside the timing (as every other measure warms up): a match of a seed the races
    do not play, so no race finds its own tasks solved beforehand."""
    import mindtable
    from mindtable.games.neurorace.bots import SolverBot

    mindtable.new_match("neurorace", players=2, seed=10_000)
    SolverBot(seat=0, seed=10_000)


@measure("neurorace")
def neurorace(scale: float) -> dict[str, Any]:
    """Full BASIC games to level 10 between two solver bots (2 and 3 actions/s, 0.2 mistakes per task)."""
    games = max(1, round(8 * scale))
    _neurorace_warm_up()
    box: list[tuple[int, int]] = []
    units, cpu = _timed(lambda: (box.append(_neurorace_races(games, 2)), games)[1])
    return {"units": units, "unit": "games", "cpu": cpu, "actions_per_s": box[0][1] / cpu}


@measure("neurorace4")
def neurorace4(scale: float) -> dict[str, Any]:
    games = max(1, round(4 * scale))
    _neurorace_warm_up()
    box: list[tuple[int, int]] = []
    units, cpu = _timed(lambda: (box.append(_neurorace_races(games, 4)), games)[1])
    return {"units": units, "unit": "games", "cpu": cpu, "actions_per_s": box[0][1] / cpu}


# -- the vectorised simulator -------------------------------------------------------------------------------
@measure("vector")
def vector(scale: float) -> dict[str, Any]:
    """``simulate_batch``: 2 players, proportional bots. Card plays are counted where the simulator reports them."""
    import tracemalloc

    from mindtable.games.the_mind.vector import simulate_batch

    batch = max(1000, round(200_000 * scale))
    simulate_batch(2, {}, "proportional", {}, 2000, seed=1)
    kept: list[Any] = []
    units, cpu = _timed(lambda: (kept.append(simulate_batch(2, {}, "proportional", {}, batch, seed=7)), batch)[1])
    results = kept.pop()
    plays = getattr(results, "plays", None)
    out: dict[str, Any] = {"units": units, "unit": "games", "cpu": cpu}
    if plays is not None:
        out["plays"] = int(plays.sum())
        out["plays_per_s"] = out["plays"] / cpu
    out["win_rate"] = sum(bool(r.winners) for r in results) / batch if plays is None else float(results.won.mean())
    del results
    gc.collect()
    tracemalloc.start()
    simulate_batch(2, {}, "proportional", {}, 20_000, seed=3)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    out["bytes_per_game"] = peak / 20_000
    return out


# -- banks and the judge (measured, not compared with older code) --------------------------------------------
@measure("banks")
def banks(scale: float) -> dict[str, Any]:
    """Load generated banks of 10,000 and 100,000 questions: no cache, first load (cache written), cached."""
    import tempfile

    import yaml

    sys.path.insert(0, str(HERE))
    from trivia_load import question  # type: ignore[import-not-found]

    from mindtable.trivia import load_bank

    out: dict[str, Any] = {"units": 0, "unit": "questions", "cpu": 0.0}
    with tempfile.TemporaryDirectory() as tmp:
        for size in (10_000, 100_000):
            rng = random.Random(1)
            data = {"title": "Benchmark bank", "questions": [question(rng, n) for n in range(size)]}
            path = Path(tmp) / f"bank-{size}.yaml"
            path.write_text(yaml.dump(data, allow_unicode=True, sort_keys=False, width=100), encoding="utf-8")
            del data
            for name in ("no cache", "first load", "cached"):
                cache = Path(tmp) / f"cache-{size}-{name.replace(' ', '-')}"
                os.environ["MINDTABLE_CACHE_DIR"] = "off" if name == "no cache" else str(cache)
                if name == "cached":
                    load_bank(path)
                times = []
                for _ in range(3):
                    if name == "first load" and cache.exists():
                        for file in cache.rglob("*"):
                            if file.is_file():
                                file.unlink()
                    gc.collect()
                    start = time.process_time()
                    bank = load_bank(path)
                    times.append(time.process_time() - start)
                    assert len(bank.questions) == size
                    del bank
                out[f"{size} {name}"] = min(times)
            out[f"{size} MB"] = path.stat().st_size / 1e6
    out["yaml_c"] = bool(yaml.__with_libyaml__)
    return out


@measure("judge")
def judge(scale: float) -> dict[str, Any]:
    """Ordinary judgements (every given answer a new string) per CPU second, and the worst 4 KiB answer."""
    sys.path.insert(0, str(HERE))
    import trivia_judge as tj  # type: ignore[import-not-found]

    from mindtable.trivia import judge_answer

    pairs = tj.workload(random.Random(1))
    unique = [[(a, f"{g}{'.' * (n % 20)}{' ' * (n // 20)}", lang) for a, g, lang in pairs] for n in range(400)]
    for accepted, given, language in pairs:
        judge_answer(accepted, given, language=language)
    tj._NEXT_BATCH[0] = 0
    rate = max(tj.measure(unique, max(0.5, 2.0 * scale), False) for _ in range(2))
    worst, where = tj.worst_long(repeats=3)
    return {"rate": rate, "unit": "judgements", "worst_4k_ms": worst * 1000, "worst_4k": where}


# -- quiz games: bot games per second, once they exist -------------------------------------------------------
QUIZ_GAMES = ("carrera-de-mente", "caida-libre", "eesti-malumang")


@measure("quiz")
def quiz(scale: float) -> dict[str, Any]:
    """Each quiz game's bot games per CPU second (its first bot at every seat) and its slowest function.

    The quiz games are announced but not written yet: each is reported as ``not available`` until it is; then this
    hook measures it with no change needed.
    """
    import cProfile
    import pstats

    import mindtable
    from mindtable.core.driver import play_out

    out: dict[str, Any] = {"units": 0, "unit": "games", "cpu": 0.0}
    for game_id in QUIZ_GAMES:
        try:
            game = mindtable.get_game(game_id)
        except Exception as exc:  # an announced game raises GameNotAvailable
            out[game_id] = f"not available ({type(exc).__name__})"
            continue
        players = max(2, game.min_players)
        bot = sorted(game.bots)[0]
        games = max(1, round(20 * scale))

        def run(count: int, game_id: str = game_id, players: int = players, bot: str = bot) -> int:
            for seed in range(count):
                match = mindtable.new_match(game_id, players=players, seed=seed)
                bots = {s: match.game.make_bot(bot, seat=s, seed=seed) for s in range(players)}
                play_out(match, bots)
            return count

        units, cpu = _timed(lambda run=run, games=games: run(games))  # type: ignore[misc]
        profile = cProfile.Profile()
        profile.runcall(run, max(1, games // 4))
        stats = pstats.Stats(profile)
        top = max(stats.stats.items(), key=lambda item: item[1][2])  # type: ignore[attr-defined]
        (filename, line, function) = top[0]
        out[game_id] = {
            "games_per_s": units / cpu,
            "bot": bot,
            "players": players,
            "slowest": f"{Path(filename).name}:{line} {function}",
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description="run one benchmark measure and print its figures as JSON")
    parser.add_argument("name", choices=sorted(MEASURES))
    parser.add_argument("--scale", type=float, default=1.0, help="workload size (1: the documented run)")
    args = parser.parse_args()
    figures = MEASURES[args.name](args.scale)
    if "rate" not in figures:
        figures["rate"] = figures["units"] / figures["cpu"] if figures.get("cpu") else 0.0
    if args.name != "openspiel":
        import mindtable

        figures["code"] = str(Path(mindtable.__file__).resolve().parent.parent)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
