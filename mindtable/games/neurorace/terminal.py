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

The screen speaks English, Spanish or Estonian (``language=``; default: the match's ``language`` option, else
English): every word comes from a message catalogue (:func:`words`) — the page's own words where they fit
(``mindtable/games/neurorace/web/i18n``: colours, symbols, conditions, modes, refusals) and the
terminal's in ``i18n/<language>.json`` beside this module (keys ``term.*``). The commands stay the same letters
in every language (as the page's keys do); a colour may be typed in any of the three languages (its first three
letters, as the tiles show them: ``t 42 roj``, ``t 42 pun``).
"""

from __future__ import annotations

import select
import sys
import time
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from rich.console import Console, Group
from rich.rule import Rule
from rich.text import Text

from mindtable.core.bots import Bot
from mindtable.core.codes import seat_params
from mindtable.core.driver import next_step
from mindtable.core.errors import IllegalAction
from mindtable.core.match import Match
from mindtable.games.neurorace.rules import SEAT_PARAMS
from mindtable.games.neurorace.tasks import parse_task
from mindtable.kit.names import bot_name
from mindtable.kit.words import LANGUAGES, Catalogue, screen_language, surface_words

HERE = Path(__file__).resolve().parent

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
#: Width of one tile on screen ("☀ red 42") and of one column (tile + two spaces); 7 columns fit 80.
TILE_WIDTH = 8
COLUMN = 10
PER_ROW = 7
#: Refusals said as what to type next (``term.hint.<code>``); any other refusal is said as the page says it
#: (``error.<code>`` with its parameters), else in the engine's English.
HINTS = (
    "not_started",
    "round_stopped",
    "round_timed_out",
    "countdown_running",
    "already_ready",
    "round_running",
    "hand_full",
    "hand_empty",
    "turn_in_hand",
    "turn_needs_spot",
    "card_full",
    "not_finished",
    "nothing_to_take_back",
    "tile_taken",
    "out_of_time",
    "not_in_mode",
    "start_by_ready",
)


def words(language: str) -> Catalogue:
    """The terminal's words in ``language``, first match wins: its own (``i18n`` beside this module), the game
    page's, the site's; English fills in any key a language lacks."""
    return surface_words(language, HERE / "i18n", web_module="neurorace")


def _words(say: Catalogue | None) -> Catalogue:
    return say if say is not None else words("en")


@cache
def typed_colours() -> dict[str, str]:
    """What a player may type for a colour, in any of the languages: the first three letters of its word (as
    the tiles show it: ``red``, ``roj``, ``pun``; ``all``/``tod``/``iga`` for all colours) -> the colour."""
    found: dict[str, str] = {}
    for language in LANGUAGES:
        say = words(language)
        for colour in COLOUR_STYLES:
            for key in (f"term.colour.{colour}", f"nr.colour.{colour}"):
                found.setdefault(say(key)[:3].lower(), colour)
    return found


def colour_label(colour: str, say: Catalogue | None = None) -> str:
    """A colour in the three letters a tile shows (``red``, ``yel`` ... ``all``; ``roj`` ... ``tod``)."""
    return _words(say)(f"term.colour.{colour}")[:3]


def colour_word(colour: str, say: Catalogue | None = None) -> str:
    """A colour as a player types it (``red`` ... ``all``; ``rojo`` ... ``todos``)."""
    return _words(say)(f"term.colour.{colour}")


def seconds(ms: float, say: Catalogue | None = None) -> str:
    """Milliseconds as seconds with one decimal, with the language's decimal sign (``12.3``, ``12,3``)."""
    return f"{ms / 1000:.1f}".replace(".", _words(say)("term.decimal"))


def side_text(side: Mapping[str, Any] | None, say: Catalogue | None = None) -> Text:
    """A tile side in 8 columns: ``☀ red 42`` in its colour; an empty place is a dim dot."""
    if side is None:
        return Text("   ·    ", style="dim")
    colour = side["colour"]
    label = colour_label(colour, say)
    return Text(f"{SYMBOL_MARKS[side['symbol']]} {label:<3} {side['number']:02d}", style=COLOUR_STYLES[colour])


def place_text(place: Any, say: Catalogue | None = None) -> Text:
    """One condition of a task in at most 8 columns, in its colour."""
    kind = place.kind
    if kind == "symbol":
        any_colour = _words(say)("term.any_colour_short")[: TILE_WIDTH - 2]
        return Text(f"{SYMBOL_MARKS[place.symbol]} {any_colour}", style="bold white")
    if kind == "colour":
        return Text(f"■ {colour_label(place.colour, say)}", style=COLOUR_STYLES[place.colour])
    if kind == "both":
        return Text(
            f"{SYMBOL_MARKS[place.symbol]} {colour_label(place.colour, say)}", style=COLOUR_STYLES[place.colour]
        )
    return Text(place.text(), style="bold")


def task_line(task_text: str, say: Catalogue | None = None) -> Text:
    """The task in 7 columns of 10, aligned with the tiles laid below it; signs sit between the columns."""
    task = parse_task(task_text)
    line = Text("  ")
    for index, place in enumerate(task.places):
        cell = place_text(place, say)
        line.append_text(cell)
        line.append(" " * (TILE_WIDTH - cell.cell_len))
        sign = task.signs[index] if index < len(task.signs) else None
        line.append(f" {sign}" if sign else "  ", style="bold cyan")
    return line


def condition_text(place: Any, say: Catalogue | None = None) -> str:
    """A place's condition in words, as the page says it (``nr.cond.*``)."""
    say = _words(say)
    symbol = say(f"nr.symbol.{place.symbol}") if place.symbol else ""
    colour = say(f"nr.colour.{place.colour}") if place.colour else ""
    if place.kind in ("symbol", "colour", "both"):
        return say(f"nr.cond.{place.kind}", symbol=symbol, colour=colour)
    if place.kind in ("first", "last"):
        return say(f"nr.cond.{place.kind}", digit=place.digit)
    return str(place.text())


def problem_text(problem: Mapping[str, Any], task_text: str | None, say: Catalogue | None = None) -> str:
    """Why a place of a checked card is wrong, from the problem's code (as the page says it); its English
    ``reason`` when the code is unknown."""
    say = _words(say)
    code = problem.get("code")
    if code == "empty":
        return say("nr.problem.empty")
    if code == "sign":
        key = "nr.problem.less" if problem["sign"] == "<" else "nr.problem.greater"
        return say(key, left=f"{problem['left']:02d}", right=f"{problem['right']:02d}")
    if code == "needs" and task_text:
        places = parse_task(task_text).places
        if 0 <= problem["place"] < len(places):
            return say("nr.problem.needs", what=condition_text(places[problem["place"]], say))
    return str(problem.get("reason", ""))


def _seat_name(view: Mapping[str, Any], seat: int, bots: Mapping[int, Bot], say: Catalogue) -> str:
    if seat == view["you"]:
        return say("term.you")
    return bot_name(seat) if seat in bots else say("term.seat", seat=seat)


def _clock_line(view: Mapping[str, Any], now: int, say: Catalogue) -> str:
    phase = view["phase"]
    if phase == "countdown" and view.get("countdown_ends_at") is not None:
        left = max(0, view["countdown_ends_at"] - now)
        return say("term.clock.starts", s=max(1, -(-left // 1000)))
    if view["time_up_at"] is not None:
        return say("term.clock.left", s=seconds(max(0, view["time_up_at"] - 1 - now), say))
    if phase == "ready":
        waiting = sum(not ready for ready in view.get("ready") or [])
        return say("term.clock.waiting", n=waiting) if waiting else say("term.clock.ready")
    key = f"term.phase.{phase}"
    return say(key) if say.has(key) else str(phase)


def screen(
    view: Mapping[str, Any], now: int, bots: Mapping[int, Bot] | None = None, say: Catalogue | None = None
) -> Group:
    """The table as Rich renderables: the centre by symbol and colour, each card's task and tiles, the last check."""
    bots = bots or {}
    say = _words(say)
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

    def name(seat: int) -> str:
        return _seat_name(view, seat, bots, say)

    console = _Lines()
    mode = say(f"nr.mode.{view['mode']}") if say.has(f"nr.mode.{view['mode']}") else view["mode"].upper()
    console.rule(
        say("term.head", title=say("game.title"), mode=mode, round=view["round"], clock=_clock_line(view, now, say))
    )
    by_symbol: dict[str, list[Mapping[str, Any]]] = {symbol: [] for symbol in SYMBOL_ORDER}
    for entry in view["centre"]:
        by_symbol[entry["up"]["symbol"]].append(entry["up"])
    colours = list(COLOUR_STYLES)
    for symbol in SYMBOL_ORDER:
        sides = sorted(by_symbol[symbol], key=lambda side: (colours.index(side["colour"]), side["number"]))
        for row in range(0, len(sides), PER_ROW):
            line = Text("  ")
            for side in sides[row : row + PER_ROW]:
                line.append_text(side_text(side, say))
                line.append("  ")
            console.print(line)
    ready = view.get("ready") or []
    for player in view["players"]:
        seat = player["seat"]
        facts = [name(seat), say("nr.level_short", level=player["level"]), say("term.done", n=player["completed"])]
        if view["mode"] == "universal":
            facts.append(say("term.cards", n=len(player["cards_won"])))
        if view["mode"] == "solo":
            facts.append(say("term.losses", n=player["losses"]))
        if view["phase"] == "ready" and seat < len(ready):
            facts.append(say("nr.ready_yes") if ready[seat] else say("nr.ready_no"))
        console.print(Text(" · ".join(facts), style="bold"))
        if player["task"] is None:
            console.print(f"  {say('term.task_face_down')}")
            continue
        console.print(task_line(player["task"], say))
        laid = Text("  ")
        for side in player["slots"]:
            laid.append_text(side_text(side, say))
            laid.append("  ")
        console.print(laid)
        if player["hand"] is not None:
            hand = Text(f"  {say('term.in_hand')} ")
            hand.append_text(side_text(player["hand"]["up"], say))
            if "down" in player["hand"]:
                hand.append(f"  {say('nr.other_side')}: ")
                hand.append_text(side_text(player["hand"]["down"], say))
            console.print(hand)
    last = view["last_stop"]
    if last is not None and view["phase"] != "playing":
        if last["seat"] is None:
            who = say("term.who.time_up")
        elif last["seat"] == view["you"]:
            who = say("term.who.stop_you")
        else:
            who = say("term.who.stop", name=name(last["seat"]))
        verdict = say("term.correct") if last["correct"] else say("term.not_correct")
        problems = ", ".join(
            say("term.problem", place=p["place"] + 1, reason=problem_text(p, last.get("task"), say))
            for p in last["problems"]
        )
        check = say("term.check", round=last["round"], who=who, s=seconds(last["elapsed_ms"], say), verdict=verdict)
        console.print(f"{check} {problems}", markup=False)
    if view["outcome"] is not None:
        outcome = view["outcome"]
        reason_key = f"term.reason.{outcome['reason']}"
        reason = say(reason_key) if say.has(reason_key) else str(outcome["reason"])
        winners = [name(seat) for seat in outcome["winners"]]
        if winners:
            over = say("term.game_over", reason=reason, names=", ".join(winners), n=len(winners))
        else:
            over = say("term.game_over_nobody", reason=reason)
        console.print(Text(over, style="bold green"))
    elif view["phase"] == "ready" and view["you"] is not None and not ready[view["you"]]:
        console.print(Text(say("term.type_ready"), style="bold yellow"))
    return Group(*parts)


def render(
    console: Console,
    view: Mapping[str, Any],
    now: int,
    bots: Mapping[int, Bot] | None = None,
    say: Catalogue | None = None,
) -> None:
    console.print(screen(view, now, bots, say))


def replay_screen(
    match: Match, seat: int | None, *, language: str | None = None
) -> Callable[[Match, dict[str, Any] | None, list[Any]], Group]:
    """For ``mindtable replay``: the play screen at each step of a record, as ``seat`` saw it (``None``: a
    spectator), with the lines of what happened, in ``language`` (default: the match's ``language`` option,
    else English)."""
    say = words(screen_language(language, match.options))

    def draw(current: Match, action: dict[str, Any] | None, events: list[Any]) -> Group:
        lines = [event_line(e.type, e.data, say=say) for e in events if e.visible_to(seat)]
        return Group(screen(current.view(seat), current.clock, say=say), *(line for line in lines if line is not None))

    return draw


def colour_of(word: str, say: Catalogue | None = None) -> str:
    """The colour a typed word names (in any of the languages, by its first three letters); ValueError in words."""
    colour = typed_colours().get(word[:3].lower())
    if colour is None:
        raise ValueError(_words(say)("term.err.bad_colour", word=word))
    return colour


def parse_command(line: str, default_seat: int, say: Catalogue | None = None) -> tuple[int, dict[str, Any]] | str:
    """A command line -> (seat, action) or a word: ``help``, ``view``, ``quit``; raises ValueError (its message
    in ``say``'s language, default English).

    ``take`` and ``turn`` name a tile by the number on it (``"number"``, and ``"colour"`` when two tiles show
    that number): :func:`resolve_tile` turns them into the centre spot.
    """
    say = _words(say)
    seat = default_seat
    text = line.strip()
    if ":" in text:
        head, _, text = text.partition(":")
        if not head.strip().isdigit():
            raise ValueError(say("term.err.seat_prefix", head=head))
        seat = int(head)
        text = text.strip()
    words_ = text.split()
    if not words_:
        return "view"
    verb, args = words_[0].lower(), words_[1:]
    if verb in ("h", "help", "?"):
        return "help"
    if verb in ("v", "view"):
        return "view"
    if verb in ("q", "quit", "exit"):
        return "quit"

    def tile(required: bool) -> dict[str, Any]:
        if not args:
            if required:
                raise ValueError(say("term.err.need_number", verb=verb))
            return {}
        if not args[0].isdigit() or not 0 <= int(args[0]) <= 99 or len(args) > 2:
            raise ValueError(say("term.err.bad_number", verb=verb))
        picked: dict[str, Any] = {"number": int(args[0])}
        if len(args) == 2:
            picked["colour"] = colour_of(args[1], say)
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
    raise ValueError(say("term.err.unknown", verb=verb))


def resolve_tile(view: Mapping[str, Any], number: int, colour: str | None = None, say: Catalogue | None = None) -> int:
    """The centre spot of the tile showing ``number`` (and ``colour``); ValueError in words otherwise."""
    say = _words(say)
    found = [
        entry
        for entry in view["centre"]
        if entry["up"]["number"] == number and (colour is None or entry["up"]["colour"] == colour)
    ]
    if not found:
        if colour is None:
            raise ValueError(say("term.err.no_tile", number=f"{number:02d}"))
        raise ValueError(say("term.err.no_tile_colour", number=f"{number:02d}", colour=say(f"nr.colour.{colour}")))
    colours = {entry["up"]["colour"] for entry in found}
    if len(colours) > 1:
        named = f" {say('term.or')} ".join(f"t {number:02d} {colour_word(c, say)}" for c in sorted(colours))
        raise ValueError(say("term.err.which", n=len(found), number=f"{number:02d}", named=named))
    return int(found[0]["spot"])


def to_action(view: Mapping[str, Any], action: dict[str, Any], say: Catalogue | None = None) -> dict[str, Any]:
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
            action["spot"] = resolve_tile(view, number, colour, say)
    return action


def refusal_words(error: IllegalAction, say: Catalogue | None = None, name: Callable[[Any], str] | None = None) -> str:
    """What to do, in words, for a refused action: the terminal's hint for its code, else the refusal as the
    page says it (its seat parameters said as names by ``name``), else the engine's English message."""
    say = _words(say)
    if error.code in HINTS:
        return say(f"term.hint.{error.code}")
    seats: dict[str, Any] = {}
    if name is not None:
        for key in seat_params(error.code, error.params, SEAT_PARAMS):
            value = error.params[key]
            seats[key] = [name(v) for v in value] if isinstance(value, list) else name(value)
    return say.refusal(error, **seats)


def event_line(
    kind: str, data: Mapping[str, Any], name: Callable[[Any], str] | None = None, say: Catalogue | None = None
) -> Text | None:
    """One short line for the log of what happened (``None``: nothing worth a line)."""
    say = _words(say)
    if name is None:

        def name(seat: Any) -> str:
            return say("term.seat", seat=seat) if isinstance(seat, int) else say("term.the_game")

    who = name(data.get("seat"))
    you = data.get("seat") is not None and who == say("term.you")
    line = Text(f"{seconds(data.get('at', 0), say):>6} s  ", style="dim")
    if kind in ("took", "turned", "returned", "placed", "took_back"):
        if you and kind != "turned":
            return None  # your own moves show on your card
        key = f"term.ev.{kind}"
        if kind == "turned" and data.get("spot") is not None:
            key = "term.ev.turned_spot"
        line.append(say(key + ("_you" if you else ""), name=who, place=data.get("slot", 0) + 1) + " ")
        line.append_text(side_text(data.get("up"), say))
    elif kind == "holding":
        line.append(f"{say('term.ev.holding')} ")
        line.append_text(side_text(data["up"], say))
        line.append(f", {say('nr.other_side')} ")
        line.append_text(side_text(data["down"], say))
    elif kind == "ready":
        line.append(say("term.ev.ready_you") if you else say("term.ev.ready", name=who))
    elif kind == "countdown":
        line.append(say("term.ev.countdown", s=f"{data['seconds']:.0f}"), style="bold yellow")
    elif kind == "round_started":
        line.append(say("term.ev.round_started", round=data["round"]), style="bold green")
    elif kind == "checked":
        verdict = say("term.correct") if data["correct"] else say("term.not_correct")
        line.append(say("term.ev.check", verdict=verdict), style="bold")
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


def _announcements(view: Mapping[str, Any], say: Catalogue | None = None) -> list[tuple[int, str]]:
    """The live countdown: (time, text) for the seconds of the 3-2-1 and the last seconds of a SOLO task."""
    say = _words(say)
    marks: list[tuple[int, str]] = []
    ends = view.get("countdown_ends_at")
    if view["phase"] == "countdown" and ends is not None:
        count = max(1, round((view.get("countdown_ms") or 0) / 1000))
        marks += [(ends - left * 1000, f"{left}...") for left in range(count, 0, -1)]
    due = view.get("time_up_at")
    if view["phase"] == "playing" and due is not None:
        marks += [(due - 1 - left * 1000, say("term.clock.left", s=left)) for left in (10, 5, 3, 2, 1)]
    return marks


def run_terminal(
    match: Match,
    human_seats: list[int],
    bots: dict[int, Bot],
    *,
    console: Console | None = None,
    read_line: Callable[[float | None], str | None] | None = None,
    clock: Callable[[], float] | None = None,
    language: str | None = None,
) -> None:
    """Play ``match`` with people at ``human_seats`` and ``bots`` (seat -> bot) until it ends or ``q``.

    ``read_line(timeout)`` returns a typed line or ``None`` when ``timeout`` seconds pass (default: stdin);
    ``clock()`` gives seconds (default: :func:`time.monotonic`). Both are parameters for tests. Everything is
    said in ``language`` (``en``, ``es``, ``et``; default: the match's ``language`` option, else English).
    """
    console = console or Console()
    say = words(screen_language(language, match.options))
    read = read_line or _stdin_line
    wall = clock or time.monotonic
    offset = match.clock - wall() * 1000
    seat_for_view = human_seats[0] if human_seats else None
    said: set[tuple[int, str]] = set()
    quitting = False
    yes = {word.strip().lower() for word in say("term.yes_words").split(",")} | {"quit!"}

    def now() -> int:
        return max(match.clock, int(wall() * 1000 + offset))

    def name(seat: Any) -> str:
        if not isinstance(seat, int):
            return say("term.the_game")
        if seat == seat_for_view:
            return say("term.you")
        return bot_name(seat) if seat in bots else say("term.seat", seat=seat)

    def show() -> None:
        render(console, match.view(seat_for_view), now(), bots, say)

    def tell(events: list[Any]) -> None:
        for event in events:
            if event.visible_to(seat_for_view):
                line = event_line(event.type, event.data, name, say)
                if line is not None:
                    console.print(line, no_wrap=True, overflow="crop")

    def help_lines() -> None:
        console.print(say("term.help"), markup=False)
        console.print(say("term.legend"), markup=False)

    help_lines()
    show()
    while not match.is_over:
        step = next_step(match, bots, now())
        due = [at for at, text in _announcements(match.view(seat_for_view), say) if (at, text) not in said]
        wake = min([*(at for at in due if at >= now() - 1000), *([step[0]] if step else [])], default=None)
        timeout = None if wake is None else max(0.0, (wake - now()) / 1000)
        line = read(timeout)
        if line is None:
            current = now()
            for at, text in _announcements(match.view(seat_for_view), say):
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
            if line.strip().lower() in yes:
                console.print(say("term.bye"))
                return
            console.print(say("term.going_on"))
            continue
        if line.strip() == "quit!":
            console.print(say("term.bye"))
            return
        try:
            command = parse_command(line, seat_for_view if seat_for_view is not None else 0, say)
        except ValueError as exc:
            console.print(Text(str(exc), style="red"))
            continue
        if command == "quit":
            quitting = True
            console.print(Text(say("term.quit_ask"), style="bold"))
            continue
        if command == "help":
            help_lines()
            continue
        if command == "view":
            show()
            continue
        assert not isinstance(command, str)
        seat, action = command
        if seat not in human_seats:
            seats = ", ".join(str(s) for s in human_seats)
            console.print(Text(say("term.err.not_your_seat", seat=seat, seats=seats), style="red"))
            continue
        try:
            action = to_action(match.view(seat), action, say)
            events = match.apply({**action, "seat": seat, "at": now()})
        except ValueError as exc:
            console.print(Text(str(exc), style="red"))
            continue
        except IllegalAction as exc:
            console.print(Text(refusal_words(exc, say, name), style="red"))
            continue
        tell([event for event in events if event.type in ("ready", "countdown", "round_started", "checked")])
        show()
    show()
