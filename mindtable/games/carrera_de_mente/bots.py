"""Bots for Carrera de Mente: the quiz table's knowledge bot, with sensible choices of its own.

It has read the shipped booklets (both languages) and remembers ``knows`` of them (``by_topic`` per booklet);
as the asker it confirms the judge. Its own choices: on a grey square the booklet it knows best; a lap prize
or a stolen token of the colour it knows worst (the hardest star to win by answering); from another player,
first a colour it lacks, else any colour (which goes back to the box, out of the other player's hands).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from mindtable.core.bots import Decision, Observation
from mindtable.trivia.quiz_bots import KnowledgeBot, KnowledgeProfile, Library

from .content import TOPIC_OF, booklet_files


@functools.lru_cache(maxsize=1)
def shipped_library() -> Library:
    return Library.from_files([str(p) for p in booklet_files()])


def make_bot(
    seat: int,
    seed: int = 0,
    knows: float = 0.6,
    by_topic: Mapping[str, float] | None = None,
    think_ms: int = 0,
    **params: Any,
) -> KnowledgeBot:
    """A knowing bot; ``think_ms``: the time it takes over each move (time-as-data, 0: at once)."""
    profile = KnowledgeProfile(default=knows, by_topic=dict(by_topic or {}))

    def chance(colour: str) -> float:
        return profile.chance(TOPIC_OF.get(colour, ""), None)

    def other(observation: Observation) -> Decision | None:
        legal = observation.legal_actions
        if not legal:
            return None
        kind = legal[0]["type"]
        if kind == "topic":
            topics = [a["topic"] for a in legal if a["type"] == "topic"]
            best = max(topics, key=lambda t: (profile.chance(t, None), -topics.index(t)))
            return Decision({"type": "topic", "topic": best})
        if kind == "lap_prize":
            colours = [a["colour"] for a in legal if a["type"] == "lap_prize"]
            return Decision({"type": "lap_prize", "colour": min(colours, key=lambda c: (chance(c), colours.index(c)))})
        if kind == "steal":
            colours = [a["colour"] for a in legal if a["type"] == "steal"]
            mine = set(observation.view["prizes"][seat])
            lacking = [c for c in colours if c not in mine] or colours
            return Decision({"type": "steal", "colour": min(lacking, key=lambda c: (chance(c), colours.index(c)))})
        return Decision({"type": kind})

    return KnowledgeBot(
        seat, seed, library=shipped_library(), profile=profile, other=other, think_ms=think_ms, **params
    )
