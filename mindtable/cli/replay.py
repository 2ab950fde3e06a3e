"""``mindtable replay``: step through a recorded game, action by action, as one seat (or a spectator) saw it.

Game-agnostic: the core's one replay loop (:func:`mindtable.core.match.replay_into`) rebuilds the match from the
record's start and applies the actions one by one; this module only shows each step. Records made under other
rules or content are reported first (:func:`mindtable.core.match.record_notices`).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.pretty import Pretty
from rich.table import Table
from rich.text import Text

from mindtable.cli.play import fail
from mindtable.core.errors import MindtableError
from mindtable.core.events import events_for
from mindtable.core.match import Match, load_record, record_notices, replay_into, start_of


def stdin_is_interactive() -> bool:
    return sys.stdin.isatty()


class _Quit(Exception):
    """The viewer typed q."""


#: How a record notice (a code with parameters) reads in the terminal.
NOTICES = {
    "old_format": "this record has {format}: it replays only while the game's code and files are unchanged",
    "rules_changed": "recorded under rules revision {recorded}; revision {installed} is installed",
    "content_changed": "the game's content files changed since this record was made ({recorded} -> {installed})",
}


def _time(action: dict[str, Any]) -> str:
    at = action.get("at")
    return "" if at is None else f"{at / 1000:.3f} s"


def _value(value: Any) -> RenderableType:
    if isinstance(value, (dict, list)):
        text = json.dumps(value, separators=(", ", ": "))
        if len(text) <= 100:
            return Text(text)
        return Pretty(value, max_length=30)
    return Text(value if isinstance(value, str) else json.dumps(value))


def view_table(view: dict[str, Any], before: dict[str, Any] | None = None, full: bool = True) -> Table:
    """The view as a two-column table; with ``before``, changed fields are marked (and, unless ``full``,
    only they are shown)."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column()
    for key, value in view.items():
        changed = before is not None and before.get(key) != value
        if not full and not changed:
            continue
        cell = _value(value)
        if changed and isinstance(cell, Text):
            cell.stylize("bold yellow")
        table.add_row(("* " if changed else "  ") + key if before is not None else key, cell)
    return table


def step_panel(
    index: int,
    total: int,
    action: dict[str, Any] | None,
    events: list[dict[str, Any]],
    view: dict[str, Any],
    who: str,
    before: dict[str, Any] | None = None,
    full: bool = True,
) -> Panel:
    parts: list[RenderableType] = []
    if action is None:
        heading = Text("Start of the game", style="bold")
    else:
        heading = Text(f"Action {index}/{total}", style="bold")
        heading.append(f"  {_time(action)}", style="dim")
        heading.append("  seat " + str(action.get("seat")) if action.get("seat") is not None else "  (the game)")
        heading.append(f"  {action['type']}", style="bold magenta")
        extra = {k: v for k, v in action.items() if k not in ("type", "seat", "at")}
        if extra:
            heading.append(f"  {json.dumps(extra)}")
    parts.append(heading)
    if events:
        lines = Text()
        for number, event in enumerate(events):
            if number:
                lines.append("\n")
            lines.append("  • ", style="dim")
            lines.append(event["type"], style="green")
            data = {k: v for k, v in event.items() if k != "type"}
            if data:
                lines.append(" " + json.dumps(data, separators=(", ", ": ")))
        parts.append(Text("Events seen by " + who + ":", style="dim"))
        parts.append(lines)
    if before is None or full:
        parts.append(Text(f"View of {who}" + (" (* changed):" if before is not None else ":"), style="dim"))
    else:
        parts.append(Text(f"What changed in the view of {who} (--full shows all of it):", style="dim"))
    table = view_table(view, before, full)
    if table.row_count:
        parts.append(table)
    else:
        parts.append(Text("  (nothing)", style="dim"))
    return Panel(Group(*parts), border_style="blue")


def replay(
    path: Annotated[Path, typer.Argument(metavar="RECORD", help="A record file written by `mindtable play --save`.")],
    seat: Annotated[int | None, typer.Option("--seat", help="Show what this seat saw (default: seat 0).")] = None,
    spectator: Annotated[bool, typer.Option("--spectator", help="Show what a spectator saw.")] = False,
    step: Annotated[
        bool, typer.Option("--step/--auto", help="Wait for enter after each action (q quits), or run through.")
    ] = True,
    delay: Annotated[float, typer.Option("--delay", min=0.0, help="Seconds between actions with --auto.")] = 0.5,
    full: Annotated[
        bool, typer.Option("--full", help="Show the whole view after every action, not only changes.")
    ] = False,
) -> None:
    """Step through a recorded game, showing each action and the chosen seat's view."""
    if spectator and seat is not None:
        fail("choose either --seat N or --spectator, not both")
    if not path.exists():
        fail(f"{path}: no such file")
    try:
        record = load_record(str(path))
        match = start_of(record)
    except MindtableError as exc:
        fail(f"{path}: {exc}" if str(path) not in str(exc) else str(exc))
    except OSError as exc:
        fail(f"{path}: cannot read the file: {exc}")
    actions = record.get("actions")
    if not isinstance(actions, list):
        fail(f"{path}: the record's 'actions' must be a list")
    watcher: int | None = None if spectator else (0 if seat is None else seat)
    if watcher is not None and not 0 <= watcher < match.players:
        fail(f"--seat must be from 0 to {match.players - 1} for this {match.players}-player game, got {watcher}")
    who = "a spectator" if watcher is None else f"seat {watcher}"
    interactive = step and stdin_is_interactive()
    pause = delay if not step else 0.0
    console = Console()
    console.print(
        f"[bold]{match.game.title}[/]: {match.players} players, seed {match.seed}, {len(actions)} actions; "
        f"watching as {who}." + (" Enter: next action, q: quit." if interactive else ""),
        highlight=False,
    )
    for notice in record_notices(record):
        console.print(f"[bold yellow]Note[/]: {NOTICES[notice['code']].format(**notice['params'])}", highlight=False)
    console.print(step_panel(0, len(actions), None, [], match.view(watcher), who))
    shown: dict[str, Any] = {"index": 0, "view": match.view(watcher)}

    def show(current: Match, action: dict[str, Any], events: list[Any]) -> None:
        shown["index"] += 1
        view = current.view(watcher)
        panel = step_panel(
            shown["index"], len(actions), action, events_for(events, watcher), view, who, shown["view"], full
        )
        shown["view"] = view
        console.print(panel)
        if interactive:
            if input().strip().lower().startswith("q"):
                raise _Quit
        elif pause:
            time.sleep(pause)

    if interactive and input().strip().lower().startswith("q"):
        console.print("Stopped.")
        return
    try:
        match = replay_into(record, show)
    except _Quit:
        console.print("Stopped.")
        return
    except MindtableError as exc:
        fail(f"{path}: {exc}")
    result = match.result
    if result is None:
        console.print("[bold]End of the record[/]: the game was not finished.")
        return
    line = Text("Result", style="bold")
    line.append(
        f": winners {list(result.winners) or 'none'}, scores {list(result.scores)}, "
        f"reason {result.reason}, details {json.dumps(dict(result.details))}"
    )
    console.print(line)
    stored = record.get("result")
    if stored is not None and stored != result.to_dict():
        fail(f"{path}: the record claims the result {stored!r} but replays to {result.to_dict()!r}")


def register(app: typer.Typer) -> None:
    app.command("replay")(replay)
