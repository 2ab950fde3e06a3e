"""Batch simulation of bot-only matches for any game, with statistics, JSON output and plots.

>>> from mindtable.sim import run_simulation
>>> run = run_simulation("the-mind", players=2, bot="proportional", games=10, seed=7, workers=1, engine="match")
>>> sorted(run.summary["win_rate"])
['ci95', 'games', 'rate', 'wins']
"""

from mindtable.sim.plot import plot_progress
from mindtable.sim.runner import ENGINES, SimulationError, SimulationRun, load_batch_simulator, run_simulation
from mindtable.sim.stats import Tally, median_of_counts, summarize, wilson_interval

__all__ = [
    "ENGINES",
    "SimulationError",
    "SimulationRun",
    "Tally",
    "load_batch_simulator",
    "median_of_counts",
    "plot_progress",
    "run_simulation",
    "summarize",
    "wilson_interval",
]
