"""``mindtable simulate``: many bot-only games of any game, with a progress bar, statistics, JSON and a plot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from mindtable.cli.play import (
    COMMAND_WITH_GAME_OPTIONS,
    BotParamOption,
    GameArgument,
    GameOptionOption,
    PlayersOption,
    fail,
    game_option_flags,
    parse_pairs,
    resolve_game,
)
from mindtable.core.errors import MindtableError
from mindtable.sim import ENGINES, plot_progress, run_simulation


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.2f}%"


def print_summary(console: Console, summary: dict[str, Any]) -> None:
    rate = summary["win_rate"]
    low, high = rate["ci95"]
    half = (high - low) / 2
    who = "Team win rate" if summary["cooperative"] else "Games with a winner"
    console.print(
        f"[bold]{who}[/]: {_percent(rate['rate'])} ± {100 * half:.2f} points "
        f"(95% Wilson interval {_percent(low)} to {_percent(high)}; {rate['wins']:,} of {rate['games']:,} games)",
        highlight=False,
    )
    if "seats" in summary:
        seats = Table(title="Wins by seat", title_justify="left")
        seats.add_column("Seat", justify="right")
        seats.add_column("Win rate", justify="right")
        seats.add_column("95% interval", justify="right")
        seats.add_column("Win share (ties split)", justify="right")
        for seat in summary["seats"]:
            lo, hi = seat["ci95"]
            seats.add_row(
                str(seat["seat"]), _percent(seat["rate"]), f"{_percent(lo)} - {_percent(hi)}", _percent(seat["share"])
            )
        console.print(seats)
    progress = summary["progress"]
    if progress["games"]:
        table = Table(title=f"Distribution of {progress['label']}", title_justify="left")
        table.add_column(progress["label"].capitalize(), justify="right")
        table.add_column("Games", justify="right")
        table.add_column("Share", justify="right")
        table.add_column("At least this", justify="right")
        table.add_column("", min_width=20)
        peak = max(entry["share"] for entry in progress["distribution"])
        remaining = 1.0
        for entry in progress["distribution"]:
            bar = "█" * round(20 * entry["share"] / peak) if peak else ""
            table.add_row(
                str(entry["value"]),
                f"{entry['count']:,}",
                _percent(entry["share"]),
                _percent(remaining) if progress["mean"] is not None else "",
                f"[blue]{bar}[/]",
            )
            remaining -= entry["share"]
        console.print(table)
        if progress["mean"] is not None:
            console.print(
                f"Mean {progress['label']}: {progress['mean']:.3f} · median {progress['median']:g} · "
                f"range {progress['min']} to {progress['max']}",
                highlight=False,
            )
    if progress["missing"]:
        console.print(f"{progress['missing']:,} games reported no progress.")
    reasons = ", ".join(f"{reason} {count:,}" for reason, count in summary["reasons"].items())
    console.print(f"Endings: {reasons}", highlight=False)
    for detail in summary.get("details", {}).values():
        _print_detail(console, detail)
    if "wins_by_value" in summary:
        by_value = summary["wins_by_value"]
        table = Table(
            title=f"Wins by bot {by_value['param']} (relative: 1.00 = as often as an average seat)",
            title_justify="left",
        )
        for name in (by_value["param"], "Seats", "Win rate", "95% interval", "Relative"):
            table.add_column(name, justify="right")
        for row in by_value["values"]:
            lo, hi = row["ci95"]
            relative = "-" if row["relative"] is None else f"{row['relative']:.2f}"
            table.add_row(
                row["value"], f"{row['seats']:,}", _percent(row["rate"]), f"{_percent(lo)} - {_percent(hi)}", relative
            )
        console.print(table)


def _print_detail(console: Console, detail: dict[str, Any]) -> None:
    """One of the game's further distributions (``Game.simulation_details``), as a table with bars."""
    if not detail["count"]:
        return
    table = Table(title=f"Distribution of {detail['label']}", title_justify="left")
    table.add_column(detail["label"].capitalize(), justify="right")
    table.add_column("Count", justify="right")
    table.add_column("Share", justify="right")
    table.add_column("", min_width=20)
    peak = max(entry["share"] for entry in detail["distribution"])
    for entry in detail["distribution"]:
        bar = "█" * round(20 * entry["share"] / peak) if peak else ""
        table.add_row(str(entry["value"]), f"{entry['count']:,}", _percent(entry["share"]), f"[blue]{bar}[/]")
    console.print(table)
    if detail["mean"] is not None:
        console.print(
            f"Mean {detail['label']}: {detail['mean']:.3f} · median {detail['median']:g} · "
            f"range {detail['min']} to {detail['max']} ({detail['count']:,} counted)",
            highlight=False,
        )


def parse_vary(text: str) -> tuple[str, list[Any]]:
    """``knows=0.3,0.6`` -> ("knows", [0.3, 0.6]); values read as JSON when they parse, else as text."""
    name, sep, values = text.partition("=")
    name = name.strip()
    items = [v.strip() for v in values.split(",") if v.strip()]
    if not sep or not name or not items:
        fail(f"--vary {text!r} must look like name=value,value (e.g. knows=0.3,0.6,0.9)")
    out: list[Any] = []
    for item in items:
        try:
            out.append(json.loads(item))
        except json.JSONDecodeError:
            out.append(item)
    return name, out


def simulate(
    ctx: typer.Context,
    game_id: GameArgument,
    players: PlayersOption = None,
    bot: Annotated[
        str | None, typer.Option("--bot", "-b", help="The bot in every seat (default: the game's first).")
    ] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games to play.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the first game; game i uses seed + i.")] = 0,
    workers: Annotated[
        int | None, typer.Option("--workers", "-w", min=1, help="Processes (default: all cores).")
    ] = None,
    engine: Annotated[
        str, typer.Option("--engine", help="auto (fast batch simulator when the game has one), match or vector.")
    ] = "auto",
    backend: Annotated[
        str, typer.Option("--backend", help="local (this machine's processes) or ray (needs mindtable[cluster]).")
    ] = "local",
    address: Annotated[
        str | None, typer.Option("--address", help="--backend ray: the Ray cluster's address (default: a local Ray).")
    ] = None,
    option: GameOptionOption = None,
    bot_param: BotParamOption = None,
    json_path: Annotated[Path | None, typer.Option("--json", help="Write the summary as JSON to this file.")] = None,
    plot_path: Annotated[
        Path | None, typer.Option("--plot", help="Plot the progress distribution to this image.")
    ] = None,
    vary: Annotated[
        str | None,
        typer.Option(
            "--vary",
            help="A bot parameter and its values, e.g. knows=0.3,0.6,0.9: the seats take them in turn (shifted "
            "one seat per game) and wins are reported by value.",
        ),
    ] = None,
) -> None:
    """Play many bot-only games and report the win rate and the distribution of progress."""
    game = resolve_game(game_id)
    if engine not in ENGINES:
        fail(f"--engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    options = parse_pairs(option, "--option") | game_option_flags(ctx.args)
    params = parse_pairs(bot_param, "--bot-param", typed=True)
    varied = parse_vary(vary) if vary is not None else None
    bot_name = bot if bot is not None else next(iter(game.bots))
    if players is None:
        players = game.min_players
    console = Console()
    progress_bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        auto_refresh=False,  # no refresh thread: the worker processes may be forked safely
        transient=False,
    )
    task = progress_bar.add_task(f"{game.title}, {players} players, {bot_name}", total=games)

    def advance(done: int, total: int) -> None:
        progress_bar.update(task, completed=done, total=total)
        progress_bar.refresh()

    try:
        with progress_bar:
            run = run_simulation(
                game.id,
                players,
                bot=bot_name,
                games=games,
                seed=seed,
                options=options,
                bot_params=params,
                workers=workers,
                engine=engine,
                progress=advance,
                vary=varied,
                backend=backend,
                address=address,
            )
    except MindtableError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        fail("interrupted", code=130)
    summary = run.summary
    note = f" ({run.fallback_reason}; used the match engine)" if run.fallback_reason else ""
    rate = games / run.elapsed_seconds if run.elapsed_seconds > 0 else float("inf")
    console.print(
        f"{games:,} games in {run.elapsed_seconds:.2f} s ({rate:,.0f} games/s), engine: {run.engine}{note}",
        highlight=False,
    )
    print_summary(console, summary)
    if json_path is not None:
        payload = {**summary, "elapsed_seconds": run.elapsed_seconds, "fallback_reason": run.fallback_reason}
        try:
            json_path.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        except OSError as exc:
            fail(f"cannot write {json_path}: {exc}")
        console.print(f"Summary written to {json_path}", highlight=False)
    if plot_path is not None:
        try:
            plot_progress(summary, plot_path)
        except (OSError, ValueError) as exc:
            fail(f"cannot write the plot {plot_path}: {exc}")
        console.print(f"Plot written to {plot_path}", highlight=False)


def register(app: typer.Typer) -> None:
    app.command("simulate", context_settings=COMMAND_WITH_GAME_OPTIONS)(simulate)
