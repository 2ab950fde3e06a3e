"""The generic terminal: any game, turn by turn, from its view, its legal actions and their inputs alone.

``mindtable play GAME`` uses it for every game without a terminal of its own, so a new game is playable in a
terminal on the day its rules are written. The seat whose turn it is sees its view as a table, what happened
since its last turn, and its legal actions as a numbered menu; an action that asks for typed inputs (an answer,
a number) prompts for each. Several people at one keyboard (hot-seat) are asked to pass the keyboard between
turns, so nobody sees another seat's hidden cards. Bots act as soon as it is their turn; a game's own timers
(deadlines) are delivered when due. Time enters every action as ``"at"``, ms since the game began.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from mindtable.cli.replay import view_table
from mindtable.core.bots import Bot
from mindtable.core.errors import IllegalAction
from mindtable.core.match import Match
from mindtable.kit.table import TableDriver, pass_the_keyboard

Reader = Callable[[str], str]


class Quit(Exception):
    """The player asked to stop."""


def describe_action(entry: Mapping[str, Any]) -> str:
    """A menu line for a listed action: its type and fixed fields, and what it asks to type.

    >>> describe_action({"type": "answer", "seat": 0, "inputs": [{"name": "text", "kind": "text"}]})
    'answer (type: text)'
    >>> describe_action({"type": "topic", "seat": 0, "topic": "sky"})
    'topic: sky'
    """
    fixed = [f"{v}" if len(entry) == 3 else f"{k}={v}" for k, v in entry.items() if k not in ("type", "seat", "inputs")]
    text = entry["type"].replace("_", " ")
    if fixed:
        text += ": " + ", ".join(fixed)
    inputs = [spec["name"] for spec in entry.get("inputs", ())]
    if inputs:
        text += f" (type: {', '.join(inputs)})"
    return text


def ask_input(spec: Mapping[str, Any], read: Reader, console: Console) -> Any:
    """Prompt for one typed input until it fits its schema; ``None`` when an optional input is left empty."""
    name, kind = spec["name"], spec["kind"]
    while True:
        if kind == "int":
            raw = read(f"{name} ({spec['minimum']}-{spec['maximum']}): ").strip()
        elif kind == "bool":
            raw = read(f"{name} (y/n): ").strip().lower()
        else:
            raw = read(f"{name}: ")
        if raw.strip().lower() == "q":
            raise Quit
        if not raw.strip() and spec.get("optional"):
            return None
        if kind == "int":
            try:
                value = int(raw)
            except ValueError:
                console.print(f"[red]{name} must be a whole number from {spec['minimum']} to {spec['maximum']}[/]")
                continue
            if spec["minimum"] <= value <= spec["maximum"]:
                return value
            console.print(f"[red]{name} must be from {spec['minimum']} to {spec['maximum']}[/]")
        elif kind == "bool":
            if raw in ("y", "yes", "n", "no"):
                return raw.startswith("y")
            console.print("[red]answer y or n[/]")
        else:
            if raw.strip() and len(raw) <= spec.get("max_length", 500):
                return raw
            console.print(f"[red]type 1 to {spec.get('max_length', 500)} characters[/]")


def run_table(
    match: Match,
    human_seats: list[int],
    bots: Mapping[int, Bot],
    *,
    read: Reader = input,
    console: Console | None = None,
    clock: Callable[[], int] | None = None,
) -> None:
    """Play ``match`` turn by turn: people at ``human_seats`` answer prompts, ``bots`` play the other seats."""
    console = console or Console()
    table = TableDriver(match, human_seats, bots, clock)
    console.print(f"[bold]{escape(match.game.title)}[/]: {match.players} seats; you play {human_seats or 'none'}.")
    console.print("Type the number of an action; v shows your whole view again; q quits.", highlight=False)
    hand_over = pass_the_keyboard(console, read)
    while (seat := table.next_person(hand_over)) is not None:
        try:
            _human_turn(table, seat, read, console)
        except Quit:
            if read("Quit this game? (y/n) ").strip().lower().startswith("y"):
                return
        except EOFError:  # the input closed: stop, keeping what was played
            return
    if table.stuck:
        console.print("[red]Nobody can act and no timer is running: the game is stuck.[/]")
        return
    if match.is_over:
        _show_result(match, console)


def _human_turn(table: TableDriver, seat: int, read: Reader, console: Console) -> None:
    match, unseen, now, apply = table.match, table.unseen, table.now, table.apply
    for event in unseen[seat]:
        data = {k: v for k, v in event.items() if k != "type"}
        console.print(f"  • [green]{event['type']}[/] {escape(str(data)) if data else ''}", highlight=False)
    unseen[seat].clear()
    console.print(f"\n[bold]Seat {seat}[/], your turn.", highlight=False)
    console.print(view_table(match.view(seat)))
    legal = match.legal_actions(seat)
    menu = Table.grid(padding=(0, 1))
    for number, entry in enumerate(legal, start=1):
        menu.add_row(f"[bold]{number}[/]", escape(describe_action(entry)))
    console.print(menu)
    while True:
        raw = read("> ").strip().lower()
        if raw == "q":
            raise Quit
        if raw == "v":
            console.print(view_table(match.view(seat)))
            continue
        if not raw.isdigit() or not 1 <= int(raw) <= len(legal):
            console.print(f"[red]type a number from 1 to {len(legal)} (v: view, q: quit)[/]")
            continue
        entry = legal[int(raw) - 1]
        action = {k: v for k, v in entry.items() if k != "inputs"}
        for spec in entry.get("inputs", ()):
            value = ask_input(spec, read, console)
            if value is not None:
                action[spec["name"]] = value
        try:
            apply({**action, "at": now()})
        except IllegalAction as exc:
            console.print(f"[red]{escape(exc.message)}[/]")
            legal = match.legal_actions(seat)
            if not legal:
                return
            continue
        return


def _show_result(match: Match, console: Console) -> None:
    result = match.result
    if result is None:
        return
    winners = ", ".join(f"seat {s}" for s in result.winners) or "nobody"
    console.print(f"\n[bold]Game over[/] ({result.reason}): {winners} won.", highlight=False)
    scores = Table("seat", "score")
    for seat, score in enumerate(result.scores):
        scores.add_row(str(seat), f"{score:g}")
    console.print(scores)
