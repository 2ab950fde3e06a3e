"""``mindtable neurorace ...``: check the deck and tiles, plot the difficulty curve, read a task.

Commands: ``deck verify``, ``deck curve [--plot curve.png]``, ``deck generate --seed N [--out FILE]``,
``tiles verify`` and ``task parse "TASK"``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from mindtable.games.neurorace.components import TILES, format_side, tile_problems
from mindtable.games.neurorace.deck import (
    CARDS,
    DECK_SEED,
    DeckFileError,
    band,
    deck_problems,
    difficulty_curve,
    format_deck,
    generate_deck,
    parse_deck,
)
from mindtable.games.neurorace.solver import choices, difficulty, solve
from mindtable.games.neurorace.tasks import TaskSyntaxError, format_task, parse_task

app = typer.Typer(help="NeuroRace tools: the task deck, the tiles, the task language.", no_args_is_help=True)
deck_app = typer.Typer(help="The 90 task cards.", no_args_is_help=True)
tiles_app = typer.Typer(help="The 60 tiles.", no_args_is_help=True)
task_app = typer.Typer(help="The task language.", no_args_is_help=True)
app.add_typer(deck_app, name="deck")
app.add_typer(tiles_app, name="tiles")
app.add_typer(task_app, name="task")
console = Console(highlight=False)


def _cards(file: Path | None) -> list[Any]:
    if file is None:
        return list(CARDS.values())
    try:
        return parse_deck(file.read_text(encoding="utf-8"), str(file))
    except (OSError, DeckFileError) as exc:
        console.print(Text(str(exc), style="red"))
        raise typer.Exit(2) from None


DeckFile = Annotated[Path | None, typer.Option(help="a deck file (default: the shipped deck)")]


@deck_app.command("verify")
def deck_verify(file: DeckFile = None) -> None:
    """Check 90 cards, 9 per level, every task solvable with the tiles, difficulty rising with the level."""
    cards = _cards(file)
    started = time.perf_counter()
    problems = deck_problems(cards)
    elapsed = time.perf_counter() - started
    if problems:
        for problem in problems:
            console.print(Text(problem, style="red"))
        raise typer.Exit(1)
    tasks = sum(len(card.tasks) for card in cards)
    console.print(f"OK: {len(cards)} cards, {tasks} tasks, all solvable, difficulty rising ({elapsed:.3f} s)")


@deck_app.command("curve")
def deck_curve(
    plot: Annotated[Path | None, typer.Option(help="write a PNG plot of difficulty per level here")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the curve as JSON")] = False,
    file: DeckFile = None,
) -> None:
    """Difficulty (bits) per level: min, median, max, and the level's band."""
    cards = _cards(file)
    curve = difficulty_curve(cards)
    if as_json:
        print(json.dumps({str(level): values for level, values in curve.items()}, indent=2))
    else:
        table = Table("level", "band", "min", "median", "max")
        for level, values in curve.items():
            low, high = band(level)
            table.add_row(str(level), f"{low:.0f}-{high:.0f}", *(f"{values[k]:.1f}" for k in ("min", "median", "max")))
        console.print(table)
    if plot is not None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        figure, axes = plt.subplots(figsize=(7, 4))
        for card in cards:
            points = [difficulty(task) for task in card.tasks]
            axes.scatter([card.level] * len(points), points, s=12, alpha=0.5, color="tab:blue")
        levels = list(curve)
        axes.plot(levels, [curve[level]["median"] for level in levels], color="tab:red", label="median")
        axes.set_xlabel("level")
        axes.set_ylabel("difficulty (bits)")
        axes.set_xticks(levels)
        axes.set_title("NeuroRace task difficulty per level")
        axes.legend()
        figure.tight_layout()
        figure.savefig(plot, dpi=120)
        plt.close(figure)
        console.print(f"plot written to {plot}")


@deck_app.command("generate")
def deck_generate(
    seed: Annotated[int, typer.Option(help="the generator's seed (the shipped deck uses this default)")] = DECK_SEED,
    out: Annotated[Path | None, typer.Option(help="write the deck file here (default: print it)")] = None,
) -> None:
    """Build a deck of 90 cards from a seed."""
    text = format_deck(generate_deck(seed), seed)
    if out is None:
        print(text, end="")
    else:
        out.write_text(text, encoding="utf-8")
        console.print(f"deck written to {out}")


@tiles_app.command("verify")
def tiles_verify() -> None:
    """Check the shipped tiles against the book: 60 tiles, 9 bonus, numbers 50 apart, colours differ."""
    problems = tile_problems(TILES)
    if problems:
        for problem in problems:
            console.print(Text(problem, style="red"))
        raise typer.Exit(1)
    console.print(f"OK: {len(TILES)} tiles")


@task_app.command("parse")
def task_parse(
    text: Annotated[str, typer.Argument(help='a task, e.g. "sun [red] blue-moon < 4_ _7 > moon sun"')],
) -> None:
    """Read a task, explain each place, and solve it with the tiles."""
    try:
        task = parse_task(text)
    except TaskSyntaxError as exc:
        console.print(Text(str(exc), style="red"))
        if exc.column is not None:
            console.print(f"  {text}\n  {' ' * (exc.column - 1)}^", markup=False)
        raise typer.Exit(2) from None
    console.print(f"task: {format_task(task)}", markup=False)
    for index, (place, count) in enumerate(zip(task.places, choices(task), strict=True)):
        sign = task.signs[index] if index < len(task.signs) else None
        after = f"   then '{sign}'" if sign else ""
        console.print(f"  place {index}: {place.describe()} ({count} of 120 sides fit){after}", markup=False)
    layout = solve(task)
    if layout is None:
        console.print(Text("cannot be completed with the tiles", style="red"))
        raise typer.Exit(1)
    console.print(f"difficulty: {difficulty(task):.1f} bits")
    console.print("a solution: " + " · ".join(f"tile {t} {format_side(TILES[t][s])}" for t, s in layout))
