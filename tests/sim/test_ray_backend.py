"""``simulate --backend ray``: the same study on Ray gives the same summary as on this machine's processes, for
every game and both engines (a local Ray, started and stopped here)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from mindtable.sim.runner import SimulationError, run_simulation

ray = pytest.importorskip("ray", reason="the ray backend needs Ray: pip install -e '.[cluster]'")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def summary(run: Any) -> dict[str, Any]:
    return dict(run.summary)


def test_a_study_starts_and_stops_its_own_local_ray() -> None:
    assert not ray.is_initialized()
    run = run_simulation("the-mind", players=2, bot="proportional", games=20, seed=3, workers=2, backend="ray")
    assert run.summary["games"] == 20 and not ray.is_initialized()  # shut down again: nothing left running


CASES = [
    ("the-mind", 2, "proportional", 60, "match", {}),
    ("the-mind", 3, "proportional", 3000, "vector", {}),
    ("neurorace", 2, None, 4, "match", {}),
    ("carrera-de-mente", 2, None, 6, "match", {}),
    ("caida-libre", 3, None, 10, "match", {}),
    ("eesti-malumang", 2, None, 8, "match", {}),
]


@pytest.mark.parametrize(("game", "players", "bot", "games", "engine", "options"), CASES)
def test_ray_gives_the_same_summary_as_the_local_pool(local_ray, game, players, bot, games, engine, options) -> None:
    from mindtable.core.registry import get_game

    bot = bot or next(iter(get_game(game).bots))
    common = {"players": players, "bot": bot, "games": games, "seed": 11, "engine": engine, "options": options}
    seen: list[tuple[int, int]] = []
    on_ray = run_simulation(game, workers=2, backend="ray", progress=lambda d, t: seen.append((d, t)), **common)
    local = run_simulation(game, workers=2, backend="local", **common)
    assert on_ray.engine == local.engine == engine
    assert summary(on_ray) == summary(local)
    assert seen[0] == (0, games) and seen[-1] == (games, games)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)  # progress only goes forward


def test_a_bad_backend_or_a_stray_address_is_refused() -> None:
    with pytest.raises(SimulationError, match="backends: local, ray"):
        run_simulation("the-mind", players=2, games=1, backend="dask")
    with pytest.raises(SimulationError, match="with backend 'ray'"):
        run_simulation("the-mind", players=2, games=1, address="ray://somewhere:10001")
