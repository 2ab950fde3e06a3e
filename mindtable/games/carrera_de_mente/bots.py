"""Bots for Carrera de Mente: the quiz table's knowledge bot, with sensible choices of its own.

It has read the shipped booklets (both languages) and plays like one of a group of ordinary players (the model and
its figures: ``docs/rules/carrera-de-mente.md``, "Bots"): it knows a medium question of a booklet with a probability
of its own for each booklet — ``knows`` on average, spread by ``spread`` (each bot strong in some booklets, weak in
others, drawn from its seat and seed; ``by_topic`` sets them outright) — scaled by the question's difficulty (easy
×1.2, hard ×0.6). When it does not know and the options may be read out, it asks for them and recognises the right
one with that probability × ``recognise``, else it guesses among them: a bit better than a guess, far from sure.
When the options may not be asked (a star, an occupied square, the experts' variant) it passes. As the asker it
confirms the judge. Its own choices: on a grey square the booklet it knows best; a lap prize or a stolen token of
the colour it knows worst (the hardest star to win by answering); from another player, first a colour it lacks, else
any colour (which goes back to the box, out of the other player's hands).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from typing import Any

from mindtable.core.bot_params import BotParam
from mindtable.core.bots import Decision, Observation
from mindtable.trivia.quiz_bots import KnowledgeBot, KnowledgeProfile, Library

from .content import TOPIC_OF, TOPICS, booklet_files

#: The defaults: a plausible group of players (see the module docstring).
KNOWS, SPREAD, RECOGNISE = 0.45, 0.15, 0.25
#: A bot's booklets sit at ``knows + spread × offset``, the offsets dealt to the six booklets in its own order.
OFFSETS = (-1.0, -0.6, -0.2, 0.2, 0.6, 1.0)


@functools.lru_cache(maxsize=1)
def shipped_library() -> Library:
    return Library.from_files([str(p) for p in booklet_files()])


def booklet_knowledge(seat: int, seed: int, knows: float, spread: float) -> dict[str, float]:
    """What the bot in ``seat`` knows of each booklet: ``knows`` on average, ``± spread`` in an order of its own.

    >>> mine = booklet_knowledge(0, 7, 0.45, 0.15)
    >>> sorted(mine.values())
    [0.3, 0.36, 0.42, 0.48, 0.54, 0.6]
    >>> mine == booklet_knowledge(0, 7, 0.45, 0.15) != booklet_knowledge(1, 7, 0.45, 0.15)
    True
    """
    offsets = list(OFFSETS)
    random.Random(f"carrera-bot/{seed}/{seat}").shuffle(offsets)
    return {t: round(max(0.0, min(1.0, knows + spread * o)), 6) for t, o in zip(TOPICS, offsets, strict=True)}


def make_bot(
    seat: int,
    seed: int = 0,
    knows: float = KNOWS,
    spread: float = SPREAD,
    recognise: float = RECOGNISE,
    by_topic: Mapping[str, float] | None = None,
    think_ms: int = 0,
    **params: Any,
) -> KnowledgeBot:
    """A knowing bot (see the module docstring); ``think_ms``: the time it takes over each move (time-as-data,
    0: at once)."""
    per_booklet = {**booklet_knowledge(seat, seed, knows, spread), **dict(by_topic or {})}
    profile = KnowledgeProfile(default=knows, by_topic=per_booklet, recognise=recognise)

    def chance(colour: str) -> float:
        return profile.chance(TOPIC_OF.get(colour, ""), None)

    def other(observation: Observation) -> Decision | None:
        types = observation.legal_types  # the entries are listed only where a choice needs them
        if not types:
            return None
        kind = types[0]
        if kind in ("topic", "lap_prize", "steal"):
            legal = observation.legal_actions
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


#: The parameters a room, ``--bot-param`` or ``--vary`` may give (``by_topic`` is for Python callers).
make_bot.params = {  # type: ignore[attr-defined]
    "knows": BotParam("knows", float, 0.0, 1.0),
    "spread": BotParam("spread", float, 0.0, 0.5),
    "recognise": BotParam("recognise", float, 0.0, 1.0),
    "think_ms": BotParam("think_ms", int, 0, 600_000),
}
