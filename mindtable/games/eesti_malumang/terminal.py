"""Eesti mälumäng in a terminal: a numbered menu of the legal actions, like the generic table, with the board
drawn as text.

``mindtable play eesti-malumang`` (hot-seat with ``--humans N``, bots in the other seats). The view a person
sees has the board as a grid of cells — ``[A 0 ]``: the category's Estonian initial (A Ajalugu, K Kultuur,
L Loodusteadus, G Geograafia, S Sport, V Varia; E an Estonia space, F the finish square) and the pieces standing
there — instead of the board's JSON; bots get the whole view.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from mindtable.core.bots import Bot
from mindtable.core.errors import IllegalAction
from mindtable.core.match import Match
from mindtable.kit.table import TableDriver

LETTERS = {"history": "A", "culture": "K", "science": "L", "geography": "G", "sport": "S", "varia": "V"}


def render_board(board: Mapping[str, Any], pawns: list[str | None]) -> str:
    """The board as text lines, one cell per square at its place, with the pieces (seat numbers) on it."""
    squares = board["squares"]
    xs = sorted({s["x"] for s in squares})
    ys = sorted({s["y"] for s in squares})
    grid = [["      " for _ in xs] for _ in ys]
    for sq in squares:
        topic = board["colours"].get(sq["colour"], {}).get("topic")
        letter = "F" if sq["kind"] == "finish" else LETTERS.get(topic or "", "E")
        who = "".join(str(seat) for seat, at in enumerate(pawns) if at == sq["id"])
        grid[ys.index(sq["y"])][xs.index(sq["x"])] = f"[{letter}{who[:3]:<3}]"
    lines = ["".join(row).rstrip() for row in grid]
    lines.append("A Ajalugu · K Kultuur · L Loodusteadus · G Geograafia · S Sport · V Varia · E Eesti · F finiš")
    return "\n".join(lines)


def text_view(view: dict[str, Any]) -> dict[str, Any]:
    """The view for a person at the terminal: the board as text, the bulky parts left out."""
    out = {k: v for k, v in view.items() if k not in ("board", "categories", "stats", "start_rolls")}
    if view.get("board") is not None:
        out["board"] = render_board(view["board"], view["pawns"])
    out["landings"] = [f"{lnd['direction']}: {lnd['square']}" for lnd in view.get("landings", ())]
    return out


def _line(entry: Mapping[str, Any]) -> str:
    params = ", ".join(f"{k}={v}" for k, v in entry.items() if k not in ("type", "seat", "inputs"))
    typed = ", ".join(f"type {spec['name']}" for spec in entry.get("inputs", ()))
    return f"{entry['type']} {params} {typed}".strip()


def _typed(spec: Mapping[str, Any], raw: str) -> Any:
    """A typed input: a number for an ``int`` (left out when empty and optional), else the text."""
    if spec["kind"] == "int":
        if not raw and spec.get("optional"):
            return None
        try:
            return int(raw)
        except ValueError:
            return raw  # refused with the engine's message, and asked again
    if spec["kind"] == "bool":
        return raw.lower() in ("y", "yes", "1", "true", "jah")
    return raw or "?"


def _show_view(console: Console, view: dict[str, Any]) -> None:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column()
    for key, value in text_view(view).items():
        if value in (None, [], {}):
            continue
        table.add_row(key, Text(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)))
    console.print(table)


def run_terminal(
    match: Match,
    human_seats: list[int],
    bots: Mapping[int, Bot],
    *,
    read: Callable[[str], str] = input,
    console: Console | None = None,
    clock: Callable[[], int] | None = None,
) -> None:
    """Play ``match``: people at ``human_seats`` choose from numbered menus (hot-seat: the keyboard passes
    between them), ``bots`` play the other seats; timers (answer time, the cards-only game time) run on
    ``clock`` (default: the wall clock since the start)."""
    console = console or Console()
    table = TableDriver(match, human_seats, bots, clock, bots_keep_their_time=True)
    now, apply, unseen = table.now, table.apply, table.unseen
    console.print(f"[bold]{escape(match.game.title)}[/]: {match.players} seats; you play {human_seats or 'none'}.")
    last_human: int | None = None
    while not match.is_over:
        if table.automatic_step():
            continue
        seat = table.human_to_act()
        if seat is None:
            if not table.wait_for_deadline():
                console.print("[red]Nobody can act and no timer is running.[/]")
                return
            continue
        try:
            if last_human is not None and seat != last_human and len(human_seats) > 1:
                console.print(f"\n[bold]Pass the keyboard to seat {seat}[/] and press Enter.", highlight=False)
                read("")
            last_human = seat
            _turn(match, seat, unseen, read, console, now, apply)
        except EOFError:
            return
    result = match.result
    assert result is not None
    console.print(
        f"\n[bold]Game over[/] ({result.reason}): winners {list(result.winners)}, scores {list(result.scores)}"
    )


def _turn(
    match: Match,
    seat: int,
    unseen: dict[int, list[dict[str, Any]]],
    read: Callable[[str], str],
    console: Console,
    now: Callable[[], int],
    apply: Callable[[dict[str, Any]], None],
) -> None:
    for event in unseen[seat]:
        data = {k: v for k, v in event.items() if k != "type"}
        console.print(f"  • [green]{event['type']}[/] {escape(json.dumps(data, ensure_ascii=False))}", highlight=False)
    unseen[seat].clear()
    console.print(f"\n[bold]Seat {seat}[/], your move.", highlight=False)
    _show_view(console, match.view(seat))
    legal = match.legal_actions(seat)
    for number, entry in enumerate(legal, start=1):
        console.print(f"[bold]{number}[/] {escape(_line(entry))}", highlight=False)
    while True:
        raw = read("> ").strip()
        if not raw.isdigit() or not 1 <= int(raw) <= len(legal):
            console.print(f"[red]type a number from 1 to {len(legal)}[/]")
            continue
        entry = legal[int(raw) - 1]
        action = {k: v for k, v in entry.items() if k != "inputs"}
        for spec in entry.get("inputs", ()):
            value = _typed(spec, read(f"{spec['name']} ({spec['kind']}): ").strip())
            if value is not None:
                action[spec["name"]] = value
        try:
            apply({**action, "at": now()})
        except IllegalAction as exc:
            console.print(f"[red]{escape(exc.message)}[/]")
            continue
        return
