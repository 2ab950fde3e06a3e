"""What a match of Carrera de Mente reads before it starts: the board file and the six booklets.

Both are read once, in :func:`~mindtable.games.carrera_de_mente.rules.CarreraDeMente.initial_state`, and dealt
into the state: a record replays with no board or booklet file present.

* The board: a closed loop (one track, ``loop: true``) with one ``start`` square (the arrows), each square a
  colour of the palette; the palette's topic colours name the booklets (``topic: sports`` …); grey (no topic)
  is the free topic; ``special: star`` marks a star square of its colour. ``boards/standard.yaml`` is the
  default, ``boards/small.yaml`` a 14-square track for short games; the option ``board_file`` loads any other.
* The booklets: ``content/<language>/*.yaml`` (``booklet: <topic>`` files, questions numbered 111–666 with up
  to three slots). The option ``bank_file`` plays any other bank or set file (or a folder of them): booklet
  files are used as they are, anything else is made into booklets through the quiz table's topic mapping
  (:func:`mindtable.trivia.sets.make_booklets`).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from mindtable.core.errors import InvalidOptions
from mindtable.kit.board import Board, BoardError, load_board
from mindtable.trivia.bank import BankError
from mindtable.trivia.categories import TopicMap
from mindtable.trivia.model import Card
from mindtable.trivia.sets import load_sets, make_booklets

HERE = Path(__file__).resolve().parent
BOARDS = {"standard": HERE / "boards" / "standard.yaml", "small": HERE / "boards" / "small.yaml"}
CONTENT = HERE / "content"
LANGUAGES = ("en", "es")
#: How the categories of any bank feed the six booklets (in the book's order); ORANGE Cambalache takes whatever
#: has no booklet of its own.
TOPIC_MAP = TopicMap(
    topics=("sports", "science", "history_geography", "entertainment", "arts", "cambalache"),
    feeds={
        "sport": "sports",
        "science": "science",
        "technology": "science",
        "history": "history_geography",
        "geography": "history_geography",
        "politics": "history_geography",
        "entertainment": "entertainment",
        "film": "entertainment",
        "games": "entertainment",
        "music": "entertainment",
        "arts": "arts",
        "literature": "arts",
        "culture": "arts",
    },
    fallback="cambalache",
    names={
        "sports": {"en": "Sports", "es": "Deportes", "et": "Sport"},
        "science": {"en": "Nature and Science", "es": "Naturaleza y ciencia", "et": "Loodus ja teadus"},
        "history_geography": {
            "en": "History and Geography",
            "es": "Historia y geografía",
            "et": "Ajalugu ja geograafia",
        },
        "entertainment": {"en": "Entertainment and Shows", "es": "Entretenimiento y espectáculos"},
        "arts": {"en": "The Arts", "es": "Las artes", "et": "Kunstid"},
        "cambalache": {"en": "Cambalache", "es": "Cambalache", "et": "Cambalache"},
    },
)
#: The six booklets in the book's order, with the colour of their squares and prize tokens.
TOPICS = TOPIC_MAP.topics
COLOUR_OF = {
    "sports": "green",
    "science": "yellow",
    "history_geography": "skyblue",
    "entertainment": "pink",
    "arts": "brown",
    "cambalache": "orange",
}
PRIZE_COLOURS = tuple(COLOUR_OF[t] for t in TOPICS)
TOPIC_OF = {colour: topic for topic, colour in COLOUR_OF.items()}


def topic_name(topic: str, language: str) -> str:
    return TOPIC_MAP.topic_name(topic, language)


def board_path(name: str, file: str) -> Path:
    return Path(file) if file else BOARDS[name]


@functools.lru_cache(maxsize=16)
def _board_json(path: str) -> str:
    try:
        board = load_board(path)
    except BoardError as exc:
        raise InvalidOptions(f"board_file: {exc}", option="board_file") from None
    return json.dumps(compile_board(board, path))


def read_board(name: str, file: str) -> dict[str, Any]:
    """The board as it goes into the state: the drawing (``Board.to_dict()``) and the loop from the start."""
    return json.loads(_board_json(str(board_path(name, file))))


def compile_board(board: Board, path: str) -> dict[str, Any]:
    """Check that ``board`` is a Carrera track and return its JSON for the state (InvalidOptions otherwise)."""

    def bad(message: str) -> InvalidOptions:
        return InvalidOptions(f"board_file: {path}: {message}", option="board_file")

    if len(board.tracks) != 1:
        raise bad(f"a Carrera board is one closed track; this one has {len(board.tracks)} tracks")
    (ids,) = board.tracks.values()
    starts = board.starts
    if len(starts) != 1:
        raise bad(f"a Carrera board has exactly one start square (the arrows); this one has {len(starts)}")
    squares = [board.squares[i] for i in ids]
    following = [*ids[1:], ids[0]]
    if any(s.branches or s.next != (nxt,) for s, nxt in zip(squares, following, strict=True)):
        raise bad("the track must be a closed loop (loop: true) without branches or 'next'")
    if len(squares) < 7:
        raise bad(f"the track needs at least 7 squares (a die moves up to 6), got {len(squares)}")
    first = ids.index(starts[0])
    loop = squares[first:] + squares[:first]
    topics: dict[str, str] = {}
    for colour, spec in board.colours.items():
        topic = spec.get("topic")
        if topic is None:
            continue
        if topic not in TOPICS:
            raise bad(f"colours.{colour}.topic: {topic!r} is not a booklet; booklets: {', '.join(TOPICS)}")
        topics[colour] = topic
    stars: dict[str, int] = {}
    for index, square in enumerate(loop):
        if square.special == "star":
            if square.colour not in topics:
                raise bad(f"square {square.id}: a star square needs a prize colour, not {square.colour!r}")
            stars.setdefault(topics[square.colour], index)
    missing = [t for t in TOPICS if t not in stars]
    if missing:
        raise bad(f"every prize colour needs a star square; none for {', '.join(missing)}")
    return {
        "id": board.id,
        "title": board.title,
        "drawing": board.to_dict(),
        "squares": [
            {"id": s.id, "colour": s.colour, "topic": topics.get(s.colour), "star": s.special == "star"} for s in loop
        ],
        "colours": {topic: colour for colour, topic in topics.items()},
    }


@functools.lru_cache(maxsize=8)
def _booklets_json(language: str, bank: str) -> str:
    if bank:
        try:
            sets = load_sets([bank])
        except (BankError, OSError) as exc:
            raise InvalidOptions(f"bank_file: {exc}", option="bank_file") from None
    else:
        sets = load_sets(sorted((CONTENT / language).glob("*.yaml")))
    cards: dict[str, list[Card]] = {t: [] for t in TOPICS}
    titles: dict[str, str] = {t: topic_name(t, language) for t in TOPICS}
    plain = []
    topic_map = TOPIC_MAP
    for qset in sets:
        if qset.shape == "booklet":
            topic = topic_map.topic_of(qset.topic) or "cambalache"
            cards[topic].extend(qset.cards)
            if qset.title and not bank:
                titles[topic] = qset.title
        else:
            plain.extend(qset.questions)
    if plain:
        for topic, made in make_booklets(plain, topic_map, 0).items():
            cards[topic].extend(made)
    empty = [t for t in TOPICS if not cards[t]]
    if empty:
        where = bank or str(CONTENT / language)
        raise InvalidOptions(
            f"bank_file: {where} has no question for the booklet(s) {', '.join(empty)}", option="bank_file"
        )
    booklets: dict[str, list[list[Any]]] = {}
    for topic, items in cards.items():
        by_number: dict[int, list[dict[str, Any]]] = {}
        for card in items:
            number = int(card.extra.get("number", 0))
            slot = by_number.setdefault(number, [])
            slot.extend(_question_json(q.to_dict()) for q in card.questions)
        # a number's slots may come from several files (slots 1–2 in one, slot 3 in another): asked in slot order
        booklets[topic] = [
            [number, sorted(by_number[number], key=lambda q: q.get("extra", {}).get("slot", 0))]
            for number in sorted(by_number)
        ]
    return json.dumps({"booklets": booklets, "titles": titles})


def _question_json(data: dict[str, Any]) -> dict[str, Any]:
    # What a match needs of a question (the sources and notes stay in the files).
    return {k: v for k, v in data.items() if k not in ("check", "note")}


def read_booklets(language: str, bank: str) -> dict[str, Any]:
    """``{"booklets": {topic: [[number, [question, ...]], ...]}, "titles": {topic: title}}`` for the state."""
    return json.loads(_booklets_json(language, bank))


def booklet_files(language: str | None = None) -> list[Path]:
    """The shipped booklet files (of one language, or all)."""
    languages = (language,) if language else LANGUAGES
    return [p for lang in languages for p in sorted((CONTENT / lang).glob("*.yaml"))]
