"""The generic terminal: any game, turn by turn, from its view, its legal actions and their inputs alone.

``mindtable play GAME`` uses it for every game without a terminal of its own, so a new game is playable in a
terminal on the day its rules are written. The seat whose turn it is sees its view as a table, what happened
since its last turn, and its legal actions as a numbered menu; an action that asks for typed inputs (an answer,
a number) prompts for each. Several people at one keyboard (hot-seat) are asked to pass the keyboard between
turns, so nobody sees another seat's hidden cards. Bots act as soon as it is their turn; a game's own timers
(deadlines) are delivered when due. Time enters every action as ``"at"``, ms since the game began. It speaks
English, Spanish or Estonian (``language``): its own words are ``table.*`` in ``mindtable/cli/i18n``; refusals
and the end are said from their codes with the game page's words where the game has them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from mindtable.cli.replay import view_table
from mindtable.core.bots import Bot
from mindtable.core.errors import IllegalAction
from mindtable.core.match import Match
from mindtable.kit.names import seat_name
from mindtable.kit.table import TableDriver, pass_the_keyboard
from mindtable.kit.words import Catalogue, screen_language, surface_words

Reader = Callable[[str], str]


#: The command's own words (``table.*``), beside the play and replay commands' own.
WORDS = Path(__file__).resolve().parent / "i18n"


class Quit(Exception):
    """The player asked to stop."""


def table_words(language: str = "en", web_module: str | None = None) -> Catalogue:
    """The generic terminal's words in ``language``: its own, then the game page's (``web_module``), the shell's."""
    return surface_words(language, WORDS, web_module=web_module)


def describe_action(entry: Mapping[str, Any], say: Catalogue | None = None) -> str:
    """A menu line for a listed action: its type and fixed fields, and what it asks to type.

    >>> describe_action({"type": "answer", "seat": 0, "inputs": [{"name": "text", "kind": "text"}]})
    'answer (type: text)'
    >>> describe_action({"type": "topic", "seat": 0, "topic": "sky"})
    'topic: sky'
    >>> describe_action({"type": "answer", "seat": 0, "inputs": [{"name": "text", "kind": "text"}]}, table_words("es"))
    'answer (escribe: text)'
    """
    say = say or table_words()
    fixed = [f"{v}" if len(entry) == 3 else f"{k}={v}" for k, v in entry.items() if k not in ("type", "seat", "inputs")]
    text = entry["type"].replace("_", " ")
    if fixed:
        text += ": " + ", ".join(fixed)
    inputs = [spec["name"] for spec in entry.get("inputs", ())]
    if inputs:
        text += " " + say("table.to_type", names=", ".join(inputs))
    return text


def ask_input(spec: Mapping[str, Any], read: Reader, console: Console, say: Catalogue | None = None) -> Any:
    """Prompt for one typed input until it fits its schema; ``None`` when an optional input is left empty."""
    say = say or table_words()
    name, kind = spec["name"], spec["kind"]
    low, high = spec.get("minimum"), spec.get("maximum")
    yes, no = say("table.key.yes"), say("table.key.no")
    while True:
        if kind == "int":
            raw = read(say("table.prompt.number", name=name, min=low, max=high)).strip()
        elif kind == "bool":
            raw = read(say("table.prompt.yes_no", name=name, yes=yes, no=no)).strip().lower()
        else:
            raw = read(say("table.prompt.text", name=name))
        if raw.strip().lower() == "q":
            raise Quit
        if not raw.strip() and spec.get("optional"):
            return None
        if kind == "int":
            try:
                value = int(raw)
            except ValueError:
                console.print(f"[red]{escape(say('table.bad.whole_number', name=name, min=low, max=high))}[/]")
                continue
            if spec["minimum"] <= value <= spec["maximum"]:
                return value
            console.print(f"[red]{escape(say('table.bad.range', name=name, min=low, max=high))}[/]")
        elif kind == "bool":
            if raw in ("y", "yes", "n", "no", yes, no):
                return raw in ("y", "yes", yes)
            console.print(f"[red]{escape(say('table.bad.yes_no', yes=yes, no=no))}[/]")
        else:
            if raw.strip() and len(raw) <= spec.get("max_length", 500):
                return raw
            console.print(f"[red]{escape(say('table.bad.length', max=spec.get('max_length', 500)))}[/]")


def run_table(
    match: Match,
    human_seats: list[int],
    bots: Mapping[int, Bot],
    *,
    read: Reader = input,
    console: Console | None = None,
    clock: Callable[[], int] | None = None,
    language: str | None = None,
) -> None:
    """Play ``match`` turn by turn: people at ``human_seats`` answer prompts, ``bots`` play the other seats;
    everything is said in ``language`` (default: the match's ``language`` option, else English)."""
    console = console or Console()
    say = table_words(screen_language(language, match.options), match.game.web_module)
    table = TableDriver(match, human_seats, bots, clock)

    def name(seat: int) -> str:  # people "Player N" from 1, bots by name
        return seat_name(seat, human_seats, lambda n: say("table.seat", seat=n))

    seats = ", ".join(name(s) for s in human_seats) if human_seats else say("table.nobody")
    console.print(f"[bold]{escape(match.game.title)}[/]: " + escape(say("table.welcome", n=match.players, seats=seats)))
    console.print(say("table.help"), highlight=False)
    hand_over = pass_the_keyboard(console, read, name=name, say=say)
    while (seat := table.next_person(hand_over)) is not None:
        try:
            _human_turn(table, seat, read, console, say, name)
        except Quit:
            answer = read(say("table.confirm_quit", yes=say("table.key.yes"), no=say("table.key.no")))
            if answer.strip().lower() in ("y", "yes", say("table.key.yes")):
                return
        except EOFError:  # the input closed: stop, keeping what was played
            return
    if table.stuck:
        console.print(f"[red]{escape(say('table.stuck'))}[/]")
        return
    if match.is_over:
        _show_result(match, console, say, name)


def _human_turn(
    table: TableDriver, seat: int, read: Reader, console: Console, say: Catalogue, name: Callable[[int], str]
) -> None:
    match, unseen, now, apply = table.match, table.unseen, table.now, table.apply
    for event in unseen[seat]:
        data = {k: v for k, v in event.items() if k != "type"}
        console.print(f"  • [green]{event['type']}[/] {escape(str(data)) if data else ''}", highlight=False)
    unseen[seat].clear()
    console.print("\n" + escape(say("table.your_turn", seat=name(seat))), highlight=False)
    console.print(view_table(match.view(seat)))
    legal = match.legal_actions(seat)
    menu = Table.grid(padding=(0, 1))
    for number, entry in enumerate(legal, start=1):
        menu.add_row(f"[bold]{number}[/]", escape(describe_action(entry, say)))
    console.print(menu)
    while True:
        raw = read("> ").strip().lower()
        if raw == "q":
            raise Quit
        if raw == "v":
            console.print(view_table(match.view(seat)))
            continue
        if not raw.isdigit() or not 1 <= int(raw) <= len(legal):
            console.print(f"[red]{escape(say('table.pick_number', n=len(legal)))}[/]")
            continue
        entry = legal[int(raw) - 1]
        action = {k: v for k, v in entry.items() if k != "inputs"}
        for spec in entry.get("inputs", ()):
            value = ask_input(spec, read, console, say)
            if value is not None:
                action[spec["name"]] = value
        try:
            apply({**action, "at": now()})
        except IllegalAction as exc:
            console.print(f"[red]{escape(say.refusal(exc))}[/]")
            legal = match.legal_actions(seat)
            if not legal:
                return
            continue
        return


def _show_result(match: Match, console: Console, say: Catalogue, name: Callable[[int], str]) -> None:
    result = match.result
    if result is None:
        return
    winners = ", ".join(name(s) for s in result.winners) or say("table.nobody")
    reason_key = f"result.{result.reason}"
    reason = say(reason_key) if say.has(reason_key) else result.reason
    console.print("\n" + escape(say("table.game_over", reason=reason, winners=winners)), highlight=False)
    scores = Table(say("table.seat_column"), say("table.score_column"))
    for seat, score in enumerate(result.scores):
        scores.add_row(name(seat), f"{score:g}")
    console.print(scores)
