"""Run many bot-only matches of any game and summarise them.

Two engines:

``match``
    Every game is a real :class:`~mindtable.core.match.Match` played by :func:`~mindtable.core.driver.play_out`
    on a virtual clock. Game ``i`` uses seed ``seed + i`` for the match and for every bot, so a run does not
    depend on how the games are split among worker processes.
``vector``
    The game's own batch simulator (``Game.batch_simulator``, ``simulate_batch(players, options, bot,
    bot_params, games, seed) -> list[Result]``). Games are handed to it in blocks of :data:`VECTOR_BLOCK`;
    block ``k`` gets seed ``seed + k * VECTOR_BLOCK``, so again the worker count does not change the results.

``auto`` uses the vector engine when the game has one that can play the requested bot and options (it
raises ``NotImplementedError`` otherwise) and falls back to the match engine.

>>> run = run_simulation("the-mind", players=2, bot="proportional", games=20, seed=1, workers=1, engine="match")
>>> run.summary["games"], run.engine
(20, 'match')
"""

from __future__ import annotations

import json
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from mindtable.core.bot_params import validate_bot_params
from mindtable.core.driver import play_out
from mindtable.core.errors import InvalidOptions, MindtableError
from mindtable.core.events import Result
from mindtable.core.game import Game
from mindtable.core.hooks import HookError, resolve
from mindtable.core.match import new_match
from mindtable.core.registry import get_game
from mindtable.sim.stats import Tally, summarize

ENGINES = ("auto", "match", "vector")
#: Games per call of a game's batch simulator (fixed, so that results do not depend on the worker count).
VECTOR_BLOCK = 10_000
#: Most games per task of the match engine (smaller tasks: smoother progress, more overhead).
MAX_MATCH_CHUNK = 250

ProgressCallback = Callable[[int, int], None]


class SimulationError(MindtableError, ValueError):
    """A simulation that cannot run as asked (bad engine, bot parameters the simulator refuses...)."""


class _VectorUnsupported(Exception):
    """The batch simulator refused the combination (it raised NotImplementedError)."""


@dataclass
class SimulationRun:
    """What :func:`run_simulation` returns: the summary, the engine used and how long it took."""

    summary: dict[str, Any]
    tally: Tally
    engine: str
    #: Why ``auto`` did not use the vector engine (``None`` if it did, or was not asked to choose).
    fallback_reason: str | None
    elapsed_seconds: float


def load_batch_simulator(game: Game) -> Callable[..., list[Result]]:
    """The game's batch simulator, or :class:`_VectorUnsupported` saying why there is none."""
    target = game.batch_simulator
    if not target:
        raise _VectorUnsupported(f"{game.title} has no batch simulator")
    try:
        simulator: Callable[..., list[Result]] = resolve(target, f"{game.title}'s batch simulator")
    except HookError as exc:
        raise _VectorUnsupported(str(exc)) from None
    return simulator


# -- worker tasks (module-level so that they pickle) ---------------------------------------------------
def seat_values(values: Sequence[Any], players: int, game: int) -> list[Any]:
    """The varied bot parameter's value at each seat of game number ``game`` (from 0): the values in turn,
    shifted one seat each game, so every value sits in every seat as often (for a whole number of rounds).

    >>> seat_values([0.2, 0.8], 3, 0), seat_values([0.2, 0.8], 3, 1)
    ([0.2, 0.8, 0.2], [0.8, 0.2, 0.8])
    """
    return [values[(seat + game) % len(values)] for seat in range(players)]


def _match_chunk(
    game_id: str,
    players: int,
    options: dict[str, Any],
    bot: str,
    bot_params: dict[str, Any],
    seeds: range,
    first_seed: int = 0,
    vary: tuple[str, tuple[Any, ...]] | None = None,
) -> Tally:
    game = get_game(game_id)
    tally = Tally(players, detail_keys=tuple(game.simulation_details))
    for seed in seeds:
        match = new_match(game_id, players, seed=seed, options=options)
        params = [dict(bot_params) for _ in range(players)]
        labels: list[str] | None = None
        if vary is not None:
            levels = seat_values(vary[1], players, seed - first_seed)
            for seat, level in enumerate(levels):
                params[seat][vary[0]] = level
            labels = [_value_key(level) for level in levels]
        bots = {seat: game.make_bot(bot, seat=seat, seed=seed, **params[seat]) for seat in range(players)}
        try:
            tally.add(play_out(match, bots), labels)
        except MindtableError as exc:
            raise SimulationError(f"game with seed {seed}: {exc}") from exc
    return tally


def _value_key(value: Any) -> str:
    """A varied parameter's value as the summary names it (JSON: 0.5, true, "fast")."""
    return value if isinstance(value, str) else json.dumps(value)


def _vector_block(
    game_id: str,
    players: int,
    options: dict[str, Any],
    bot: str,
    bot_params: dict[str, Any],
    games: int,
    seed: int,
) -> Tally | str:
    """One block for the batch simulator; a string is the NotImplementedError message (fall back)."""
    simulator = load_batch_simulator(get_game(game_id))
    try:
        results = simulator(players, dict(options), bot, dict(bot_params), games, seed)
    except NotImplementedError as exc:
        return str(exc) or "the batch simulator cannot play this combination"
    if len(results) != games:
        raise SimulationError(f"{game_id}'s batch simulator returned {len(results)} results for {games} games")
    return Tally(players, detail_keys=tuple(get_game(game_id).simulation_details)).add_all(results)


# -- planning --------------------------------------------------------------------------------------
def _match_tasks(games: int, seed: int, workers: int, per_worker: int = 8) -> Iterator[tuple[int, range]]:
    chunk = max(1, min(MAX_MATCH_CHUNK, games // (workers * per_worker) or 1))
    for start in range(0, games, chunk):
        stop = min(games, start + chunk)
        yield stop - start, range(seed + start, seed + stop)


def _vector_tasks(games: int, seed: int) -> Iterator[tuple[int, int]]:
    for block, start in enumerate(range(0, games, VECTOR_BLOCK)):
        yield min(VECTOR_BLOCK, games - start), seed + block * VECTOR_BLOCK


def _pool(workers: int) -> ProcessPoolExecutor:
    # Fork is fastest and sees games registered at run time, but forking a process that runs threads can
    # deadlock; then a fresh server process forks the workers instead.
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        method = "fork"
    elif "forkserver" in methods:
        method = "forkserver"
    else:
        method = "spawn"
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(method))


def _run_tasks(
    function: Callable[..., Any],
    tasks: list[tuple[int, tuple[Any, ...]]],
    workers: int,
    total: int,
    progress: ProgressCallback | None,
) -> list[Any]:
    """Run ``function(*args)`` for each (games, args) task; results in task order; progress in games."""
    done = 0
    if progress is not None:
        progress(0, total)
    if workers <= 1 or len(tasks) <= 1:
        results = []
        for games, args in tasks:
            outcome = function(*args)
            results.append(outcome)
            if isinstance(outcome, str):
                break
            done += games
            if progress is not None:
                progress(done, total)
        return results
    with _pool(min(workers, len(tasks))) as pool:
        futures: dict[Future[Any], int] = {}
        ordered: list[Future[Any]] = []
        for games, args in tasks:
            future = pool.submit(function, *args)
            futures[future] = games
            ordered.append(future)
        pending = set(ordered)
        try:
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    outcome = future.result()
                    if isinstance(outcome, str):
                        raise _VectorUnsupported(outcome)
                    done += futures[future]
                if progress is not None:
                    progress(done, total)
        except BaseException:
            for future in pending:
                future.cancel()
            raise
        return [future.result() for future in ordered]


#: Where the tasks run: ``local`` (this machine's processes) or ``ray`` (a Ray cluster, or a local Ray).
BACKENDS = ("local", "ray")


def _run_tasks_ray(
    function: Callable[..., Any],
    tasks: list[tuple[int, tuple[Any, ...]]],
    workers: int,
    total: int,
    progress: ProgressCallback | None,
    address: str | None,
) -> list[Any]:
    """:func:`_run_tasks` on Ray: the same tasks (so the same results for the same seed), at most two per
    worker in flight (backpressure: the driver never holds the whole study's futures), progress as tasks
    finish, and every task cancelled if the run is stopped (an error, Ctrl-C). A Ray already started by the
    caller (``ray.init``) is used as it is; otherwise this starts one (``address``: a cluster's, else a local
    Ray of ``workers`` CPUs) and shuts it down after."""
    try:
        import ray
    except ImportError:
        raise SimulationError("the ray backend needs Ray: pip install 'mindtable[cluster]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        env = {"PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        if os.environ.get("MINDTABLE_GAMES"):
            env["MINDTABLE_GAMES"] = os.environ["MINDTABLE_GAMES"]  # games registered at run time
        ray.init(
            address=address,
            num_cpus=None if address else workers,
            include_dashboard=False,
            log_to_driver=False,
            configure_logging=False,
            runtime_env={"env_vars": env},
        )
    try:
        remote = ray.remote(num_cpus=1, max_retries=0)(function)
        limit = max(2, 2 * int(ray.cluster_resources().get("CPU", workers)))
        results: dict[int, Any] = {}
        running: dict[Any, int] = {}
        done = 0
        queue = iter(enumerate(tasks))
        if progress is not None:
            progress(0, total)
        try:
            while True:
                for index, (_, args) in queue:
                    running[remote.remote(*args)] = index
                    if len(running) >= limit:
                        break
                if not running:
                    break
                finished, _ = ray.wait(list(running), num_returns=1)
                for ref in finished:
                    index = running.pop(ref)
                    outcome = ray.get(ref)
                    if isinstance(outcome, str):
                        raise _VectorUnsupported(outcome)
                    results[index] = outcome
                    done += tasks[index][0]
                if progress is not None:
                    progress(done, total)
        except BaseException:
            for ref in running:
                ray.cancel(ref, force=True)
            raise
        return [results[index] for index in range(len(tasks))]
    finally:
        if started_here:
            ray.shutdown()


def parse_engine(engine: str) -> str:
    if engine not in ENGINES:
        raise SimulationError(f"unknown engine {engine!r}; engines: {', '.join(ENGINES)}")
    return engine


def run_simulation(
    game_id: str,
    players: int,
    bot: str = "random",
    games: int = 1000,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    bot_params: Mapping[str, Any] | None = None,
    workers: int | None = None,
    engine: str = "auto",
    progress: ProgressCallback | None = None,
    vary: tuple[str, Sequence[Any]] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> SimulationRun:
    """Play ``games`` matches of ``game_id`` with ``bot`` in every seat and summarise them.

    ``workers`` processes share the work (default: every core; 1 runs in this process). ``progress`` is
    called with (games done, games in total) as blocks finish. ``vary`` (a bot parameter and its values)
    seats bots with those values in turn, shifted one seat per game (:func:`seat_values`), and adds the wins
    by value (the match engine plays these). Bad games, options or bot parameters raise a
    :class:`~mindtable.core.errors.MindtableError` saying what is allowed. ``backend="ray"`` runs the same
    tasks on Ray (``address``: a cluster; default a local Ray of ``workers`` CPUs): the same summary as the
    local backend for the same seed.
    """
    if backend not in BACKENDS:
        raise SimulationError(f"unknown backend {backend!r}; backends: {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise SimulationError("address names a Ray cluster: give it with backend 'ray'")

    def run_tasks(
        function: Callable[..., Any], tasks: list[tuple[int, tuple[Any, ...]]], count: int, total: int
    ) -> list[Any]:
        if backend == "ray":
            return _run_tasks_ray(function, tasks, count, total, progress, address)
        return _run_tasks(function, tasks, count, total, progress)

    engine = parse_engine(engine)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SimulationError(f"games must be a whole number >= 1, got {games!r}")
    if workers is None:
        workers = os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise SimulationError(f"workers must be a whole number >= 1, got {workers!r}")
    game = get_game(game_id)
    bot_params = dict(bot_params or {})
    # A probe match validates and resolves the options and player count; a probe bot checks the bot.
    probe = new_match(game_id, players, seed=seed, options=options)
    resolved = dict(probe.options)
    varied: tuple[str, tuple[Any, ...]] | None = None
    if vary is not None:
        name, values = vary[0], tuple(vary[1])
        if not values:
            raise SimulationError(f"vary {name!r}: give at least one value")
        if name in bot_params:
            raise SimulationError(f"{name!r} is both a bot parameter and the one varied; give it once")
        varied = (name, values)
    # The parameters are checked as a room checks them (declared type and range), then by the bot itself.
    try:
        if bot in game.bots:  # an unknown bot is refused by make_bot, naming the bots there are
            bot_params = validate_bot_params(game, bot, bot_params)
        if varied is not None and bot in game.bots:
            name = varied[0]
            clean = []
            for value in varied[1]:
                try:
                    clean.append(validate_bot_params(game, bot, {name: value})[name])
                except ValueError as exc:
                    raise ValueError(f"vary {name!r}: {exc}") from None
            varied = (name, tuple(clean))
        for params in [{**bot_params, varied[0]: v} for v in varied[1]] if varied else [bot_params]:
            game.make_bot(bot, seat=0, seed=seed, **params)
    except (ValueError, TypeError) as exc:
        if isinstance(exc, MindtableError):
            raise
        raise InvalidOptions(f"bad parameters for bot {bot!r}: {exc}") from exc

    started = time.perf_counter()
    fallback: str | None = None
    tally: Tally | None = None
    used = engine
    if varied is not None and engine == "vector":
        raise SimulationError("the vector engine cannot run this simulation: it seats the same bot everywhere")
    if varied is not None:
        fallback = "the seats' bot parameters vary" if engine == "auto" else None
    elif engine in ("auto", "vector"):
        try:
            load_batch_simulator(game)
            vector_tasks = [
                (n, (game_id, players, resolved, bot, bot_params, n, block_seed))
                for n, block_seed in _vector_tasks(games, seed)
            ]
            outcomes = run_tasks(_vector_block, vector_tasks, workers, games)
            if outcomes and isinstance(outcomes[-1], str):
                raise _VectorUnsupported(outcomes[-1])
            tally = Tally(players)
            for outcome in outcomes:
                tally.merge(outcome)
            used = "vector"
        except _VectorUnsupported as exc:
            if engine == "vector":
                raise SimulationError(f"the vector engine cannot run this simulation: {exc}") from None
            fallback = str(exc)
        except ValueError as exc:
            if isinstance(exc, MindtableError):
                raise
            raise SimulationError(f"{game.title}'s batch simulator refused the request: {exc}") from exc
    if tally is None:
        used = "match"
        match_tasks = [
            (n, (game_id, players, resolved, bot, bot_params, seeds, seed, varied))
            # Ray's tasks cost more to hand out than a local pool's: fewer, larger batches (same games, seeds).
            for n, seeds in _match_tasks(games, seed, workers, 2 if backend == "ray" else 8)
        ]
        tally = Tally(players, detail_keys=tuple(game.simulation_details))
        for outcome in run_tasks(_match_chunk, match_tasks, workers, games):
            tally.merge(outcome)
    elapsed = time.perf_counter() - started

    summary = {
        "game": game.id,
        "title": game.title,
        "players": players,
        "bot": bot,
        "bot_params": bot_params,
        "options": resolved,
        "seed": seed,
        "engine": used,
        **({"vary": {"param": varied[0], "values": list(varied[1])}} if varied else {}),
        **summarize(
            tally,
            cooperative=game.cooperative,
            progress_label=game.progress_label,
            detail_labels=game.simulation_details,
            varied=(varied[0], [_value_key(v) for v in varied[1]]) if varied else None,
        ),
    }
    return SimulationRun(summary=summary, tally=tally, engine=used, fallback_reason=fallback, elapsed_seconds=elapsed)
