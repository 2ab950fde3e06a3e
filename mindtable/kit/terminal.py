"""The menu loop a turn-by-turn game's own terminal shares: the keyboard handed between people, what happened
since a person's last turn, their screen, the numbered menu, typed inputs checked as they are typed, refusals
said in words, and quitting.

A game's terminal keeps only what is its own — how its screen and its events read — in a :class:`TurnScreen`
and calls :func:`play_turns`; :class:`~mindtable.kit.table.TableDriver` runs the clock, the timers and the bots.
The loop's words are in ``kit/i18n`` (``term.pass_keyboard``, ``term.your_turn``, ``term.pick_number``,
``term.input.*``…), under the game's own (a game may say any of them its way).

>>> from mindtable.kit.words import Catalogue
>>> say = Catalogue("en", [{"term.input.text": "Answer: ", "term.input.named": "Right (0–{max}): "}])
>>> said = []
>>> typed = iter(["", "Mars"])
>>> read_input({"name": "text", "kind": "text"}, say, lambda prompt: next(typed), lambda text, style: said.append(text))
'Mars'
>>> said  # an empty answer is asked again
['term.input.empty']
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any, Protocol

from rich.console import Console, RenderableType
from rich.text import Text

from mindtable.core.errors import IllegalAction
from mindtable.kit.table import TableDriver
from mindtable.kit.words import Catalogue

Reader = Callable[[str], str]
Show = Callable[..., None]


class Quit(Exception):
    """A person typed ``q``."""


class TurnScreen(Protocol):
    """What a game's terminal says its own way."""

    say: Catalogue

    def name(self, seat: int) -> str:
        """A seat as people call it: the player's name, numbered from 1."""
        ...

    def tell(self, seat: int, events: list[dict[str, Any]], view: Mapping[str, Any]) -> list[str]:
        """A line for each of ``events`` (what ``seat`` has not been shown yet) worth telling."""
        ...

    def draw(self, view: Mapping[str, Any], seat: int, now: int) -> Iterable[RenderableType]:
        """``seat``'s screen: the board, the question, the card if they read it."""
        ...

    def describe(self, entry: Mapping[str, Any], view: Mapping[str, Any]) -> str:
        """A legal action as a menu line."""
        ...

    def wants(self, entry: Mapping[str, Any], spec: Mapping[str, Any], view: Mapping[str, Any]) -> bool:
        """Whether to ask for the typed input ``spec`` of ``entry`` (an optional count may not apply)."""
        ...

    def refusal(self, exc: IllegalAction) -> str:
        """A refusal in words."""
        ...


def read_input(spec: Mapping[str, Any], say: Catalogue, read: Reader, show: Show) -> Any:
    """A typed input, asked again until it is allowed: a whole number in its range (empty: left out, where it is
    optional), or a text (empty: left out where optional, else asked again). ``q`` quits."""
    name = spec["name"]
    while True:
        raw = read(say(f"term.input.{name}", max=spec.get("maximum"), min=spec.get("minimum"))).strip()
        if raw.lower() == "q":
            raise Quit
        if not raw and spec.get("optional"):
            return None
        if spec["kind"] != "int":
            if raw:
                return raw
            show(say("term.input.empty"), "red")
            continue
        low, high = spec.get("minimum"), spec.get("maximum")
        if raw.lstrip("-").isdigit() and (low is None or int(raw) >= low) and (high is None or int(raw) <= high):
            return int(raw)
        show(say("term.input.number", min=low, max=high), "red")


def typed_text(entry: Mapping[str, Any]) -> str | None:
    """The name of the one text an action needs typed (an answer), if that is all it needs; else ``None``.

    >>> typed_text({"type": "ask_answer", "inputs": [{"name": "text", "kind": "text"}]})
    'text'
    >>> typed_text({"type": "roll"}), typed_text({"type": "bid", "inputs": [{"name": "n", "kind": "int"}]})
    (None, None)
    """
    needed = [spec for spec in entry.get("inputs", ()) if not spec.get("optional")]
    if len(needed) == 1 and needed[0]["kind"] == "text":
        return str(needed[0]["name"])
    return None


def take_turn(
    screen: TurnScreen, table: TableDriver, seat: int, read: Reader, console: Console, skip: Collection[str]
) -> None:
    """One person's turn: what happened since their last one, their screen, the menu, the chosen action. Where
    one action of the menu needs only a typed text (an answer), the person may type it straight at the menu
    prompt; a menu number still picks from the menu."""
    match, say = table.match, screen.say

    def show(text: str, style: str = "") -> None:
        console.print(Text(text, style=style), highlight=False)

    view = match.view(seat)
    for line in screen.tell(seat, table.unseen[seat], view):
        show(f"  • {line}", "green")
    table.unseen[seat].clear()
    show("")
    turn = say("term.your_turn", name=screen.name(seat))
    show(f"── {turn[:1].upper()}{turn[1:]} ──", "bold")
    for part in screen.draw(view, seat, table.now()):
        console.print(part, highlight=False)
    legal = [a for a in match.legal_actions(seat) if a["type"] not in skip]
    for number, entry in enumerate(legal, start=1):
        console.print(Text.assemble("  ", (str(number), "bold"), f" {screen.describe(entry, view)}"), highlight=False)
    typed = [entry for entry in legal if typed_text(entry) is not None]
    direct = typed[0] if len(typed) == 1 else None
    if direct is not None:
        show(say("term.type_directly"), "dim")
    while True:
        given = read("> ").strip()
        raw = given.lower()
        if raw == "q":
            raise Quit
        if raw.isdigit() and 1 <= int(raw) <= len(legal):
            entry = legal[int(raw) - 1]
            action = {k: v for k, v in entry.items() if k != "inputs"}
            for spec in entry.get("inputs", ()):
                if screen.wants(entry, spec, view):
                    value = read_input(spec, say, read, show)
                    if value is not None:
                        action[spec["name"]] = value
        elif direct is not None and given:
            # The answer typed straight at the menu (anything but a menu number): no "1" first.
            action = {k: v for k, v in direct.items() if k != "inputs"}
            action[str(typed_text(direct))] = given
        else:
            show(say("term.pick_number", n=len(legal)), "red")
            continue
        try:
            table.apply({**action, "at": table.now()})
        except IllegalAction as exc:
            show(screen.refusal(exc), "red")
            if not match.legal_actions(seat) or exc.code == "ask_time_up":
                return
            continue
        return


def play_turns(
    screen: TurnScreen, table: TableDriver, *, read: Reader, console: Console, skip: Collection[str] = ()
) -> bool:
    """Play until the end, handing the keyboard between the people at the table; ``False`` when they quit or the
    game is stuck (said on the console), ``True`` when the game is over. ``skip``: actions left out of the menu
    (a draft typed as one goes, what the game never opens)."""
    say = screen.say

    def hand_over(seat: int) -> bool:
        console.print("")
        console.print(Text(say("term.pass_keyboard", name=screen.name(seat)), style="bold"), highlight=False)
        return read("").strip().lower() != "q"

    try:
        while (seat := table.next_person(hand_over)) is not None:
            take_turn(screen, table, seat, read, console, skip)
    except (Quit, EOFError):
        console.print(Text(say("term.quit")), highlight=False)
        return False
    if table.stuck:
        console.print(Text(say("term.stuck"), style="red"), highlight=False)
        return False
    if not table.match.is_over:  # they stopped at a hand-over
        console.print(Text(say("term.quit")), highlight=False)
        return False
    # What the last move did (a steal that wins, the last answer) is told before the game's end is shown.
    seat = table.last_person
    if seat is not None and table.unseen[seat]:
        view = table.match.view(seat)
        for line in screen.tell(seat, table.unseen[seat], view):
            console.print(Text(f"  • {line}", style="green"), highlight=False)
        table.unseen[seat].clear()
    return True
