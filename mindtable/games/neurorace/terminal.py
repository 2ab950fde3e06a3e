"""Play NeuroRace in a terminal (Rich), in real time against bots.

The wall clock stamps every action with ``at`` (ms since the match began); bots act when their planned time
comes, the SOLO timer fires as a deadline. Commands (one per line, Enter to send):

=================  ===========================================================================
``s``              say START (begin the round)
``t N``            take the tile at centre spot N
``f`` / ``f N``    turn over the tile in your hand / the tile at spot N
``p``              place the tile in your hand on the next free place
``r``              return the tile in your hand to the centre
``b``              take back the last tile on your card
``stop``           "stop game": all 7 places are filled, check me
``end``            agree to end the game (UNIVERSAL, SOLO; between rounds)
``v`` ``h`` ``q``  show the table again, help, quit
=================  ===========================================================================

With several human seats at one keyboard, prefix a command with the seat: ``1: t 5``.
"""

from __future__ import annotations

import select
import sys
import time
from collections.abc import Callable, Mapping
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from mindtable.core.bots import Bot
from mindtable.core.driver import next_step
from mindtable.core.errors import IllegalAction
from mindtable.core.match import Match
from mindtable.games.neurorace.tasks import parse_task

SYMBOL_MARKS = {"sun": "☀", "moon": "☾", "lightning": "ϟ", "any": "✱"}
COLOUR_STYLES = {
    "red": "bold red",
    "yellow": "bold yellow",
    "green": "bold green",
    "blue": "bold blue",
    "purple": "bold magenta",
    "any": "bold white",
}
HELP = (
    "s start · t N take spot N · f turn hand · f N turn spot N · p place · r return · b take back · "
    "stop · end · v view · h help · q quit"
)


def side_text(side: Mapping[str, Any] | None) -> Text:
    if side is None:
        return Text("  ·    ", style="dim")
    colour = side["colour"]
    label = "all" if colour == "any" else colour[:3]
    return Text(f"{SYMBOL_MARKS[side['symbol']]} {label:<3} {side['number']:02d}", style=COLOUR_STYLES[colour])


def render(console: Console, view: Mapping[str, Any], now: int) -> None:
    head = f"NeuroRace · {view['mode'].upper()} · round {view['round']} · {view['phase']}"
    if view["time_up_at"] is not None:
        head += f" · {max(0, view['time_up_at'] - 1 - now) / 1000:.1f} s left"
    console.rule(head)
    grid = Table.grid(padding=(0, 2))
    for _ in range(6):
        grid.add_column()
    cells = [Text.assemble((f"{entry['spot']:>2} ", "dim"), side_text(entry["up"])) for entry in view["centre"]]
    for row in range(0, len(cells), 6):
        grid.add_row(*cells[row : row + 6])
    console.print(grid)
    for player in view["players"]:
        you = " (you)" if player["seat"] == view["you"] else ""
        facts = f"seat {player['seat']}{you} · level {player['level']} · done {player['completed']}"
        if view["mode"] == "universal":
            facts += f" · cards {len(player['cards_won'])}"
        if view["mode"] == "solo":
            facts += f" · losses {player['losses']}"
        console.print(Text(facts, style="bold"))
        if player["task"] is None:
            console.print("  task: face down until START")
            continue
        task = parse_task(player["task"])
        places = Text("  ")
        for index, place in enumerate(task.places):
            places.append(f"{place.text():>14}")
            if index < len(task.signs) and task.signs[index]:
                places.append(f" {task.signs[index]}")
            else:
                places.append("  ")
        console.print(places)
        laid = Text("  ")
        for side in player["slots"]:
            laid.append("       ")
            laid.append_text(side_text(side))
            laid.append("  ")
        console.print(laid)
        if player["hand"] is not None:
            hand = Text("  in hand: ")
            hand.append_text(side_text(player["hand"]["up"]))
            if "down" in player["hand"]:
                hand.append("  (other side: ")
                hand.append_text(side_text(player["hand"]["down"]))
                hand.append(")")
            console.print(hand)
    last = view["last_stop"]
    if last is not None and view["phase"] != "playing":
        who = "time is up" if last["seat"] is None else f"seat {last['seat']} said stop"
        verdict = "correct" if last["correct"] else "not correct"
        problems = ", ".join(f"place {p['place']}: {p['reason']}" for p in last["problems"])
        console.print(
            f"Round {last['round']}: {who} at {last['elapsed_ms'] / 1000:.1f} s: {verdict}. {problems}", markup=False
        )
    if view["outcome"] is not None:
        outcome = view["outcome"]
        console.print(Text(f"Game over ({outcome['reason']}): winners {outcome['winners']}", style="bold green"))


def parse_command(line: str, default_seat: int) -> tuple[int, dict[str, Any]] | str:
    """A command line -> (seat, action) or a word: ``help``, ``view``, ``quit``; raises ValueError."""
    seat = default_seat
    text = line.strip()
    if ":" in text:
        head, _, text = text.partition(":")
        if not head.strip().isdigit():
            raise ValueError(f"'{head}:' is not a seat number")
        seat = int(head)
        text = text.strip()
    words = text.split()
    if not words:
        return "view"
    verb, args = words[0].lower(), words[1:]
    if verb in ("h", "help", "?"):
        return "help"
    if verb in ("v", "view"):
        return "view"
    if verb in ("q", "quit", "exit"):
        return "quit"

    def spot() -> int:
        if len(args) != 1 or not args[0].isdigit():
            raise ValueError(f"'{verb}' needs one spot number, e.g. '{verb} 12'")
        return int(args[0])

    if verb in ("s", "start"):
        return seat, {"type": "start"}
    if verb in ("t", "take"):
        return seat, {"type": "take", "spot": spot()}
    if verb in ("f", "turn", "flip"):
        return seat, ({"type": "turn", "spot": spot()} if args else {"type": "turn"})
    if verb in ("p", "place"):
        return seat, {"type": "place"}
    if verb in ("r", "return"):
        return seat, {"type": "return"}
    if verb in ("b", "back"):
        return seat, {"type": "take_back"}
    if verb in ("stop", "!"):
        return seat, {"type": "stop"}
    if verb == "end":
        return seat, {"type": "end"}
    raise ValueError(f"unknown command {verb!r}; {HELP}")


def event_line(kind: str, data: Mapping[str, Any]) -> Text:
    """One short line for the log of what the others did."""
    who = f"seat {data.get('seat')}"
    line = Text(f"{data.get('at', '')!s:>7} ms  ", style="dim")
    if kind in ("took", "turned", "returned", "placed", "took_back"):
        where = {
            "took": f"took spot {data.get('spot')}",
            "turned": "turned the tile in hand" if data.get("spot") is None else f"turned spot {data.get('spot')}",
            "returned": f"returned a tile to spot {data.get('spot')}",
            "placed": f"placed on place {data.get('slot')}",
            "took_back": f"took back place {data.get('slot')}",
        }[kind]
        line.append(f"{who} {where}: ")
        line.append_text(side_text(data.get("up")))
    elif kind == "holding":
        line.append("you hold ")
        line.append_text(side_text(data["up"]))
        line.append(" (other side ")
        line.append_text(side_text(data["down"]))
        line.append(")")
    elif kind == "round_started":
        line.append(f"START: round {data['round']}", style="bold")
    elif kind == "checked":
        line.append(f"check: {'correct' if data['correct'] else 'not correct'}", style="bold")
    else:
        line.append(f"{kind} {dict(data)}")
    return line


def _stdin_line(timeout: float | None) -> str | None:
    ready, _, _ = select.select([sys.stdin], [], [], timeout)
    if not ready:
        return None
    line = sys.stdin.readline()
    return "quit" if line == "" else line


def run_terminal(
    match: Match,
    human_seats: list[int],
    bots: dict[int, Bot],
    *,
    console: Console | None = None,
    read_line: Callable[[float | None], str | None] | None = None,
    clock: Callable[[], float] | None = None,
) -> None:
    """Play ``match`` with people at ``human_seats`` and ``bots`` (seat -> bot) until it ends or ``q``.

    ``read_line(timeout)`` returns a typed line or ``None`` when ``timeout`` seconds pass (default: stdin);
    ``clock()`` gives seconds (default: :func:`time.monotonic`). Both are parameters for tests.
    """
    console = console or Console()
    read = read_line or _stdin_line
    wall = clock or time.monotonic
    offset = match.clock - wall() * 1000
    seat_for_view = human_seats[0] if human_seats else None

    def now() -> int:
        return max(match.clock, int(wall() * 1000 + offset))

    def show() -> None:
        render(console, match.view(seat_for_view), now())

    console.print(HELP, markup=False)
    show()
    while not match.is_over:
        step = next_step(match, bots, now())
        timeout = None if step is None else max(0.0, (step[0] - now()) / 1000)
        line = read(timeout)
        if line is None:
            if step is None:
                continue
            at, action = step
            action["at"] = max(at, match.clock)
            events = match.apply(action)
            for event in events:
                if event.visible_to(seat_for_view):
                    console.print(event_line(event.type, event.data))
            if any(event.type in ("checked", "round_started", "game_over") for event in events):
                show()
            continue
        try:
            command = parse_command(line, seat_for_view if seat_for_view is not None else 0)
        except ValueError as exc:
            console.print(Text(str(exc), style="red"))
            continue
        if command == "quit":
            console.print("Bye.")
            return
        if command == "help":
            console.print(HELP, markup=False)
            continue
        if command == "view":
            show()
            continue
        assert not isinstance(command, str)
        seat, action = command
        if seat not in human_seats:
            console.print(Text(f"seat {seat} is not played from this terminal; yours: {human_seats}", style="red"))
            continue
        try:
            match.apply({**action, "seat": seat, "at": now()})
        except IllegalAction as exc:
            console.print(Text(f"{exc.code}: {exc.message}", style="red"))
            continue
        show()
    show()
