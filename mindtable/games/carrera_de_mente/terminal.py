"""Carrera de Mente in a terminal, in the room's language: hot-seat and bots, with the track drawn as a ring of
coloured squares.

:func:`render_board` draws the track from the board in the view (any board file): each square at its place, six
characters wide, in its colour, ``G 4*`` — the colour's letter in the screen's language (in English G green
Sports, Y yellow Nature and Science, S sky blue History and Geography, P pink Entertainment and Shows, B brown
The Arts, O orange Cambalache, ``-`` grey free topic; in Estonian the booklet's initial, as the colours' would
clash), the square's number, ``*`` a star square (``»`` the arrows) — and the players whose pegs stand there,
numbered from 1 as their names are, apart from every label: in the empty place beside the square, else on a
line under the row. The standard board (12 squares across) fits 80 columns; a board too wide for that, or
without coordinates, is listed square by square instead. :func:`screen` adds whose turn it is and who
asks, the players' prizes, the dice, the question as that seat may see it (the asker's card only for the asker),
and the last verdict. :func:`run_terminal` is the loop ``mindtable play carrera-de-mente`` runs: people at
``human_seats`` choose from a numbered menu (answers are typed), bots play the other seats; ``q`` quits.

Every word is said through a message catalogue (:class:`mindtable.kit.words.Catalogue`) in English, Spanish
or Estonian — by default the match's ``language`` option, the language of its booklets: the game page's words
(``mindtable/games/carrera_de_mente/web/i18n``: colours, booklets, the star and occupied squares,
refusals) where they fit, and the terminal's own in ``i18n/<language>.json`` beside this module. Refusals are
said from their codes and parameters.

>>> import mindtable
>>> match = mindtable.new_match("carrera-de-mente", players=2, seed=4, options={"board": "small"})
>>> top, pegs = render_board(match.view(0)).plain.splitlines()[:2]
>>> print(top)
- 0»  G 1   S 2*  Y 3   P 4*
>>> pegs  # both pegs on the start square, under its number
' 12'
>>> print(render_board(match.view(0), "es").plain.splitlines()[0])
- 0»  V 1   C 2*  A 3   R 4*
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.text import Text

from mindtable.core.bots import Bot
from mindtable.core.codes import label_params, seat_params
from mindtable.core.errors import IllegalAction
from mindtable.core.events import Event
from mindtable.core.match import Match
from mindtable.kit.names import seat_name
from mindtable.kit.table import TableDriver
from mindtable.kit.terminal import play_turns
from mindtable.kit.words import Catalogue, screen_language, surface_words
from mindtable.trivia.quiz import overrule_count_asked, reader_answer

Reader = Callable[[str], str]
HERE = Path(__file__).resolve().parent
#: Columns of one square on the drawn track, and the widest screen the drawing must fit.
CELL, WIDTH = 6, 80
PRIZE_ORDER = ("green", "skyblue", "yellow", "pink", "brown", "orange")
#: Legal actions left out of the menu: the answer box's drafts (the answer is typed once, in full), and the
#: number's dice one by one (one item rolls the whole number, ``roll_whole_number``: the book's three rolls in
#: one gesture; the one-die move stays legal for old records and the bots).
MENU_SKIP = ("ask_type", "roll_number")
#: The events a line is said for (``term.event.<type>``); the others the screen shows anyway.
EVENT_LINES = (
    "rolled",
    "moved",
    "prize",
    "stolen",
    "nothing_to_steal",
    "steal_declined",
    "lap_no_prize",
    "star_held",
    "topic_chosen",
    "turn_over",
    "turn",
    "ask_decided",
    "booklet_restarted",
    "won",
    "turn_limit",
)


def words(language: str) -> Catalogue:
    """The terminal's words in ``language``, first match wins: its own (``i18n`` beside this module), the game
    page's, the site's; English fills in any key a language lacks."""
    return surface_words(language, HERE / "i18n", web_module="carrera-de-mente")


def _view_language(language: str | None, view: Mapping[str, Any]) -> str:
    """``language``, else the view's (the match's ``language`` option), else English."""
    return screen_language(language, {"language": view.get("language")})


class Screen:
    """How the match reads in one language: seats, colours, booklets, the track, the question, events, menus."""

    def __init__(self, say: Catalogue, humans: Collection[int] = ()) -> None:
        self.say = say
        self.humans = tuple(humans)  # the seats people play at this keyboard: named "Player N", bots by name

    @classmethod
    def of(cls, language: str | None, options: Mapping[str, Any] | None = None) -> Screen:
        """The screen in ``language`` (``None``: the match's ``language`` option, else English)."""
        return cls(words(screen_language(language, options)))

    # --- names -------------------------------------------------------------------------------------------------

    def seat(self, seat: int) -> str:
        return seat_name(seat, self.humans, functools.partial(self.say, "term.player"))

    def seat_with_team(self, view: Mapping[str, Any], seat: int) -> str:
        members = view["members"][seat] if view.get("members") else []
        name = self.seat(seat)
        return self.say("term.team", name=name, members=", ".join(members)) if members else name

    def colour(self, colour: str) -> str:
        key = f"cm.colour.{colour}"
        return self.say(key) if self.say.has(key) else colour

    def letter(self, colour: str) -> str:
        key = f"term.letter.{colour}"
        if self.say.has(key):
            return self.say(key)[:1]
        return self.colour(colour)[:1].upper() or "?"

    def topic(self, view: Mapping[str, Any], topic: str | None) -> str:
        """A booklet's name as the page says it (``cm.topic.<id>``), else its title in the question file."""
        key = f"cm.topic.{topic}"
        if topic and self.say.has(key):
            return self.say(key)
        return str((view.get("titles") or {}).get(topic or "", topic or "?"))

    def verdict(self, correct: bool) -> str:
        return self.say("term.right" if correct else "term.wrong")

    # --- the track ---------------------------------------------------------------------------------------------

    def _label(self, view: Mapping[str, Any], index: int, start: str | None) -> Text:
        """A square's label, four columns in its colour: ``G 4*`` (the letter, the number, the mark)."""
        board = view["board"]
        square = board["squares"][index]
        mark = "»" if square["id"] == start else "*" if square["star"] else " "
        text = Text(f"{self.letter(square['colour'])}{index:>2}{mark}", style=_style(board, square["colour"]))
        if view["phase"] != "over" and view["pegs"][view["turn"]] == index:
            text.stylize("underline")
        return text

    def _pegs(self, view: Mapping[str, Any], index: int) -> str:
        """The players whose pegs stand on the square, numbered from 1 as their names are ("Player 1"): ``12``,
        ``1+`` for three or more, ``""`` for none."""
        pegs = _pegs_at(view, index)
        return "".join(str(s + 1) for s in pegs) if len(pegs) <= 2 else f"{pegs[0] + 1}+"

    def _track(self, view: Mapping[str, Any], rows: list[list[int | None]], start: str | None) -> list[Text]:
        """The grid of squares as lines, each square ``CELL`` columns (its label and two spaces). The pegs never
        touch a label: they go in the empty place beside their square (the inside of a ring), else on a line of
        their own under the row, below the square's number."""
        lines: list[Text] = []
        for row in rows:
            beside: dict[int, Text] = {}  # an empty place -> the pegs of the square next to it
            under: dict[int, str] = {}  # a square's place -> its pegs, on the line under the row
            for col, index in enumerate(row):
                who = self._pegs(view, index) if index is not None else ""
                if not who or index is None:
                    continue
                if col + 1 < len(row) and row[col + 1] is None and col + 1 not in beside:
                    beside[col + 1] = Text(f"{who:<{CELL}}", style="bold")  # after the label's two spaces
                elif col > 0 and row[col - 1] is None and col - 1 not in beside:
                    beside[col - 1] = Text(f"{who:>{CELL - 2}}  ", style="bold")  # two spaces before the label
                else:
                    under[col] = who
            line = Text()
            for col, index in enumerate(row):
                if index is not None:
                    line.append_text(self._label(view, index, start))
                    line.append("  ")
                else:
                    line.append_text(beside.get(col, Text(" " * CELL)))
            lines.append(line)
            if under:
                line = Text()
                for col in range(len(row)):
                    line.append(f" {under.get(col, ''):<{CELL - 1}}", style="bold")
                lines.append(line)
        for line in lines:
            line.rstrip()
        return lines

    def render_board(self, view: Mapping[str, Any]) -> Text:
        """The track with the pegs (seat numbers), as Rich text no wider than 80 columns."""
        board = view["board"]
        start = _start_id(board)
        out = Text()
        grid = _grid(board)
        if grid is not None:
            xs, ys, places = grid
            rows: list[list[int | None]] = [[None] * len(xs) for _ in ys]
            for index, square in enumerate(board["squares"]):
                x, y = places[square["id"]]
                rows[ys.index(y)][xs.index(x)] = index
            for line in self._track(view, rows, start):
                out.append_text(line)
                out.append("\n")
        else:
            # A numbered list, four squares a line: "12 brown * 0" (the colour cut to 11 columns).
            per_line = max(1, WIDTH // 20)
            for first in range(0, len(board["squares"]), per_line):
                line = Text()
                for index in range(first, min(first + per_line, len(board["squares"]))):
                    line.append_text(self._label(view, index, start))
                    line.append(f" {self._pegs(view, index):<2}", style="bold")
                    line.append(f" {self.colour(board['squares'][index]['colour'])[:11]:<12}")
                line.rstrip()
                out.append_text(line)
                out.append("\n")
        out.append_text(self.legend(view))
        return out

    def legend(self, view: Mapping[str, Any]) -> Text:
        """The colours with their booklets and the marks, wrapped to fit 80 columns."""
        board = view["board"]
        items: list[Text] = []
        for colour, info in _palette(board).items():
            topic = info.get("topic")
            name = self.topic(view, topic) if topic else self.say("cm.free_topic")
            items.append(Text.assemble((f" {self.letter(colour)} ", _style(board, colour)), f" {name}"))
        items += [
            Text.assemble(("*", "bold"), f" {self.say('term.legend.star')}"),
            Text.assemble(("»", "bold"), f" {self.say('term.legend.start')}"),
        ]
        out, width = Text(), 0
        for item in items:
            if width and width + 2 + item.cell_len > WIDTH - 2:
                out.append("\n")
                width = 0
            elif width:
                out.append("  ")
                width += 2
            out.append_text(item)
            width += item.cell_len
        return out

    # --- a seat's screen ---------------------------------------------------------------------------------------

    def _prizes(self, view: Mapping[str, Any], seat: int) -> Text:
        board = view["board"]
        held = view["prizes"][seat]
        text = Text()
        for colour in PRIZE_ORDER:
            if colour in held:
                text.append(f" {self.letter(colour)} ", style=_style(board, colour))
            else:
                text.append(" · ", style="dim")
        text.append(f" {len(held)}/6")
        return text

    def question_lines(self, view: Mapping[str, Any], seat: int | None) -> list[Text]:
        say = self.say
        ask = view["ask"]
        lines: list[Text] = []
        question = ask.get("question")
        if question is None:
            return lines
        context = view.get("context") or {}
        heading = say("term.question", number=context.get("number") or "", topic=self.topic(view, context.get("topic")))
        for_whom = say("term.question_for", name=self.seat_with_team(view, ask["answerers"][0]))
        lines.append(Text.assemble((heading, "bold"), " ", (for_whom, "dim")))
        lines.append(Text(f"  {question['prompt']}", style="bold"))
        for letter, option in zip("abcdef", question.get("options") or (), strict=False):
            lines.append(Text(f"     {letter}) {option}"))
        if ask.get("given"):
            lines.append(Text("  " + say("term.answered", text=ask["given"])))
        elif ask.get("deadline"):
            lines.append(Text("  " + say("term.answer_by", s=f"{ask['deadline'] / 1000:.0f}")))
        card = ask.get("card")
        if card is not None and seat == ask["reader"]:
            right = reader_answer(card["questions"][question["index"]], say)
            lines.append(Text.assemble((f"  {say('term.your_card')} ", "yellow"), (right, "bold yellow")))
            suggestion = ask.get("suggestion")
            if suggestion:
                verdict = self.verdict(suggestion["correct"])
                line = say("term.suggestion", verdict=verdict, reason=self.reason(suggestion))
                lines.append(Text(f"  {line}", style="yellow"))
        return lines

    def reason(self, verdict: Mapping[str, Any]) -> str:
        """The judge's reason from its code and parameters (its English words when no table knows the code)."""
        key = f"judge.{verdict.get('code')}"
        if not self.say.has(key):
            return str(verdict.get("reason", ""))
        params = {**verdict.get("params", {}), "named": verdict.get("named"), "needed": verdict.get("needed")}
        return self.say(key, **{k: v for k, v in params.items() if v is not None})

    def screen(self, view: Mapping[str, Any], seat: int | None) -> Group:
        """What ``seat`` sees (``None``: a spectator): the track, the players, the dice, the question, the
        verdict."""
        say = self.say
        turn = view["turn"]
        parts: list[RenderableType] = []
        step = f"term.step.{view['phase']}"
        head = Text.assemble(
            (say("game.title"), "bold"),
            f" · {say('term.head.turn', n=view['turn_number'])} · ",
            (say("term.head.plays", name=self.seat_with_team(view, turn)), "bold"),
            f" · {say('term.head.asks', name=self.seat(view['asker']))}",
        )
        tail = [say(step) if say.has(step) else view["phase"]]
        if view.get("member"):
            tail.append(say("term.head.member", member=view["member"]))
        for part in tail:  # on a line of their own rather than cut by the wrap
            if head.cell_len + 3 + len(part) > WIDTH:
                parts.append(head)
                head = Text(part)
            else:
                head.append(f" · {part}")
        parts.append(head)
        parts.append(self.render_board(view))
        names = [self.seat_with_team(view, s) for s in range(len(view["pegs"]))]
        wide = max(8, *(len(name) for name in names))
        for s, name in enumerate(names):
            row = Text("▶ " if s == turn and view["phase"] != "over" else "  ", style="bold")
            row.append(f"{name:<{wide}}", style="bold" if s == seat else "")
            peg = f"{view['pegs'][s]:>2}"
            row.append(f" {say('term.on_square', square=peg)} ")
            row.append_text(self._prizes(view, s))
            if s == seat:
                row.append(f"  ({say('cm.you')})", style="dim")
            parts.append(row)
        context = view.get("context") or {}
        digits = context.get("digits") or []
        die = view["move_die"] if view["move_die"] is not None else "·"
        shown = " ".join([str(d) for d in digits] + ["·"] * (3 - len(digits)))
        dice = Text(f"{say('term.move_die', die=die)}   {say('term.question_dice', dice=shown)}")
        if context.get("topic"):
            dice.append(f"   {say('cm.topic', topic=self.topic(view, context['topic']))}")
        parts.append(dice)
        if context.get("star"):
            if context["star"] in view["prizes"][turn]:
                note = say("term.star_held")
            else:
                note = say("cm.on_star", colour=self.colour(context["star"]))
            parts.append(Text(note, style="bold"))
        if context.get("occupants"):
            others = ", ".join(self.seat(s) for s in context["occupants"])
            parts.append(Text(say("cm.on_occupied", names=others), style="bold"))
        if view["phase"] == "steal" and view["steal_from"]:
            line = say("term.steal", name=self.seat_with_team(view, turn), victim=self.seat(view["steal_from"][0]))
            parts.append(Text(line, style="bold"))
        if view.get("ask"):
            parts += self.question_lines(view, seat)
        last = view.get("last")
        if last and not view.get("ask") and last.get("correct") is not None:
            verdict = Text(self.verdict(True), style="bold green")
            if not last["correct"]:
                verdict = Text(self.verdict(False), style="bold red")
            topic = self.topic(view, last.get("topic"))
            parts.append(
                Text.assemble(
                    say("term.last", seat=self.seat(last["seat"]), topic=topic, number=last.get("number")) + " ",
                    verdict,
                    f" · {say('term.the_answer', answer=last.get('answer', ''))}",
                )
            )
        if view.get("winner") is not None:
            parts.append(Text(say("term.winner", seat=self.seat(view["winner"])), style="bold green"))
        return Group(*parts)

    # --- events and menus --------------------------------------------------------------------------------------

    def event_line(self, kind: str, d: Mapping[str, Any], view: Mapping[str, Any] | None = None) -> str | None:
        """What happened (an event's type and data), in a line; ``None`` for what the screen shows anyway."""
        if kind not in EVENT_LINES:
            return None
        say = self.say
        params: dict[str, Any] = {k: v for k, v in d.items() if isinstance(v, (int, str))}
        for key in ("seat", "victim"):  # said as the players' names
            if isinstance(d.get(key), int):
                params[key] = self.seat(d[key])
        if "colour" in d:
            params["colour"] = self.colour(d["colour"])
        if "topic" in d:
            params["topic"] = self.topic(view or {}, d["topic"])
        if kind == "moved":
            line = say("term.event.moved", n=d["steps"], seat=self.seat(d["seat"]), to=d["to"])
            return line + (say("term.event.laps", n=d["laps"]) if d["laps"] else "")
        if kind == "prize":
            params["how"] = say(f"term.how.{d['how']}") if say.has(f"term.how.{d['how']}") else d["how"]
        if kind == "stolen":
            line = say("term.event.stolen", **params)
            return line + ("" if d["kept"] else say("term.event.stolen_back"))
        if kind == "ask_decided":
            params["verdict"] = self.verdict(bool(d["correct"]))
        return say(f"term.event.{kind}", **params)

    def describe(self, entry: Mapping[str, Any], view: Mapping[str, Any]) -> str:
        """A menu line for a listed action."""
        say = self.say
        kind = entry["type"]
        if kind == "topic":
            return say("term.action.topic", topic=self.topic(view, entry["topic"]))
        if kind == "lap_prize":
            return say("term.action.lap_prize", colour=self.colour(entry["colour"]))
        if kind == "steal":
            victim = self.seat(view["steal_from"][0])
            return say("term.action.steal", colour=self.colour(entry["colour"]), victim=victim)
        if kind == "no_steal":
            return say("term.action.no_steal", victim=self.seat(view["steal_from"][0]))
        if kind in ("roll_number", "roll_whole_number"):
            rolled = len((view.get("context") or {}).get("digits") or [])
            if kind == "roll_number":
                return say("term.action.roll_number", n=rolled + 1)
            from .rules import NUMBER_DICE

            return say("term.action.roll_whole_number", n=NUMBER_DICE - rolled)
        if kind == "ask_answer":
            shown = (view.get("ask") or {}).get("options_shown")
            return say("term.action.ask_answer_letter" if shown else "term.action.ask_answer")
        key = f"term.action.{kind}"
        return say(key) if say.has(key) else kind

    # --- the shared turn loop's questions (mindtable.kit.terminal.TurnScreen) ----------------------------------

    def name(self, seat: int) -> str:
        return self.seat(seat)

    def tell(self, seat: int, events: list[dict[str, Any]], view: Mapping[str, Any]) -> list[str]:
        return [line for event in events if (line := self.event_line(event["type"], event, view))]

    def draw(self, view: Mapping[str, Any], seat: int, now: int) -> list[RenderableType]:
        return [self.screen(view, seat)]

    def wants(self, entry: Mapping[str, Any], spec: Mapping[str, Any], view: Mapping[str, Any]) -> bool:
        return overrule_count_asked(entry, spec, view)

    def refusal(self, exc: IllegalAction, declared_seats: Any = None, declared_labels: Any = None) -> str:
        """A refusal from its code, the parameters naming a seat said as seats and those naming a colour or a
        booklet said by their names (as the game declares them, unless ``declared_*`` say otherwise)."""
        from .rules import GAME

        declared_seats = GAME.seat_params if declared_seats is None else declared_seats
        declared_labels = GAME.label_params if declared_labels is None else declared_labels
        params: dict[str, Any] = {}
        for key in seat_params(exc.code, exc.params, declared_seats):
            value = exc.params[key]
            params[key] = [self.seat(v) for v in value] if isinstance(value, list) else self.seat(value)
        for key, prefix in label_params(exc.code, exc.params, declared_labels).items():
            value = exc.params[key]
            values = value if isinstance(value, list) else [value]
            said = [self.say(f"{prefix}.{v}") if self.say.has(f"{prefix}.{v}") else v for v in values]
            params[key] = said if isinstance(value, list) else said[0]
        return self.say.refusal(exc, **params)


def _palette(board: Mapping[str, Any]) -> Mapping[str, Any]:
    """The board file's colours (``{"green": {"fill": ..., "topic": ...}}``), as the view's drawing has them."""
    palette = (board.get("drawing") or {}).get("colours") or {}
    return palette if isinstance(palette, Mapping) else {}


def _fill(board: Mapping[str, Any], colour: str) -> str | None:
    fill = (_palette(board).get(colour) or {}).get("fill")
    if not isinstance(fill, str) or len(fill) != 7 or not fill.startswith("#"):
        return None
    return fill


def _style(board: Mapping[str, Any], colour: str) -> str:
    """A square's Rich style: its fill as the background, black or white text, whichever reads better."""
    fill = _fill(board, colour)
    if fill is None:
        return "reverse"
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    ink = "black" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "white"
    return f"{ink} on {fill}"


def _pegs_at(view: Mapping[str, Any], index: int) -> list[int]:
    return [seat for seat, peg in enumerate(view["pegs"]) if peg == index]


def _start_id(board: Mapping[str, Any]) -> str | None:
    drawn = board.get("drawing", {}).get("squares", [])
    return next((s["id"] for s in drawn if s.get("kind") == "start"), None)


def _grid(board: Mapping[str, Any]) -> tuple[list[float], list[float], dict[str, tuple[float, float]]] | None:
    """The squares' places when every square has one and the track fits the screen; else ``None``."""
    drawn = {s["id"]: s for s in board.get("drawing", {}).get("squares", [])}
    places: dict[str, tuple[float, float]] = {}
    for square in board["squares"]:
        at = drawn.get(square["id"], {})
        if at.get("x") is None or at.get("y") is None:
            return None
        places[square["id"]] = (float(at["x"]), float(at["y"]))
    xs = sorted({x for x, _ in places.values()})
    ys = sorted({y for _, y in places.values()})
    if len(xs) * CELL > WIDTH - 2 or len(board["squares"]) > 99 or len(places) != len(set(places.values())):
        return None
    return xs, ys, places


# --- the screen in one call (the language: given, else the view's, else English) ----------------------------------


def render_board(view: Mapping[str, Any], language: str | None = None) -> Text:
    """The track with the pegs (seat numbers), as Rich text no wider than 80 columns (see the module doc)."""
    return Screen.of(_view_language(language, view)).render_board(view)


def legend(view: Mapping[str, Any], language: str | None = None) -> Text:
    """The colours with their booklets and the marks, wrapped to fit 80 columns."""
    return Screen.of(_view_language(language, view)).legend(view)


def screen(view: Mapping[str, Any], seat: int | None, language: str | None = None) -> Group:
    """What ``seat`` sees (``None``: a spectator): the track, the players, the dice, the question, the verdict."""
    return Screen.of(_view_language(language, view)).screen(view, seat)


def event_line(kind: str, d: Mapping[str, Any], language: str | None = None) -> str | None:
    """What happened (an event's type and data), in a line; ``None`` for what the screen shows anyway."""
    return Screen.of(language).event_line(kind, d)


def describe(entry: Mapping[str, Any], view: Mapping[str, Any], language: str | None = None) -> str:
    """A menu line for a listed action."""
    return Screen.of(_view_language(language, view)).describe(entry, view)


def replay_screen(
    match: Match, seat: int | None, *, language: str | None = None
) -> Callable[[Match, dict[str, Any] | None, list[Event]], Group]:
    """For ``mindtable replay``: the play screen at each step, as ``seat`` saw it, with what happened, in
    ``language`` (default: the match's ``language`` option)."""
    shown = Screen.of(language, match.options)

    def draw(current: Match, action: dict[str, Any] | None, events: list[Event]) -> Group:
        view = current.view(seat)
        lines = [shown.event_line(e.type, e.data, view) for e in events if e.visible_to(seat)]
        return Group(shown.screen(view, seat), *(Text(f"• {line}") for line in lines if line))

    return draw


def run_terminal(
    match: Match,
    human_seats: list[int],
    bots: Mapping[int, Bot],
    *,
    read: Reader = input,
    console: Console | None = None,
    clock: Callable[[], int] | None = None,
    language: str | None = None,
) -> None:
    """Play ``match``: people at ``human_seats`` choose from numbered menus (hot-seat: the keyboard passes
    between them; an asker's card is shown only once the keyboard has passed to the asker), ``bots`` play the
    other seats; the answer time runs on ``clock`` (default: the wall clock). Everything is said in
    ``language`` (default: the match's ``language`` option, the language of its booklets)."""
    console = console or Console()
    shown = Screen(Screen.of(language, match.options).say, human_seats)
    say = shown.say
    table = TableDriver(match, human_seats, bots, clock)

    def show(text: str, style: str = "") -> None:
        console.print(Text(text, style=style), highlight=False)

    if human_seats:
        you = say("term.you_play", n=len(human_seats), seats=", ".join(shown.seat(s) for s in human_seats))
    else:
        you = say("term.only_bots")
    console.print(
        Text.assemble((say("game.title"), "bold"), ": ", say("term.welcome", n=match.players, you=you)),
        highlight=False,
    )

    if not play_turns(shown, table, read=read, console=console, skip=MENU_SKIP):
        return
    console.print(shown.screen(match.view(None), None))
    result = match.result
    assert result is not None
    reason = f"result.{result.reason}"
    show(
        say(
            "term.over",
            n=len(result.winners),
            reason=say(reason) if say.has(reason) else result.reason,
            winners=", ".join(shown.seat(w) for w in result.winners),
            scores=", ".join(str(int(s)) for s in result.scores),
        ),
        "bold",
    )
