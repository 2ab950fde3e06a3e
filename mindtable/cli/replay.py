"""``mindtable replay``: step through a recorded game, action by action, as one seat (or a spectator) saw it.

Game-agnostic: the core's one replay loop (:func:`mindtable.core.match.replay_into`) rebuilds the match from the
record's start and applies the actions one by one; this module only shows each step. Records made under other
rules or content are reported first (:func:`mindtable.core.match.record_notices`).

Where a game has a play screen, the replay reuses it: the module of the game's terminal hook
(``Game.terminal``) may offer ``replay_screen(match, seat, language=...)``, a factory of
``draw(match, action, events)`` returning what to show at each step, in the language ``--language`` chose.
Other games (or ``--table``) get the view as a table. Enter, space or the right arrow step forward, the left
arrow steps back, ``q`` quits; at the end every seat's hidden part of the view (its hand) is shown, since the
game is over.
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
from rich.table import Table
from rich.text import Text

from mindtable.cli.play import WORDS, LanguageOption, fail, language_argument
from mindtable.core.errors import MindtableError
from mindtable.core.events import events_for
from mindtable.core.game import Game
from mindtable.core.hooks import HookError, resolve
from mindtable.core.match import Match, load_record, record_notices, replay_into, start_of
from mindtable.kit.words import Catalogue, surface_language, surface_words


def stdin_is_interactive() -> bool:
    return sys.stdin.isatty()


#: Keys that step forward and back (Enter, space, n, the right and left arrows; p and b go back too).
FORWARD = ("\n", "\r", " ", "n", "\x1b[C")
BACK = ("p", "b", "\x1b[D")


def read_key() -> str:
    """One key from the terminal without waiting for Enter (arrow keys as their escape sequence)."""
    import os
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        data = os.read(fd, 8)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    return data.decode("utf-8", errors="ignore") or "q"


def screen_of(game: Game) -> Any:
    """The game's ``replay_screen`` factory (next to its terminal hook), or ``None``."""
    if not game.terminal:
        return None
    module = game.terminal.partition(":")[0]
    try:
        return resolve(f"{module}:replay_screen", f"the replay screen of {game.id}")
    except HookError:
        return None


def hidden_parts(match: Match, say: Catalogue) -> Table | None:
    """What each seat saw that a spectator did not (its hand): shown once the game is over."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    public = match.view(None)
    for seat in range(match.players):
        own = {
            key: value
            for key, value in match.view(seat).items()
            if key not in ("you", "seat", "to_act") and public.get(key) != value
        }
        for key, value in own.items():
            table.add_row(say("replay.seat_part", seat=seat, part=key), _value(value))
    return table if table.row_count else None


def _time(action: dict[str, Any]) -> str:
    at = action.get("at")
    return "" if at is None else f"{at / 1000:.3f} s"


def _value(value: Any) -> RenderableType:
    """A value as JSON (never Python's repr: null, true, not None, True)."""
    if isinstance(value, str):
        return Text(value)
    text = json.dumps(value, separators=(", ", ": "), ensure_ascii=False)
    return Text(text if len(text) <= 400 else text[:397] + "...", overflow="fold")


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
    *,
    say: Catalogue,
) -> Panel:
    parts: list[RenderableType] = [_heading(index, total, action, say)]
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
        parts.append(Text(say("replay.events_seen", who=who), style="dim"))
        parts.append(lines)
    if before is None:
        parts.append(Text(say("replay.view_of", who=who), style="dim"))
    elif full:
        parts.append(Text(say("replay.view_changed", who=who), style="dim"))
    else:
        parts.append(Text(say("replay.what_changed", who=who), style="dim"))
    table = view_table(view, before, full)
    if table.row_count:
        parts.append(table)
    else:
        parts.append(Text(say("replay.nothing"), style="dim"))
    return Panel(Group(*parts), border_style="blue")


def _heading(index: int, total: int, action: dict[str, Any] | None, say: Catalogue) -> Text:
    if action is None:
        return Text(say("replay.start"), style="bold")
    heading = Text(say("replay.action", index=index, total=total), style="bold")
    heading.append(f"  {_time(action)}", style="dim")
    seat = action.get("seat")
    heading.append("  " + (say("replay.seat", seat=seat) if seat is not None else say("replay.by_game")))
    heading.append(f"  {action['type']}", style="bold magenta")
    extra = {k: v for k, v in action.items() if k not in ("type", "seat", "at")}
    if extra:
        heading.append(f"  {json.dumps(extra)}")
    return heading


def replay(
    path: Annotated[Path, typer.Argument(metavar="RECORD", help="A record file written by `mindtable play --save`.")],
    seat: Annotated[int | None, typer.Option("--seat", help="Show what this seat saw (default: seat 0).")] = None,
    spectator: Annotated[bool, typer.Option("--spectator", help="Show what a spectator saw.")] = False,
    step: Annotated[
        bool,
        typer.Option("--step/--auto", help="Step with Enter or the arrow keys (q quits), or run through."),
    ] = True,
    delay: Annotated[float, typer.Option("--delay", min=0.0, help="Seconds between actions with --auto.")] = 0.5,
    full: Annotated[
        bool, typer.Option("--full", help="With --table: the whole view after every action, not only changes.")
    ] = False,
    table: Annotated[
        bool, typer.Option("--table", help="Show the view as a table even where the game has a play screen.")
    ] = False,
    language: LanguageOption = None,
) -> None:
    """Step through a recorded game on its play screen, as one seat (or a spectator) saw it."""
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
    speaks = surface_language(language, match.options)
    say = surface_words(speaks, WORDS)
    who = say("replay.spectator") if watcher is None else say("replay.seat", seat=watcher)
    interactive = step and stdin_is_interactive()
    console = Console()
    header = Text(match.game.title, style="bold")
    header.append(say("replay.header", n=match.players, seed=match.seed, actions=len(actions), who=who))
    if interactive:
        header.append(" " + say("replay.keys"))
    console.print(header)
    for notice in record_notices(record):
        line = Text(say("replay.note"), style="bold yellow")
        line.append(": " + say(f"replay.notice.{notice['code']}", **notice["params"]))
        console.print(line)
    factory = None if table else screen_of(match.game)
    draw = factory(match, watcher, **language_argument(factory, speaks)) if factory is not None else None
    total = len(actions)
    frames: list[RenderableType] = []
    shown: dict[str, Any] = {"view": match.view(watcher)}

    def frame(current: Match, action: dict[str, Any] | None, events: list[Any]) -> RenderableType:
        heading = _heading(len(frames), total, action, say)
        if draw is not None:
            return Group(heading, draw(current, action, events))
        view = current.view(watcher)
        if action is None:
            return step_panel(0, total, None, [], view, who, say=say)
        panel = step_panel(
            len(frames), total, action, events_for(events, watcher), view, who, shown["view"], full, say=say
        )
        shown["view"] = view
        return panel

    frames.append(frame(match, None, []))
    try:
        match = replay_into(record, lambda current, action, events: frames.append(frame(current, action, events)))
    except MindtableError as exc:
        for rendered in frames:
            console.print(rendered)
        fail(f"{path}: {exc}")
    if interactive:
        index = 0
        console.print(frames[0])
        while True:
            key = read_key()
            if key.lower().startswith("q"):
                console.print(say("replay.stopped"))
                return
            if key in BACK:
                index = max(0, index - 1)
            elif key in FORWARD:
                if index == len(frames) - 1:
                    break
                index += 1
            else:
                continue
            console.print(frames[index])
    else:
        for rendered in frames:
            console.print(rendered)
            if not step and delay:
                time.sleep(delay)
    result = match.result
    if result is None:
        console.print(Text(say("replay.unfinished"), style="bold"))
        return
    hidden = hidden_parts(match, say)
    if hidden is not None:
        console.print(Text(say("replay.every_hand"), style="bold"))
        console.print(hidden)
    line = Text(say("replay.result"), style="bold")
    line.append(
        ": "
        + say(
            "replay.result_details",
            winners=json.dumps(list(result.winners)),
            scores=json.dumps(list(result.scores)),
            reason=result.reason,
            details=json.dumps(dict(result.details)),
        )
    )
    console.print(line)
    stored = record.get("result")
    if stored is not None and stored != result.to_dict():
        fail(f"{path}: the record claims the result {stored!r} but replays to {result.to_dict()!r}")


def register(app: typer.Typer) -> None:
    app.command("replay")(replay)
