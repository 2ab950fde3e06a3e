"""A bar chart of a simulation's progress distribution (matplotlib, Agg: no display needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def plot_progress(summary: dict[str, Any], path: str | Path) -> Path:
    """Draw the distribution of ``summary["progress"]`` to ``path`` (format from the suffix, e.g. .png)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    progress = summary["progress"]
    distribution = progress["distribution"]
    counted = {entry["value"]: entry["share"] for entry in distribution}
    keys = list(counted)
    if keys and all(isinstance(k, int) and not isinstance(k, bool) for k in keys) and max(keys) - min(keys) <= 200:
        keys = list(range(min(keys), max(keys) + 1))  # whole-number progress: show the empty bars too
    values = [str(key) for key in keys]
    shares = [100 * counted.get(key, 0.0) for key in keys]
    figure = Figure(figsize=(8, 4.5), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    bars = axes.bar(values, shares, color="#4C72B0")
    if len(values) <= 30:
        axes.bar_label(bars, labels=[f"{share:.1f}%" for share in shares], fontsize=8)
    axes.set_xlabel(progress["label"])
    axes.set_ylabel("share of games (%)")
    rate = summary["win_rate"]
    low, high = rate["ci95"]
    who = "team win rate" if summary.get("cooperative") else "games with a winner"
    title = (
        f"{summary.get('title', summary.get('game', ''))}: {summary.get('players')} players, bot {summary.get('bot')}"
    )
    percent = 100 * (rate["rate"] or 0)
    subtitle = f"{summary['games']:,} games · {who} {percent:.2f}% (95% CI {100 * low:.2f}-{100 * high:.2f}%)"
    if progress.get("mean") is not None:
        subtitle += f" · mean {progress['mean']:.2f}, median {progress['median']:g}"
    axes.set_title(f"{title}\n{subtitle}", fontsize=10)
    axes.grid(axis="y", alpha=0.3)
    axes.set_axisbelow(True)
    figure.tight_layout()
    target = Path(path)
    figure.savefig(target)
    return target
