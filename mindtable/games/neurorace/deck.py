"""The 90 task cards: the deck file, the generator that wrote it, and the verifier.

The deck file (``deck.txt``) holds one task per line, ``card level side: task``, two lines (sides A and B)
per card, 9 cards per level:

>>> card = CARDS[1]
>>> card.level, len(card.tasks)
(1, 2)
>>> len(CARDS), sorted({c.level for c in CARDS.values()}) == list(range(1, 11))
(90, True)

:func:`generate_deck` builds a deck from a seed. Level ``L`` takes tasks whose :func:`difficulty
<mindtable.games.neurorace.solver.difficulty>` lies in the band ``[BAND_START + 3 (L - 1), BAND_START + 3 L)``
bits, so every level-``L+1`` task is harder than every level-``L`` task; the mix of conditions shifts with the
level from white symbols (level 1) to coloured symbols, digits and chains of signs (level 10). Every task is
proved solvable with the shipped tiles. The shipped deck is ``generate_deck(DECK_SEED)``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from mindtable.games.neurorace.components import COLOURS, SYMBOLS
from mindtable.games.neurorace.solver import difficulty, solve, verify_layout
from mindtable.games.neurorace.tasks import PLACES, Place, Task, TaskSyntaxError, format_task, parse_task

LEVELS = 10
CARDS_PER_LEVEL = 9
SIDE_NAMES = ("A", "B")
DECK_SEED = 1
BAND_START = 9.0
BAND_WIDTH = 3.0


class DeckFileError(ValueError):
    """A malformed deck file; the message names the file, the line and the field."""


@dataclass(frozen=True)
class Card:
    id: int
    level: int
    tasks: tuple[Task, Task]


def band(level: int) -> tuple[float, float]:
    """The difficulty band (bits, low inclusive, high exclusive) of a level."""
    low = BAND_START + BAND_WIDTH * (level - 1)
    return low, low + BAND_WIDTH


# -- generation ------------------------------------------------------------------------------------------
def _random_place(rnd: random.Random, x: float) -> Place:
    weights = (max(0.05, 1.0 - 1.1 * x), 0.35 + 0.15 * x, 0.05 + 1.0 * x, 0.6 * x)
    kind = rnd.choices(("symbol", "colour", "both", "digit"), weights)[0]
    if kind == "symbol":
        return Place("symbol", symbol=rnd.choice(SYMBOLS))
    if kind == "colour":
        return Place("colour", colour=rnd.choice(COLOURS))
    if kind == "both":
        return Place("both", symbol=rnd.choice(SYMBOLS), colour=rnd.choice(COLOURS))
    return Place(rnd.choice(("first", "last")), digit=rnd.randrange(10))


def _random_task(rnd: random.Random, level: int) -> Task:
    x = (level - 1) / (LEVELS - 1)
    places = tuple(_random_place(rnd, x) for _ in range(PLACES))
    centre = round(6 * x)
    count = rnd.randint(max(0, centre - 1), min(PLACES - 1, centre + 1)) if level > 1 else 0
    gaps = set(rnd.sample(range(PLACES - 1), count))
    signs = tuple(rnd.choice(("<", ">")) if gap in gaps else None for gap in range(PLACES - 1))
    return Task(places, signs)


def generate_deck(seed: int = DECK_SEED, max_tries: int = 200_000) -> list[Card]:
    """90 cards from ``seed``: 18 different solvable tasks per level, each inside its level's band."""
    rnd = random.Random(f"neurorace-deck/{seed}")
    seen: set[str] = set()
    cards: list[Card] = []
    for level in range(1, LEVELS + 1):
        low, high = band(level)
        tasks: list[Task] = []
        tries = 0
        while len(tasks) < 2 * CARDS_PER_LEVEL:
            tries += 1
            if tries > max_tries:
                raise RuntimeError(f"level {level}: found only {len(tasks)} tasks in [{low}, {high}) bits")
            task = _random_task(rnd, level)
            text = format_task(task)
            if text in seen or not low <= difficulty(task) < high or solve(task) is None:
                continue
            seen.add(text)
            tasks.append(task)
        for index in range(CARDS_PER_LEVEL):
            cards.append(Card(len(cards) + 1, level, (tasks[2 * index], tasks[2 * index + 1])))
    return cards


# -- the deck file ---------------------------------------------------------------------------------------
def format_deck(cards: Iterable[Card], seed: int | None = None) -> str:
    made = f"generate_deck(seed={seed})" if seed is not None else "hand"
    lines = [
        "# NeuroRace task deck: 90 double-sided cards, 9 per level, one task per line: 'card level side: task'.",
        "# Task language: see mindtable/games/neurorace/tasks.py. "
        f"Made by {made} in mindtable/games/neurorace/deck.py.",
    ]
    for card in cards:
        for name, task in zip(SIDE_NAMES, card.tasks, strict=True):
            lines.append(f"{card.id} {card.level} {name}: {format_task(task)}")
    return "\n".join(lines) + "\n"


def parse_deck(text: str, filename: str = "deck.txt") -> list[Card]:
    """Read a deck file; any error names the file, the line and the field (the column for a task)."""
    rows: dict[int, dict[str, Any]] = {}
    for lineno, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        where = f"{filename}: line {lineno}"
        head, colon, body = raw.partition(":")
        fields = head.split()
        if not colon or len(fields) != 3:
            raise DeckFileError(f"{where}: expected 'card level side: task', got {raw!r}")
        card_text, level_text, side = fields
        if not card_text.isdigit():
            raise DeckFileError(f"{where}: field 'card' must be a whole number, got {card_text!r}")
        if not level_text.isdigit() or not 1 <= int(level_text) <= LEVELS:
            raise DeckFileError(f"{where}: field 'level' must be 1-{LEVELS}, got {level_text!r}")
        if side not in SIDE_NAMES:
            raise DeckFileError(f"{where}: field 'side' must be A or B, got {side!r}")
        try:
            task = parse_task(body)
        except TaskSyntaxError as exc:
            column = None if exc.column is None else exc.column + len(head) + 1
            at = f", column {column}" if column is not None else ""
            raise DeckFileError(f"{where}{at}: field 'task': {exc.reason}") from None
        row = rows.setdefault(int(card_text), {"level": int(level_text), "tasks": {}, "line": lineno})
        if row["level"] != int(level_text):
            raise DeckFileError(
                f"{where}: field 'level': card {card_text} is level {row['level']} on line {row['line']}"
            )
        if side in row["tasks"]:
            raise DeckFileError(f"{where}: field 'side': card {card_text} side {side} appears twice")
        row["tasks"][side] = task
    cards = []
    for card_id in sorted(rows):
        row = rows[card_id]
        missing = [name for name in SIDE_NAMES if name not in row["tasks"]]
        if missing:
            raise DeckFileError(f"{filename}: line {row['line']}: card {card_id} has no side {missing[0]}")
        cards.append(Card(card_id, row["level"], (row["tasks"]["A"], row["tasks"]["B"])))
    if [card.id for card in cards] != list(range(1, len(cards) + 1)):
        raise DeckFileError(f"{filename}: field 'card': cards must be numbered 1, 2, 3... without gaps")
    return cards


def deck_problems(cards: Iterable[Card]) -> list[str]:
    """Every broken invariant of a deck: counts per level, duplicates, unsolvable tasks, falling difficulty."""
    cards = list(cards)
    problems = []
    if len(cards) != LEVELS * CARDS_PER_LEVEL:
        problems.append(f"the deck has {len(cards)} cards, the book says {LEVELS * CARDS_PER_LEVEL}")
    for level in range(1, LEVELS + 1):
        count = sum(1 for card in cards if card.level == level)
        if count != CARDS_PER_LEVEL:
            problems.append(f"level {level} has {count} cards, the book says {CARDS_PER_LEVEL}")
    texts = [format_task(task) for card in cards for task in card.tasks]
    if len(set(texts)) != len(texts):
        problems.append("some tasks appear more than once")
    for card in cards:
        for name, task in zip(SIDE_NAMES, card.tasks, strict=True):
            layout = solve(task)
            if layout is None or not verify_layout(task, layout):
                problems.append(f"card {card.id} side {name} cannot be completed with the tiles")
    curve = difficulty_curve(cards)
    for level in range(1, LEVELS):
        if level in curve and level + 1 in curve and curve[level + 1]["median"] <= curve[level]["median"]:
            problems.append(f"level {level + 1} is not harder than level {level}")
    return problems


def difficulty_curve(cards: Iterable[Card]) -> dict[int, dict[str, float]]:
    """Per level: min, median, max difficulty (bits) of its tasks."""
    import statistics  # here: only the deck tools need it, and importing it costs every match a few ms

    by_level: dict[int, list[float]] = {}
    for card in cards:
        by_level.setdefault(card.level, []).extend(difficulty(task) for task in card.tasks)
    return {
        level: {"min": min(values), "median": statistics.median(values), "max": max(values)}
        for level, values in sorted(by_level.items())
    }


def load_deck() -> list[Card]:
    text = resources.files(__package__).joinpath("deck.txt").read_text(encoding="utf-8")
    return parse_deck(text, "mindtable/games/neurorace/deck.txt")


def _load_cards() -> Mapping[int, Card]:
    try:
        return {card.id: card for card in load_deck()}
    except FileNotFoundError:  # only while bootstrapping the data file
        return {}


#: The shipped deck, card id (1-90) -> card.
CARDS: Mapping[int, Card] = _load_cards()
