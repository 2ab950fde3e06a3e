"""``mindtable caida-libre study``: bot games with seats of different knowledge — wins by seat and by
knowledge, game length, IQ over time — as a table, JSON and plots.

``mindtable simulate caida-libre`` gives the game length and wins by seat with one bot in every seat; this
study varies the bots' knowledge: each game seats bots whose ``knows`` values are the ``--knows`` list,
rotated one seat per game so every knowledge level sits in every seat equally.

>>> summary = run_study(players=2, games=4, knows=(0.2, 0.9), language="en")
>>> summary["games"], sorted(summary["wins_by_knowledge"])
(4, ['0.2', '0.9'])
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from mindtable.core.driver import play_out
from mindtable.core.errors import MindtableError
from mindtable.core.match import new_match


def run_study(
    players: int = 4,
    games: int = 100,
    knows: Sequence[float] = (0.3, 0.6, 0.9),
    seed: int = 0,
    language: str = "es",
    pack: str = "1",
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``games`` games; the seats' knowledge cycles through ``knows``, rotated one seat per game."""
    wins_by_seat = [0.0] * players
    wins_by_knowledge: dict[str, float] = {str(k): 0.0 for k in knows}
    seats_by_knowledge: dict[str, int] = {str(k): 0 for k in knows}
    lengths: list[int] = []
    iq_by_knowledge: dict[str, list[list[int]]] = {str(k): [] for k in knows}
    for game in range(games):
        levels = [knows[(seat + game) % len(knows)] for seat in range(players)]
        match = new_match(
            "caida-libre", players=players, seed=seed + game, options={"language": language, "pack": pack}
        )
        bots = {s: match.game.make_bot("knowing", seat=s, seed=seed + game, knows=levels[s]) for s in range(players)}
        result = play_out(match, bots)
        share = 1 / len(result.winners)
        for seat in result.winners:
            wins_by_seat[seat] += share
            wins_by_knowledge[str(levels[seat])] += share
        for seat, level in enumerate(levels):
            seats_by_knowledge[str(level)] += 1
            iq_by_knowledge[str(level)].append([row[seat] for row in result.details["history"]])
        lengths.append(int(result.details["progress"]))
        if progress is not None:
            progress(game + 1)
    mean_iq: dict[str, list[float]] = {}
    for key, curves in iq_by_knowledge.items():
        longest = max((len(c) for c in curves), default=0)
        mean_iq[key] = (
            [sum(c[min(i, len(c) - 1)] for c in curves) / len(curves) for i in range(longest)] if curves else []
        )
    return {
        "game": "caida-libre",
        "players": players,
        "games": games,
        "knows": list(knows),
        "language": language,
        "pack": pack,
        "wins_by_seat": [w / games for w in wins_by_seat],
        "wins_by_knowledge": {
            k: wins_by_knowledge[k] / max(1, seats_by_knowledge[k]) * players for k in wins_by_knowledge
        },
        "length": {"mean": sum(lengths) / len(lengths), "min": min(lengths), "max": max(lengths), "all": lengths},
        "mean_iq_by_card": mean_iq,
    }


def plot_study(summary: dict[str, Any], path: str | Path) -> Path:
    """Three panels: game length, mean IQ over the cards by knowledge, win share by knowledge and by seat."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(14, 4.5), dpi=100)
    FigureCanvasAgg(figure)
    lengths, curve, wins = figure.subplots(1, 3)
    lengths.hist(summary["length"]["all"], bins=20, color="#4C72B0")
    lengths.set_xlabel("cards played")
    lengths.set_ylabel("games")
    lengths.set_title("Game length")
    for level, values in summary["mean_iq_by_card"].items():
        curve.plot(range(len(values)), values, label=f"knows {level}")
    curve.set_xlabel("cards played")
    curve.set_ylabel("mean IQ")
    curve.set_title("IQ over time")
    curve.legend()
    labels = [f"knows {k}" for k in summary["wins_by_knowledge"]] + [
        f"seat {s}" for s in range(len(summary["wins_by_seat"]))
    ]
    shares = [100 * v / summary["players"] for v in summary["wins_by_knowledge"].values()] + [
        100 * v for v in summary["wins_by_seat"]
    ]
    wins.bar(
        labels,
        shares,
        color=["#DD8452"] * len(summary["wins_by_knowledge"]) + ["#55A868"] * len(summary["wins_by_seat"]),
    )
    wins.set_ylabel("win share (%)")
    wins.set_title("Wins by knowledge and by seat")
    wins.tick_params(axis="x", labelrotation=45)
    figure.suptitle(f"Caída Libre: {summary['players']} players, {summary['games']} games")
    figure.tight_layout()
    out = Path(path)
    figure.savefig(out)
    return out


app = typer.Typer(help="Caída Libre tools: a study of bot games by knowledge.", no_args_is_help=True)


@app.command("study")
def study(
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=8)] = 4,
    games: Annotated[int, typer.Option("--games", "-n", min=1)] = 100,
    knows: Annotated[str, typer.Option(help="the bots' knowledge levels, comma-separated (0 to 1)")] = "0.3,0.6,0.9",
    seed: Annotated[int, typer.Option()] = 0,
    language: Annotated[str, typer.Option(help="es or en")] = "es",
    pack: Annotated[str, typer.Option(help="1-5 or all")] = "1",
    json_path: Annotated[Path | None, typer.Option("--json", help="write the summary as JSON")] = None,
    plot_path: Annotated[Path | None, typer.Option("--plot", help="plot game length, IQ over time and wins")] = None,
) -> None:
    """Bot games with seats of different knowledge: wins by seat and knowledge, game length, IQ over time."""
    try:
        levels = tuple(float(k) for k in knows.split(","))
    except ValueError:
        raise typer.BadParameter(f"--knows must be numbers from 0 to 1 separated by commas, got {knows!r}") from None
    if not levels or any(not 0 <= k <= 1 for k in levels):
        raise typer.BadParameter(f"--knows must be numbers from 0 to 1, got {knows!r}")
    console = Console()
    with Progress(console=console, auto_refresh=False) as bar:
        task = bar.add_task(f"Caída Libre, {players} players", total=games)

        def advance(done: int) -> None:
            bar.update(task, completed=done)
            bar.refresh()

        try:
            summary = run_study(players, games, levels, seed, language, pack, progress=advance)
        except MindtableError as exc:
            raise typer.BadParameter(str(exc)) from None
    table = Table(title="Wins by knowledge (share of a fair seat: 1.0 = as often as an average seat)")
    table.add_column("knows")
    table.add_column("relative wins", justify="right")
    for level, value in summary["wins_by_knowledge"].items():
        table.add_row(level, f"{value:.2f}")
    console.print(table)
    seats = Table(title="Wins by seat")
    seats.add_column("seat")
    seats.add_column("win share", justify="right")
    for seat, value in enumerate(summary["wins_by_seat"]):
        seats.add_row(str(seat), f"{100 * value:.1f}%")
    console.print(seats)
    length = summary["length"]
    console.print(f"Cards a game: mean {length['mean']:.1f}, range {length['min']} to {length['max']}")
    if json_path is not None:
        json_path.write_text(json.dumps(summary, indent=2), encoding="utf-8")
        console.print(f"Summary written to {json_path}")
    if plot_path is not None:
        console.print(f"Plot written to {plot_study(summary, plot_path)}")
