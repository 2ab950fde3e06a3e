"""Caída Libre in a terminal: hot-seat and bots, with the IQ scale drawn as text.

:func:`render` draws a seat's view (the scale with the pawns and weapon squares, whose turn and who asks, the
card as that seat may see it, the last card's outcome); :func:`run_terminal` is the loop ``mindtable play
caida-libre`` runs: people at ``human_seats`` choose from a numbered menu (answers are typed), bots play the
other seats, the Quote 5 clock runs on the wall clock and is delivered when due.

>>> import mindtable
>>> match = mindtable.new_match("caida-libre", players=2, seed=1, options={"starter": 0, "language": "en"})
>>> print(render(match.view(0), 0).splitlines()[0])
Caída Libre: seat 0 asks seat 1 (phase draw) · pack 1 · 36 cards in the draw pile
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rich.console import Console
from rich.markup import escape

from mindtable.core.bots import Bot
from mindtable.core.errors import IllegalAction
from mindtable.core.match import Match
from mindtable.kit.table import TableDriver, pass_the_keyboard

Reader = Callable[[str], str]
WEAPON_NAMES = {
    "sniper": "Sniper",
    "hook": "Hook",
    "dynamite": "Dynamite",
    "jetpack": "Jetpack",
    "armageddon": "Armageddon",
}


def render_scale(view: Mapping[str, Any]) -> list[str]:
    """The IQ scale, top down: each square with its weapon and the seats standing on it."""
    lines = []
    for square in view["scale"]["squares"]:
        here = [str(seat) for seat, iq in enumerate(view["iq"]) if iq == square["iq"]]
        mark = WEAPON_NAMES.get(square["weapon"], "")
        if square["iq"] == view["top"]:
            mark = "Prodigious Mind"
        elif square["iq"] == 0:
            mark = "Free Fall"
        pawns = " ".join(f"[{s}]" for s in here)
        lines.append(f"{square['iq']:>4} | {mark:<16}| {pawns}")
    return lines


def _question_lines(ask: Mapping[str, Any]) -> list[str]:
    out = []
    headings = ask["headings"]
    out.append(f"Card: {headings['type']}" + (f" · {headings['topic']}" if headings.get("topic") else ""))
    if ask["phase"] == "choose":
        for index in ask["choices"] or []:
            h = headings["headings"][index]
            out.append(f"  topic {index + 1}: {h.get('topic', '')} for -{h.get('penalty', 0)} IQ")
    question = ask.get("question")
    if question:
        out.append(f"  Q: {question['prompt']}")
        for letter, option in zip("abcd", question.get("options") or [], strict=False):
            out.append(f"     {letter}) {option}")
        if question.get("count"):
            out.append(f"     name {question['count']}")
    if ask.get("deadline"):
        out.append(f"  answer by {ask['deadline'] / 1000:.1f} s")
    if ask.get("draft"):
        out.append(f"  typed: {ask['draft']}")
    card = ask.get("card")
    if card and ask.get("index") is None and question:
        pass
    if card and question:
        q = card["questions"][question["index"]]
        shown = (
            q.get("answer")
            or ", ".join(q.get("items", []))
            or (q["options"][q["correct"]] if q.get("options") and q.get("correct") is not None else "")
        )
        out.append(f"  (asker's card) answer: {shown}")
    suggestion = ask.get("suggestion")
    if suggestion and ask["role"] == "reader":
        verdict = "right" if suggestion["correct"] else "wrong"
        extra = f", {suggestion['named']} of {suggestion['needed']} named" if "needed" in suggestion else ""
        out.append(f"  judge suggests: {verdict}{extra} ({suggestion.get('reason', '')})")
    for result in ask.get("results", []):
        out.append(f"  - {result['prompt']}: {'right' if result['correct'] else 'wrong'} (answer: {result['answer']})")
    return out


def render(view: Mapping[str, Any], seat: int | None) -> str:
    """A seat's view as text."""
    deck = view["deck"]
    lines = [
        f"Caída Libre: seat {view['asker']} asks seat {view['answerer']} (phase {view['phase']}) · "
        f"pack {view['pack']} · {deck['draw']} cards in the draw pile"
    ]
    lines += render_scale(view)
    lines.append("IQ: " + ", ".join(f"seat {s} {iq}" for s, iq in enumerate(view["iq"])))
    weapon = view.get("weapon")
    if weapon:
        target = f", target seat {weapon['target']}" if weapon.get("target") is not None else ""
        lines.append(f"Weapon: seat {weapon['seat']} stands on the {WEAPON_NAMES[weapon['kind']]}{target}")
    if view.get("ask"):
        lines += _question_lines(view["ask"])
    last = view.get("last")
    if last and not view.get("ask"):
        outcome = "right" if last["correct"] else f"wrong, -{last['penalty']}"
        moves = "; ".join(f"seat {m['seat']} {m['before']}->{m['after']}" for m in last["moves"])
        lines.append(f"Last card ({last['card_type']}) for seat {last['answerer']}: {outcome}. {moves}")
    return "\n".join(lines)


def describe(entry: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    kind = entry["type"]
    if kind == "target":
        return f"target seat {entry['target']} (IQ {view['iq'][entry['target']]})"
    if kind == "ask_choose":
        h = view["ask"]["headings"]["headings"][entry["question"]]
        return f"choose {h.get('topic', '')} for -{h.get('penalty', 0)}"
    if kind == "ask_overrule":
        return "overrule the judge (for a list: type how many items were right)"
    return {
        "draw": "draw a card and read it",
        "ask_answer": "answer (type it)",
        "ask_pass": "pass",
        "ask_confirm": "confirm the judge's suggestion",
    }.get(kind, kind)


MENU_SKIP = ("ask_type", "ask_options", "ask_call_vote", "ask_vote")


def run_terminal(
    match: Match,
    human_seats: list[int],
    bots: Mapping[int, Bot],
    *,
    read: Reader = input,
    console: Console | None = None,
    clock: Callable[[], int] | None = None,
) -> None:
    """Play ``match``: people at ``human_seats`` answer prompts (hot-seat), ``bots`` play the other seats."""
    console = console or Console()
    table = TableDriver(match, human_seats, bots, clock)
    console.print(f"[bold]Caída Libre[/]: {match.players} seats; you play {human_seats or 'none'}. q quits.")
    hand_over = pass_the_keyboard(console, read)
    while (seat := table.next_person(hand_over)) is not None:
        if not _turn(table, seat, read, console):
            return
    if not match.is_over:  # stuck, or the people stopped at a hand-over
        if table.stuck:
            console.print("[red]Nobody can act and no timer is running.[/]")
        return
    result = match.result
    assert result is not None
    console.print("\n[bold]Chao, pescao![/] " + escape(render(match.view(None), None)), highlight=False)
    console.print(f"[bold]Winner(s)[/]: seats {', '.join(map(str, result.winners))}", highlight=False)


def _turn(table: TableDriver, seat: int, read: Reader, console: Console) -> bool:
    match, unseen, now, apply = table.match, table.unseen, table.now, table.apply
    for event in unseen[seat]:
        if event["type"] in ("card_scored", "free_fall", "weapon_armed", "target_chosen"):
            data = {k: v for k, v in event.items() if k not in ("type", "results")}
            console.print(f"  • [green]{event['type']}[/] {escape(str(data))}", highlight=False)
    unseen[seat].clear()
    view = match.view(seat)
    console.print(f"\n[bold]Seat {seat}[/], your move.\n" + escape(render(view, seat)), highlight=False)
    legal = [a for a in match.legal_actions(seat) if a["type"] not in MENU_SKIP]
    for number, entry in enumerate(legal, start=1):
        console.print(f"  [bold]{number}[/] {escape(describe(entry, view))}", highlight=False)
    while True:
        raw = read("> ").strip().lower()
        if raw == "q":
            return False
        if not raw.isdigit() or not 1 <= int(raw) <= len(legal):
            console.print(f"[red]type a number from 1 to {len(legal)} (q: quit)[/]")
            continue
        entry = legal[int(raw) - 1]
        action = {k: v for k, v in entry.items() if k != "inputs"}
        for spec in entry.get("inputs", ()):
            text = read(f"{spec['name']}> ").strip()
            if not text and spec.get("optional"):
                continue
            action[spec["name"]] = int(text) if spec["kind"] == "int" and text.lstrip("-").isdigit() else text
        try:
            apply({**action, "at": now()})
        except IllegalAction as exc:
            console.print(f"[red]{escape(exc.message)}[/]")
            if exc.code == "ask_time_up":
                return True
            continue
        return True
