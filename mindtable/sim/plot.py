"""A bar chart of a simulation's progress distribution (matplotlib, Agg: no display needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def _bars(axes: Any, distribution: list[dict[str, Any]], label: str, unit: str, thin: bool = False) -> None:
    """A distribution (value, share) as bars, whole-number values with their empty bars too; ``thin`` labels
    about twenty of many bars."""
    counted = {entry["value"]: entry["share"] for entry in distribution}
    keys = list(counted)
    if keys and all(isinstance(k, int) and not isinstance(k, bool) for k in keys) and max(keys) - min(keys) <= 200:
        keys = list(range(min(keys), max(keys) + 1))  # whole-number progress: show the empty bars too
    values = [str(key) for key in keys]
    shares = [100 * counted.get(key, 0.0) for key in keys]
    bars = axes.bar(values, shares, color="#4C72B0")
    if len(values) <= 30:
        axes.bar_label(bars, labels=[f"{share:.1f}%" for share in shares], fontsize=8)
    elif thin:
        step = -(-len(values) // 20)
        axes.set_xticks(range(0, len(values), step), values[::step])
    axes.set_xlabel(label)
    axes.set_ylabel(f"share of {unit} (%)")
    axes.grid(axis="y", alpha=0.3)
    axes.set_axisbelow(True)


def _wins(axes: Any, summary: dict[str, Any]) -> None:
    """Win share by seat (ties split) and, when bot parameters varied, by value (relative: 1 = average seat)."""
    labels = [f"seat {seat['seat']}" for seat in summary.get("seats", ())]
    shares: list[float] = [100 * (seat["share"] or 0) for seat in summary.get("seats", ())]
    colours = ["#55A868"] * len(labels)
    by_value = summary.get("wins_by_value")
    if by_value:
        players = summary.get("players") or 1
        for row in by_value["values"]:
            labels.append(f"{by_value['param']} {row['value']}")
            shares.append(100 * (row["relative"] or 0) / players)
            colours.append("#DD8452")
    bars = axes.bar(labels, shares, color=colours)
    axes.bar_label(bars, labels=[f"{share:.1f}%" for share in shares], fontsize=8)
    axes.axhline(100 / (summary.get("players") or 1), color="#888888", linewidth=1, linestyle="--")
    axes.set_ylabel("win share (%)")
    axes.set_title("Wins by seat" + (f" and by {by_value['param']}" if by_value else ""), fontsize=10)
    axes.tick_params(axis="x", labelrotation=30)
    axes.grid(axis="y", alpha=0.3)
    axes.set_axisbelow(True)


def plot_progress(summary: dict[str, Any], path: str | Path) -> Path:
    """Draw the distribution of ``summary["progress"]`` to ``path`` (format from the suffix, e.g. .png).

    When the summary has further distributions (``details``, from ``Game.simulation_details``) or wins by a
    varied bot parameter, each gets a panel of its own beside the progress, and one panel shows the wins by
    seat and by value."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    progress = summary["progress"]
    details = [d for d in summary.get("details", {}).values() if d["count"]]
    extra = bool(details) or "wins_by_value" in summary
    panels = 1 + len(details) + (1 if extra and ("seats" in summary or "wins_by_value" in summary) else 0)
    figure = Figure(figsize=(8, 4.5) if panels == 1 else (5.5 * panels, 4.8), dpi=100)
    FigureCanvasAgg(figure)
    grid = figure.subplots(1, panels) if panels > 1 else [figure.add_subplot()]
    axes = grid[0]
    _bars(axes, progress["distribution"], progress["label"], "games", thin=panels > 1)
    for panel, detail in zip(grid[1:], details, strict=False):
        _bars(panel, detail["distribution"], detail["label"], f"{detail['count']:,} counted", thin=True)
        if detail["mean"] is not None:
            panel.set_title(f"{detail['label'].capitalize()}: mean {detail['mean']:.2f}", fontsize=10)
    if panels > 1 + len(details):
        _wins(grid[-1], summary)
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
    if panels == 1:
        axes.set_title(f"{title}\n{subtitle}", fontsize=10)
    else:
        axes.set_title(f"Distribution of {progress['label']}", fontsize=10)
        figure.suptitle(f"{title} · {subtitle}", fontsize=11)
    figure.tight_layout()
    target = Path(path)
    figure.savefig(target)
    return target
