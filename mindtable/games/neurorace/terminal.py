"""Play NeuroRace in a terminal (Rich), in real time against bots or, alone, in SOLO against the timer.

The wall clock stamps every action with ``at`` (ms since the match began); bots act when their planned time
comes; the 3-2-1 countdown and the SOLO timer are the game's deadlines and are announced as they run.
Commands (one per line, Enter to send):

=================  ===========================================================================
``s``              I am ready (the round starts for everyone after a 3-2-1 countdown)
``t 42``           take the tile showing 42 (``t 42 red`` when two tiles show 42)
``f`` / ``f 42``   turn over the tile in your hand / the tile showing 42 in the centre
``p``              place the tile in your hand on the next free place
``r``              return the tile in your hand to the centre
``b``              take back the last tile on your card
``stop``           "stop game": all 7 places are filled, check me
``end``            agree to end the game (UNIVERSAL, SOLO; between rounds)
``v`` ``h`` ``q``  show the table again, help and legend, quit (asks first while the game runs)
=================  ===========================================================================

With several human seats at one keyboard, prefix a command with the seat: ``1: t 5``. Every screen line fits
in 80 columns.
"""

from __future__ import annotations

import select
import sys
import time
from collections.abc import Callable, Mapping
from typing import Any

from rich.console import Console, Group
from rich.rule import Rule
from rich.text import Text

from mindtable.core.bots import Bot
from mindtable.core.driver import next_step
from mindtable.core.errors import IllegalAction
from mindtable.core.match import Match
from mindtable.games.neurorace.tasks import parse_task
from mindtable.kit.names import bot_name

SYMBOL_MARKS = {"sun": "☀", "moon": "☾", "lightning": "ϟ", "any": "✱"}
SYMBOL_ORDER = ("sun", "moon", "lightning", "any")
COLOUR_STYLES = {
    "red": "bold red",
    "yellow": "bold yellow",
    "green": "bold green",
    "blue": "bold blue",
    "purple": "bold magenta",
    "any": "bold white",
}
COLOUR_WORDS = {"red": "red", "yel": "yellow", "gre": "green", "blu": "blue", "pur": "purple", "all": "any"}
#: Width of one tile on screen ("☀ red 42") and of one column (tile + two spaces); 7 columns fit 80.
TILE_WIDTH = 8
COLUMN = 10
PER_ROW = 7
HELP = (
    "s ready · t 42 take the tile showing 42 · f turn the tile in hand · f 42 turn a centre tile · p place · "
    "r return · b take back · stop · end · v view · h help · q quit"
)
LEGEND = (
    "Legend: ☀ sun ☾ moon ϟ lightning ✱ any symbol · red yel gre blu pur colours, all = any colour · "
    "task: sun = a sun of any colour, ■ = any symbol of that colour, 6_ = first digit 6 (60-69), "
    "_6 = last digit 6 (06, 16 ... 96), < > = compare the numbers of the neighbours"
)
#: What to do, in words, when the engine refuses an action (by its code); otherwise its own message.
HINTS = {
    "not_started": "the round has not started: type s when you are ready",
    "round_stopped": "this round is over: type s when you are ready for the next one",
    "round_timed_out": "the time for this round ran out: type s when you are ready for the next one",
    "countdown_running": "everyone is ready: the round starts in a moment",
    "already_ready": "you are ready: waiting for the others",
    "round_running": "the round is running: take tiles with t and the number on the tile, e.g. t 42",
    "hand_full": "you hold a tile: type p to place it, f to turn it or r to put it back",
    "hand_empty": "you hold no tile: type t and the number on a tile, e.g. t 42",
    "turn_in_hand": "you hold a tile: type f to turn it (no number)",
    "card_full": "all 7 places are filled: type stop, or b to take the last tile back",
    "not_finished": "say stop only when all 7 places are filled: keep taking tiles",
    "nothing_to_take_back": "your card has no tile on it yet",
    "tile_taken": "someone else took that tile first: pick another",
    "out_of_time": "the time for this task is up",
    "not_in_mode": "BASIC has no early end: the game ends when someone completes the last level",
    "start_by_ready": "type s: the round starts when every player is ready",
}


def side_text(side: Mapping[str, Any] | None) -> Text:
    """A tile side in 8 columns: ``☀ red 42`` in its colour; an empty place is a dim dot."""
    if side is None:
        return Text("   ·    ", style="dim")
    colour = side["colour"]
    label = "all" if colour == "any" else colour[:3]
    return Text(f"{SYMBOL_MARKS[side['symbol']]} {label:<3} {side['number']:02d}", style=COLOUR_STYLES[colour])


def place_text(place: Any) -> Text:
    """One condition of a task in at most 8 columns, in its colour."""
    kind = place.kind
    if kind == "symbol":
        return Text(f"{SYMBOL_MARKS[place.symbol]} any", style="bold white")
    if kind == "colour":
        return Text(f"■ {place.colour[:3]}", style=COLOUR_STYLES[place.colour])
    if kind == "both":
        return Text(f"{SYMBOL_MARKS[place.symbol]} {place.colour[:3]}", style=COLOUR_STYLES[place.colour])
    return Text(place.text(), style="bold")


def task_line(task_text: str) -> Text:
    """The task in 7 columns of 10, aligned with the tiles laid below it; signs sit between the columns."""
    task = parse_task(task_text)
    line = Text("  ")
    for index, place in enumerate(task.places):
        cell = place_text(place)
        line.append_text(cell)
        line.append(" " * (TILE_WIDTH - cell.cell_len))
        sign = task.signs[index] if index < len(task.signs) else None
        line.append(f" {sign}" if sign else "  ", style="bold cyan")
    return line


def _seat_name(view: Mapping[str, Any], seat: int, bots: Mapping[int, Bot]) -> str:
    if seat == view["you"]:
        return "you"
    return bot_name(seat) if seat in bots else f"seat {seat}"


def _clock_line(view: Mapping[str, Any], now: int) -> str:
    phase = view["phase"]
    if phase == "countdown" and view.get("countdown_ends_at") is not None:
        left = max(0, view["countdown_ends_at"] - now)
        return f"starts in {max(1, -(-left // 1000))}"
    if view["time_up_at"] is not None:
        return f"{max(0, view['time_up_at'] - 1 - now) / 1000:.1f} s left"
    if phase == "ready":
        waiting = sum(not ready for ready in view.get("ready") or [])
        return f"waiting for {waiting} to be ready" if waiting else "ready"
    return phase


def screen(view: Mapping[str, Any], now: int, bots: Mapping[int, Bot] | None = None) -> Group:
    """The table as Rich renderables: the centre by symbol and colour, each card's task and tiles, the last check."""
    bots = bots or {}
    parts: list[Any] = []

    class _Lines:
        @staticmethod
        def print(item: Any, **_: Any) -> None:
            if isinstance(item, str):  # sentences wrap; table lines never do
                parts.append(Text(item))
                return
            item.no_wrap = True
            item.overflow = "crop"
            parts.append(item)

        @staticmethod
        def rule(title: str) -> None:
            parts.append(Rule(title))

    console = _Lines()
    head = f"NeuroRace {view['mode'].upper()} · round {view['round']} · {_clock_line(view, now)}"
    console.rule(head)
    by_symbol: dict[str, list[Mapping[str, Any]]] = {symbol: [] for symbol in SYMBOL_ORDER}
    for entry in view["centre"]:
        by_symbol[entry["up"]["symbol"]].append(entry["up"])
    colours = list(COLOUR_STYLES)
    for symbol in SYMBOL_ORDER:
        sides = sorted(by_symbol[symbol], key=lambda side: (colours.index(side["colour"]), side["number"]))
        for row in range(0, len(sides), PER_ROW):
            line = Text("  ")
            for side in sides[row : row + PER_ROW]:
                line.append_text(side_text(side))
                line.append("  ")
            console.print(line)
    ready = view.get("ready") or []
    for player in view["players"]:
        seat = player["seat"]
        facts = f"{_seat_name(view, seat, bots)} · level {player['level']} · done {player['completed']}"
        if view["mode"] == "universal":
            facts += f" · cards {len(player['cards_won'])}"
        if view["mode"] == "solo":
            facts += f" · losses {player['losses']}"
        if view["phase"] == "ready" and seat < len(ready):
            facts += " · ready" if ready[seat] else " · not ready"
        console.print(Text(facts, style="bold"))
        if player["task"] is None:
            console.print("  task: face down until the round starts")
            continue
        console.print(task_line(player["task"]))
        laid = Text("  ")
        for side in player["slots"]:
            laid.append_text(side_text(side))
            laid.append("  ")
        console.print(laid)
        if player["hand"] is not None:
            hand = Text("  in hand: ")
            hand.append_text(side_text(player["hand"]["up"]))
            if "down" in player["hand"]:
                hand.append("  other side: ")
                hand.append_text(side_text(player["hand"]["down"]))
            console.print(hand)
    last = view["last_stop"]
    if last is not None and view["phase"] != "playing":
        who = "time is up" if last["seat"] is None else f"{_seat_name(view, last['seat'], bots)} said stop"
        verdict = "correct" if last["correct"] else "not correct"
        problems = ", ".join(f"place {p['place'] + 1}: {p['reason']}" for p in last["problems"])
        console.print(
            f"Round {last['round']}: {who} at {last['elapsed_ms'] / 1000:.1f} s: {verdict}. {problems}", markup=False
        )
    if view["outcome"] is not None:
        outcome = view["outcome"]
        names = ", ".join(_seat_name(view, seat, bots) for seat in outcome["winners"]) or "nobody"
        console.print(Text(f"Game over ({outcome['reason']}): winner {names}", style="bold green"))
    elif view["phase"] == "ready" and view["you"] is not None and not ready[view["you"]]:
        console.print(Text("Type s and Enter when you are ready.", style="bold yellow"))
    return Group(*parts)


def render(console: Console, view: Mapping[str, Any], now: int, bots: Mapping[int, Bot] | None = None) -> None:
    console.print(screen(view, now, bots))


def replay_screen(match: Match, seat: int | None) -> Callable[[Match, dict[str, Any] | None, list[Any]], Group]:
    """For ``mindtable replay``: the play screen at each step of a record, as ``seat`` saw it (``None``: a
    spectator), with the lines of what happened."""

    def draw(current: Match, action: dict[str, Any] | None, events: list[Any]) -> Group:
        lines = [event_line(e.type, e.data) for e in events if e.visible_to(seat)]
        return Group(screen(current.view(seat), current.clock), *(line for line in lines if line is not None))

    return draw


def parse_command(line: str, default_seat: int) -> tuple[int, dict[str, Any]] | str:
    """A command line -> (seat, action) or a word: ``help``, ``view``, ``quit``; raises ValueError.

    ``take`` and ``turn`` name a tile by the number on it (``"number"``, and ``"colour"`` when two tiles show
    that number): :func:`resolve_tile` turns them into the centre spot.
    """
    seat = default_seat
    text = line.strip()
    if ":" in text:
        head, _, text = text.partition(":")
        if not head.strip().isdigit():
            raise ValueError(f"'{head}:' is not a seat number; type e.g. '1: t 42' for seat 1")
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

    def tile(required: bool) -> dict[str, Any]:
        if not args:
            if required:
                raise ValueError(f"type the number on the tile after '{verb}', e.g. '{verb} 42'")
            return {}
        if not args[0].isdigit() or not 0 <= int(args[0]) <= 99 or len(args) > 2:
            raise ValueError(f"'{verb}' takes the number on a tile (00-99) and maybe its colour, e.g. '{verb} 42 red'")
        picked: dict[str, Any] = {"number": int(args[0])}
        if len(args) == 2:
            colour = COLOUR_WORDS.get(args[1][:3].lower())
            if colour is None:
                raise ValueError(f"{args[1]!r} is not a colour: red, yellow, green, blue, purple or all")
            picked["colour"] = colour
        return picked

    if verb in ("s", "start", "ready"):
        return seat, {"type": "ready"}
    if verb in ("t", "take"):
        return seat, {"type": "take", **tile(True)}
    if verb in ("f", "turn", "flip"):
        return seat, {"type": "turn", **tile(False)}
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
    raise ValueError(f"unknown command {verb!r}: type h for the commands")


def resolve_tile(view: Mapping[str, Any], number: int, colour: str | None = None) -> int:
    """The centre spot of the tile showing ``number`` (and ``colour``); ValueError in words otherwise."""
    found = [
        entry
        for entry in view["centre"]
        if entry["up"]["number"] == number and (colour is None or entry["up"]["colour"] == colour)
    ]
    if not found:
        where = f"{number:02d}" + (f" in {colour}" if colour else "")
        raise ValueError(f"no tile in the centre shows {where} face up: pick a number you see, or turn tiles with f")
    colours = {entry["up"]["colour"] for entry in found}
    if len(colours) > 1:
        named = " or ".join(f"t {number:02d} {'all' if c == 'any' else c}" for c in sorted(colours))
        raise ValueError(f"{len(found)} tiles show {number:02d}: say which, {named}")
    return int(found[0]["spot"])


def to_action(view: Mapping[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    """A parsed command as the engine's action: tile numbers become spots; ``ready`` is ``start`` in matches
    of the older rule (any seat says START)."""
    action = dict(action)
    if action["type"] == "ready" and view.get("start_rule") == "anyone":
        action["type"] = "start"
    if "number" in action:
        number, colour = action.pop("number"), action.pop("colour", None)
        if view["phase"] != "playing" and view["centre"]:
            action["spot"] = view["centre"][0]["spot"]  # refused anyway, for the phase: say that, not the number
        else:
            action["spot"] = resolve_tile(view, number, colour)
    return action


def refusal_words(error: IllegalAction) -> str:
    """What to do, in words, for a refused action."""
    return HINTS.get(error.code, error.message)


def event_line(kind: str, data: Mapping[str, Any], name: Callable[[Any], str] | None = None) -> Text | None:
    """One short line for the log of what happened (``None``: nothing worth a line)."""
    name = name or (lambda seat: f"seat {seat}")
    who = name(data.get("seat"))
    line = Text(f"{data.get('at', 0) / 1000:>6.1f} s  ", style="dim")
    if kind in ("took", "turned", "returned", "placed", "took_back"):
        if data.get("seat") is not None and who == "you" and kind != "turned":
            return None  # your own moves show on your card
        what = {
            "took": "took",
            "turned": "turned the tile in hand to" if data.get("spot") is None else "turned a tile to",
            "returned": "returned",
            "placed": f"placed on place {data.get('slot', 0) + 1}",
            "took_back": f"took back place {data.get('slot', 0) + 1}",
        }[kind]
        line.append(f"{who} {what} ")
        line.append_text(side_text(data.get("up")))
    elif kind == "holding":
        line.append("you hold ")
        line.append_text(side_text(data["up"]))
        line.append(", other side ")
        line.append_text(side_text(data["down"]))
    elif kind == "ready":
        line.append(f"{who} {'are' if who == 'you' else 'is'} ready")
    elif kind == "countdown":
        line.append(f"everyone is ready: {data['seconds']:.0f}-2-1...", style="bold yellow")
    elif kind == "round_started":
        line.append(f"GO! Round {data['round']}", style="bold green")
    elif kind == "checked":
        line.append(f"check: {'correct' if data['correct'] else 'not correct'}", style="bold")
    elif kind in ("card_drawn", "end_vote", "game_over"):
        return None
    else:
        line.append(f"{kind} {dict(data)}")
    return line


def _stdin_line(timeout: float | None) -> str | None:
    ready, _, _ = select.select([sys.stdin], [], [], timeout)
    if not ready:
        return None
    line = sys.stdin.readline()
    return "quit!" if line == "" else line


def _announcements(view: Mapping[str, Any]) -> list[tuple[int, str]]:
    """The live countdown: (time, text) for the seconds of the 3-2-1 and the last seconds of a SOLO task."""
    marks: list[tuple[int, str]] = []
    ends = view.get("countdown_ends_at")
    if view["phase"] == "countdown" and ends is not None:
        seconds = max(1, round((view.get("countdown_ms") or 0) / 1000))
        marks += [(ends - left * 1000, f"{left}...") for left in range(seconds, 0, -1)]
    due = view.get("time_up_at")
    if view["phase"] == "playing" and due is not None:
        marks += [(due - 1 - left * 1000, f"{left} s left") for left in (10, 5, 3, 2, 1)]
    return marks


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
    said: set[tuple[int, str]] = set()
    quitting = False

    def now() -> int:
        return max(match.clock, int(wall() * 1000 + offset))

    def name(seat: Any) -> str:
        if not isinstance(seat, int):
            return "the game"
        if seat == seat_for_view:
            return "you"
        return bot_name(seat) if seat in bots else f"seat {seat}"

    def show() -> None:
        render(console, match.view(seat_for_view), now(), bots)

    def tell(events: list[Any]) -> None:
        for event in events:
            if event.visible_to(seat_for_view):
                line = event_line(event.type, event.data, name)
                if line is not None:
                    console.print(line, no_wrap=True, overflow="crop")

    console.print(HELP, markup=False)
    console.print(LEGEND, markup=False)
    show()
    while not match.is_over:
        step = next_step(match, bots, now())
        due = [at for at, text in _announcements(match.view(seat_for_view)) if (at, text) not in said]
        wake = min([*(at for at in due if at >= now() - 1000), *([step[0]] if step else [])], default=None)
        timeout = None if wake is None else max(0.0, (wake - now()) / 1000)
        line = read(timeout)
        if line is None:
            current = now()
            for at, text in _announcements(match.view(seat_for_view)):
                if at <= current and (at, text) not in said:
                    said.add((at, text))
                    if current - at < 1000:
                        console.print(Text(text, style="bold yellow"))
            if step is None or step[0] > current:
                continue
            at, action = step
            action["at"] = max(at, match.clock)
            events = match.apply(action)
            tell(events)
            if any(event.type in ("checked", "round_started", "game_over") for event in events):
                show()
            continue
        if quitting:
            quitting = False
            if line.strip().lower() in ("y", "yes", "quit!"):
                console.print("Bye.")
                return
            console.print("Going on.")
            continue
        if line.strip() == "quit!":
            console.print("Bye.")
            return
        try:
            command = parse_command(line, seat_for_view if seat_for_view is not None else 0)
        except ValueError as exc:
            console.print(Text(str(exc), style="red"))
            continue
        if command == "quit":
            quitting = True
            console.print(Text("Quit this game? Type y to quit, Enter to go on.", style="bold"))
            continue
        if command == "help":
            console.print(HELP, markup=False)
            console.print(LEGEND, markup=False)
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
            action = to_action(match.view(seat), action)
            events = match.apply({**action, "seat": seat, "at": now()})
        except ValueError as exc:
            console.print(Text(str(exc), style="red"))
            continue
        except IllegalAction as exc:
            console.print(Text(refusal_words(exc), style="red"))
            continue
        tell([event for event in events if event.type in ("ready", "countdown", "round_started", "checked")])
        show()
    show()
