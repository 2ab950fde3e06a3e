"""Carrera de Mente in a terminal: hot-seat and bots, with the track drawn as a ring of coloured squares.

:func:`render_board` draws the track from the board in the view (any board file): each square at its place,
six characters wide, in its colour, ``G 4*01`` — the colour's letter (G green Sports, Y yellow Nature and
Science, S sky blue History and Geography, P pink Entertainment and Shows, B brown The Arts, O orange
Cambalache, ``-`` grey free topic), the square's number, ``*`` a star square (``»`` the arrows), and the seats
whose pegs stand there. The standard board (12 squares across) fits 80 columns; a board too wide for that, or
without coordinates, is listed square by square instead. :func:`screen` adds whose turn it is and who asks, the
players' prizes, the dice, the question as that seat may see it (the asker's card only for the asker), and
the last verdict. :func:`run_terminal` is the loop ``mindtable play carrera-de-mente`` runs: people at
``human_seats`` choose from a numbered menu (answers are typed), bots play the other seats; ``q`` quits.

>>> import mindtable
>>> match = mindtable.new_match("carrera-de-mente", players=2, seed=4, options={"board": "small"})
>>> print(render_board(match.view(0)).plain.splitlines()[0])
- 0»01G 1   S 2*  Y 3   P 4*
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.text import Text

from mindtable.core.bots import Bot
from mindtable.core.errors import IllegalAction
from mindtable.core.events import Event
from mindtable.core.match import Match
from mindtable.kit.table import TableDriver, pass_the_keyboard

Reader = Callable[[str], str]
#: Columns of one square on the drawn track, and the widest screen the drawing must fit.
CELL, WIDTH = 6, 80
LETTERS = {"green": "G", "yellow": "Y", "skyblue": "S", "pink": "P", "brown": "B", "orange": "O", "grey": "-"}
PRIZE_ORDER = ("green", "skyblue", "yellow", "pink", "brown", "orange")
STEPS = {
    "roll": "roll the die",
    "lap": "lap prize: choose a colour",
    "topic": "grey square: choose the booklet",
    "number": "roll the question number",
    "ask": "the question",
    "steal": "steal: choose the colour",
    "over": "game over",
}
#: Legal actions left out of the menu: the answer box's drafts (the answer is typed once, in full).
MENU_SKIP = ("ask_type",)


def _letter(colour: str) -> str:
    return LETTERS.get(colour, colour[:1].upper() or "?")


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


def _cell(view: Mapping[str, Any], index: int, start: str | None) -> Text:
    board = view["board"]
    square = board["squares"][index]
    mark = "»" if square["id"] == start else "*" if square["star"] else " "
    pegs = _pegs_at(view, index)
    who = "".join(str(s) for s in pegs) if len(pegs) <= 2 else f"{pegs[0]}+"
    text = Text(f"{_letter(square['colour'])}{index:>2}{mark}", style=_style(board, square["colour"]))
    text.append(f"{who:<2}", style=_style(board, square["colour"]) + " bold")
    if view["phase"] != "over" and view["pegs"][view["turn"]] == index:
        text.stylize("underline")
    return text


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


def render_board(view: Mapping[str, Any]) -> Text:
    """The track with the pegs (seat numbers), as Rich text no wider than 80 columns (see the module doc)."""
    board = view["board"]
    start = _start_id(board)
    out = Text()
    grid = _grid(board)
    if grid is not None:
        xs, ys, places = grid
        rows: list[list[Text | None]] = [[None] * len(xs) for _ in ys]
        for index, square in enumerate(board["squares"]):
            x, y = places[square["id"]]
            rows[ys.index(y)][xs.index(x)] = _cell(view, index, start)
        for row in rows:
            line = Text()
            for cell in row:
                line.append_text(cell if cell is not None else Text(" " * CELL))
            line.rstrip()
            out.append_text(line)
            out.append("\n")
    else:
        # A numbered list, four squares a line: "12 brown * 0".
        per_line = max(1, WIDTH // 20)
        for first in range(0, len(board["squares"]), per_line):
            line = Text()
            for index in range(first, min(first + per_line, len(board["squares"]))):
                line.append_text(_cell(view, index, start))
                line.append(f" {board['squares'][index]['colour'][:11]:<12}")
            line.rstrip()
            out.append_text(line)
            out.append("\n")
    out.append_text(legend(view))
    return out


def legend(view: Mapping[str, Any]) -> Text:
    """The colours with their booklets and the marks, wrapped to fit 80 columns."""
    board = view["board"]
    titles = view.get("titles") or {}
    items: list[Text] = []
    for colour, info in _palette(board).items():
        topic = info.get("topic")
        name = titles.get(topic, info.get("label", colour)) if topic else "free topic"
        items.append(Text.assemble((f" {_letter(colour)} ", _style(board, colour)), f" {name}"))
    items += [Text.assemble(("*", "bold"), " star"), Text.assemble(("»", "bold"), " the arrows (start)")]
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


def _prizes(view: Mapping[str, Any], seat: int) -> Text:
    board = view["board"]
    held = view["prizes"][seat]
    text = Text()
    for colour in PRIZE_ORDER:
        if colour in held:
            text.append(f" {_letter(colour)} ", style=_style(board, colour))
        else:
            text.append(" · ", style="dim")
    text.append(f" {len(held)}/6")
    return text


def _seat(view: Mapping[str, Any], seat: int) -> str:
    members = view["members"][seat] if view.get("members") else []
    return f"seat {seat}" + (f" (team {', '.join(members)})" if members else "")


def _topic_name(view: Mapping[str, Any], topic: str | None) -> str:
    return (view.get("titles") or {}).get(topic or "", topic or "?")


def _question_lines(view: Mapping[str, Any], seat: int | None) -> list[Text]:
    ask = view["ask"]
    lines: list[Text] = []
    question = ask.get("question")
    if question is None:
        return lines
    context = view.get("context") or {}
    lines.append(
        Text.assemble(
            ("Question ", "bold"),
            f"{context.get('number') or ''} ({_topic_name(view, context.get('topic'))}) ",
            (f"for {_seat(view, ask['answerers'][0])}", "dim"),
        )
    )
    lines.append(Text(f"  {question['prompt']}", style="bold"))
    for letter, option in zip("abcdef", question.get("options") or (), strict=False):
        lines.append(Text(f"     {letter}) {option}"))
    if ask.get("given"):
        lines.append(Text(f"  answered: {ask['given']}"))
    elif ask.get("deadline"):
        lines.append(Text(f"  answer by {ask['deadline'] / 1000:.0f} s"))
    card = ask.get("card")
    if card is not None and seat == ask["reader"]:
        q = card["questions"][question["index"]]
        right = q.get("answer") or ""
        if q.get("options") and q.get("correct") is not None:
            right = f"{'abcdef'[q['correct']]}) {q['options'][q['correct']]}" + (f" — {right}" if right else "")
        lines.append(Text.assemble(("  Your card (only you see it): ", "yellow"), (right, "bold yellow")))
        suggestion = ask.get("suggestion")
        if suggestion:
            verdict = "right" if suggestion["correct"] else "wrong"
            lines.append(Text(f"  The judge suggests: {verdict} ({suggestion.get('reason', '')})", style="yellow"))
    return lines


def screen(view: Mapping[str, Any], seat: int | None) -> Group:
    """What ``seat`` sees (``None``: a spectator): the track, the players, the dice, the question, the verdict."""
    turn = view["turn"]
    parts: list[RenderableType] = []
    head = Text.assemble(
        ("Carrera de Mente", "bold"),
        f" · turn {view['turn_number']} · ",
        (f"{_seat(view, turn)} plays", "bold"),
        f" · seat {view['asker']} asks · {STEPS.get(view['phase'], view['phase'])}",
    )
    if view.get("member"):
        head.append(f" · {view['member']} answers")
    parts.append(head)
    parts.append(render_board(view))
    for s in range(len(view["pegs"])):
        row = Text("▶ " if s == turn and view["phase"] != "over" else "  ", style="bold")
        row.append(f"{_seat(view, s):<8}", style="bold" if s == seat else "")
        row.append(f" on {view['pegs'][s]:>2} ")
        row.append_text(_prizes(view, s))
        if s == seat:
            row.append("  (you)", style="dim")
        parts.append(row)
    context = view.get("context") or {}
    digits = context.get("digits") or []
    dice = Text(f"Move die: {view['move_die'] if view['move_die'] is not None else '·'}   Question dice: ")
    dice.append(" ".join([str(d) for d in digits] + ["·"] * (3 - len(digits))))
    if context.get("topic"):
        dice.append(f"   Booklet: {_topic_name(view, context['topic'])}")
    parts.append(dice)
    if context.get("star"):
        held = context["star"] in view["prizes"][turn]
        note = "already held" if held else f"answer directly to win the {context['star']} prize"
        parts.append(Text(f"Star square: {note}.", style="bold"))
    if context.get("occupants"):
        others = ", ".join(f"seat {s}" for s in context["occupants"])
        parts.append(Text(f"Occupied by {others}: answer directly to steal.", style="bold"))
    if view["phase"] == "steal" and view["steal_from"]:
        parts.append(Text(f"{_seat(view, turn)} takes a token from seat {view['steal_from'][0]}.", style="bold"))
    if view.get("ask"):
        parts += _question_lines(view, seat)
    last = view.get("last")
    if last and not view.get("ask") and last.get("correct") is not None:
        verdict = Text("right", style="bold green") if last["correct"] else Text("wrong", style="bold red")
        parts.append(
            Text.assemble(
                f"Last question (seat {last['seat']}, {_topic_name(view, last.get('topic'))} {last.get('number')}): ",
                verdict,
                f" · the answer: {last.get('answer', '')}",
            )
        )
    if view.get("winner") is not None:
        parts.append(Text(f"Seat {view['winner']} has all six colours and wins!", style="bold green"))
    return Group(*parts)


def event_line(kind: str, d: Mapping[str, Any]) -> str | None:
    """What happened (an event's type and data), in a line; ``None`` for what the screen shows anyway."""
    texts = {
        "rolled": lambda: f"seat {d['seat']} rolls {d['die']}",
        "moved": lambda: (
            f"seat {d['seat']} moves {d['steps']} to square {d['to']}"
            + (f", completing {d['laps']} lap(s)" if d["laps"] else "")
        ),
        "prize": lambda: f"seat {d['seat']} wins the {d['colour']} prize ({d['how']})",
        "stolen": lambda: (
            f"seat {d['seat']} takes {d['colour']} from seat {d['victim']}"
            + ("" if d["kept"] else " (already held: back to the box)")
        ),
        "nothing_to_steal": lambda: f"seat {d['victim']} has no token to take",
        "lap_no_prize": lambda: f"seat {d['seat']} completes a lap: the last prize cannot come from a lap",
        "star_held": lambda: f"seat {d['seat']} already holds the {d['colour']} prize",
        "topic_chosen": lambda: f"seat {d['seat']} chooses {d['topic']}",
        "turn_over": lambda: f"seat {d['seat']} answered wrong: the turn passes",
        "turn": lambda: f"turn {d['number']}: seat {d['seat']}",
        "ask_decided": lambda: f"{'right' if d['correct'] else 'wrong'}: {d['prompt']} — {d['answer']}",
        "booklet_restarted": lambda: f"the {d['topic']} booklet starts again",
        "won": lambda: f"seat {d['seat']} wins",
        "turn_limit": lambda: f"the turn limit ({d['turns']}) is reached",
    }
    make = texts.get(kind)
    return make() if make is not None else None


def describe(entry: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    kind = entry["type"]
    if kind == "topic":
        return f"booklet: {_topic_name(view, entry['topic'])}"
    if kind == "lap_prize":
        return f"lap prize: {entry['colour']}"
    if kind == "steal":
        return f"take {entry['colour']} from seat {view['steal_from'][0]}"
    if kind == "roll_number":
        return f"roll question die {len((view.get('context') or {}).get('digits') or []) + 1} of 3"
    if kind == "ask_answer":
        shown = (view.get("ask") or {}).get("options_shown")
        return "answer: type the letter" if shown else "answer (type it)"
    return {
        "roll": "roll the die and move",
        "ask_options": "ask for the options (a right answer then moves 1 square)",
        "ask_pass": "pass",
        "ask_confirm": "confirm the judge's suggestion",
        "ask_overrule": "overrule the judge",
    }.get(kind, kind)


def replay_screen(match: Match, seat: int | None) -> Callable[[Match, dict[str, Any] | None, list[Event]], Group]:
    """For ``mindtable replay``: the play screen at each step, as ``seat`` saw it, with what happened."""

    def draw(current: Match, action: dict[str, Any] | None, events: list[Event]) -> Group:
        lines = [event_line(e.type, e.data) for e in events if e.visible_to(seat)]
        return Group(screen(current.view(seat), seat), *(Text(f"• {line}") for line in lines if line))

    return draw


def run_terminal(
    match: Match,
    human_seats: list[int],
    bots: Mapping[int, Bot],
    *,
    read: Reader = input,
    console: Console | None = None,
    clock: Callable[[], int] | None = None,
) -> None:
    """Play ``match``: people at ``human_seats`` choose from numbered menus (hot-seat: the keyboard passes
    between them; an asker's card is shown only once the keyboard has passed to the asker), ``bots`` play the
    other seats; the answer time runs on ``clock`` (default: the wall clock)."""
    console = console or Console()
    table = TableDriver(match, human_seats, bots, clock)
    console.print(
        f"[bold]Carrera de Mente[/]: {match.players} seats; you play {human_seats or 'none'}. q quits.",
        highlight=False,
    )
    hand_over = pass_the_keyboard(console, read)
    while (seat := table.next_person(hand_over)) is not None:
        if not _turn(table, seat, read, console):
            return
    if not match.is_over:  # stuck, or the people stopped at a hand-over
        if table.stuck:
            console.print("[red]Nobody can act and no timer is running.[/]")
        return
    console.print(screen(match.view(None), None))
    result = match.result
    assert result is not None
    console.print(
        f"[bold]Game over[/] ({result.reason}): winner(s) seat {', '.join(map(str, result.winners))}; "
        f"colours {', '.join(str(int(s)) for s in result.scores)}",
        highlight=False,
    )


def _turn(table: TableDriver, seat: int, read: Reader, console: Console) -> bool:
    match, unseen, now, apply = table.match, table.unseen, table.now, table.apply
    for event in unseen[seat]:
        line = event_line(event["type"], event)
        if line:
            console.print(Text(f"  • {line}", style="green"))
    unseen[seat].clear()
    view = match.view(seat)
    console.print()
    console.print(Text(f"Seat {seat}, your move.", style="bold"))
    console.print(screen(view, seat))
    legal = [a for a in match.legal_actions(seat) if a["type"] not in MENU_SKIP]
    for number, entry in enumerate(legal, start=1):
        console.print(f"  [bold]{number}[/] {escape(describe(entry, view))}", highlight=False)
    while True:
        raw = read("> ").strip().lower()
        if raw == "q":
            return False
        if not raw.isdigit() or not 1 <= int(raw) <= len(legal):
            console.print(f"[red]type a number from 1 to {len(legal)} (q: quit)[/]", highlight=False)
            continue
        entry = legal[int(raw) - 1]
        action = {k: v for k, v in entry.items() if k != "inputs"}
        for spec in entry.get("inputs", ()):
            if spec["name"] == "named" and not (view.get("ask") or {}).get("question", {}).get("count"):
                continue  # how many items were right: asked only for a list question
            text = read(f"{spec['name']}> ").strip()
            if not text and spec.get("optional"):
                continue
            action[spec["name"]] = int(text) if spec["kind"] == "int" and text.lstrip("-").isdigit() else text
        try:
            apply({**action, "at": now()})
        except IllegalAction as exc:
            console.print(f"[red]{escape(exc.message)}[/]", highlight=False)
            if exc.code == "ask_time_up":
                return True
            continue
        return True
