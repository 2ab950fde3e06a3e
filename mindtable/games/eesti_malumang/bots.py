"""Bots for Eesti mälumäng: a quiz player with a knowledge profile per category (``KnowledgeBot``) whose board
moves are chosen sensibly:

* where to start: an Estonia space (the seat's own corner, in turn, so pieces spread out);
* which way to move: towards a square whose colour it still lacks (an Estonia space counts as any colour it
  lacks), the colour it knows best first; once it holds all six colours, onto an Estonia space; in variant 1
  (outer track), where every right answer takes a card, towards a colour that still has Estonia cards left;
* on an Estonia space: the lacking category it knows best (or, holding all, the one it knows best: a right
  answer rolls again); in variant 1 the category with cards left that it knows best;
* on the finish square, as the player to the left: the category the answering player has done worst in so far
  (the public tally of right and wrong answers), with unknown categories counted as average.

It sees only its observation: its view (which never holds the answer) and the legal actions.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from mindtable.core.bots import Decision, Observation
from mindtable.games.eesti_malumang.rules import CATEGORIES, content_files
from mindtable.trivia.quiz_bots import KnowledgeBot, KnowledgeProfile, Library


@cache
def library() -> Library:
    """The public card files (both languages), which a bot has read like anyone may."""
    return Library.from_files([str(p) for p in content_files()])


def _colour_topic(view: dict[str, Any], square: str) -> str | None:
    return _square_topics(view.get("board") or {}).get(square)


def _square_topics(board: dict[str, Any]) -> dict[str, str | None]:
    """Each square of ``board`` (a view's board) -> the topic of its colour (the first square of an id counts)."""
    colours = board.get("colours") or {}
    out: dict[str, str | None] = {}
    for sq in board.get("squares", ()):
        if sq["id"] not in out:
            out[sq["id"]] = colours.get(sq["colour"], {}).get("topic")
    return out


class Chooser:
    """The bot's board choices (everything but the questions)."""

    def __init__(self, seat: int, seed: int, profile: KnowledgeProfile) -> None:
        self.seat, self.seed, self.profile = seat, seed, profile
        # The board the squares' topics were read from (a view's board: the same object while the match's board
        # is), held so that it stays the one they describe, and each square's topic and the Estonia spaces.
        self._board: dict[str, Any] | None = None
        self._topics: dict[str, str | None] = {}
        self._estonia: frozenset[str] = frozenset()

    def _board_of(self, view: dict[str, Any]) -> tuple[dict[str, str | None], frozenset[str]]:
        """The squares' topics and the Estonia spaces of the view's board, read once a board."""
        board = view["board"]
        if board is not self._board:
            self._topics = _square_topics(board)
            self._estonia = frozenset(board["estonia"])
            self._board = board
        return self._topics, self._estonia

    def know(self, category: str) -> float:
        return self.profile.chance(category, None)

    def __call__(self, observation: Observation) -> Decision | None:
        types = observation.legal_types  # the entries are listed only where a choice needs them
        if not types:
            return None
        view = observation.view
        kind = types[0]
        seat = observation.seat
        if kind in ("roll", "path"):  # moves without parameters: listed as their type alone
            return Decision({"type": kind})
        if kind in ("category", "final_category"):
            legal: list[dict[str, Any]] = []
        else:
            legal = observation.legal_actions
        if kind == "place":
            squares = [a["square"] for a in legal if a["type"] == "place"]
            return Decision({"type": "place", "square": squares[(seat + self.seed) % len(squares)]})
        if kind == "move":
            squares = [a["to"] for a in legal if a["type"] == "move"]
            if len(squares) == 1:
                return Decision({"type": "move", "to": squares[0]})
            worth = self._worths(view)
            return Decision({"type": "move", "to": max(squares, key=worth)})
        if kind == "category":
            pool = self._wanted(view) or list(CATEGORIES)
            return Decision({"type": "category", "category": max(pool, key=self.know)})
        if kind == "final_category":
            target = view["turn"]
            stats = view["stats"][target]

            def rate(category: str) -> float:
                right, wrong = stats.get(category, (0, 0))
                return (right + 1) / (right + wrong + 2)

            return Decision({"type": "final_category", "category": min(CATEGORIES, key=rate)})
        entry = legal[0]
        return Decision({k: v for k, v in entry.items() if k not in ("seat", "inputs")})

    def _wanted(self, view: dict[str, Any]) -> list[str]:
        """The categories whose right answer wins a card: in the standard game the colours it lacks (while the
        supply lasts), in variant 1 every colour with cards left."""
        supply = view.get("supply") or {}
        if view["variant"] == "standard":
            held = view["held"][self.seat]
            return [c for c in CATEGORIES if not held.get(c) and supply.get(c, 1)]
        if view["variant"] == "outer_track":
            return [c for c in CATEGORIES if supply.get(c, 1)]
        return []

    def _worth(self, view: dict[str, Any], square: str) -> float:
        return self._worths(view)(square)

    def _worths(self, view: dict[str, Any]) -> Any:
        """What moving to a square is worth to the bot now (a function of the square): what it wants read once
        for all the squares it may move to, the squares' topics once a board."""
        topics, estonias = self._board_of(view)
        if view["complete"][self.seat]:
            return lambda square: 10.0 if square in estonias else 0.0
        lacking = self._wanted(view)
        know = self.know
        on_estonia = 1.0 + max((know(c) for c in lacking), default=0.0)

        def worth(square: str) -> float:
            if square in estonias:
                return on_estonia
            topic = topics.get(square)
            if topic in lacking:
                return 1.0 + know(topic)
            return know(topic or "") * 0.5

        return worth


class EestiBot:
    """A :class:`KnowledgeBot` that takes time to answer: ``think_ms`` in variant 2, where the agreed game time
    is the game (so it passes in a simulation as it does at a table), ``board_think_ms`` on the board, where
    the people at the table only wait for it. Its other moves (rolling, moving, naming a category, confirming
    as the asker) are made at once.

    The waiting itself is the KnowledgeBot's ``think_ms`` (time as data, counted from the first moment the bot
    was asked about this question, so a room that asks again — a player reconnecting — does not restart it);
    this wrapper only says how long, per step and variant. It cannot be a room default
    (``Game.room_bot_params``): the variant-2 time must hold in simulations too, and it depends on the variant."""

    def __init__(self, inner: KnowledgeBot, think_ms: int, board_think_ms: int) -> None:
        self.inner, self.think_ms, self.board_think_ms = inner, think_ms, board_think_ms
        self.seat = inner.seat

    #: Out of turn it decides nothing (see :meth:`rest`).
    idle_out_of_turn = True

    def rest(self) -> None:
        """What being asked out of turn (no legal action) does: nothing to answer, so no thinking time."""
        self.inner.think_ms = 0
        self.inner.rest()

    def decide(self, observation: Observation) -> Decision | None:
        answering = any(t in ("ask_answer", "ask_pass") for t in observation.legal_types)
        think = self.think_ms if observation.view.get("variant") == "cards_only" else self.board_think_ms
        self.inner.think_ms = think if answering else 0
        return self.inner.decide(observation)


def make_bot(
    seat: int,
    seed: int = 0,
    knows: float = 0.6,
    think_ms: int = 15_000,
    board_think_ms: int = 2_000,
    **by_topic: float,
) -> EestiBot:
    """A knowing bot: ``knows`` is its chance to know an answer, ``history=0.9`` (…) per category;
    ``think_ms`` the time it takes to answer in variant 2 (cards only, against the clock), ``board_think_ms``
    on the board."""
    unknown = set(by_topic) - set(CATEGORIES)
    if unknown:
        raise ValueError(f"unknown categories {sorted(unknown)}; the categories are {', '.join(CATEGORIES)}")
    profile = KnowledgeProfile(
        default=float(knows), by_topic={k: float(v) for k, v in by_topic.items()}, ask_options=False
    )
    inner = KnowledgeBot(seat, seed, library=library(), profile=profile, other=Chooser(seat, seed, profile))
    return EestiBot(inner, int(think_ms), int(board_think_ms))
