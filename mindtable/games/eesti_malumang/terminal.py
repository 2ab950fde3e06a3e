"""Eesti mälumäng in a terminal: the generic table (``mindtable.cli.table``) with the board drawn as text.

``mindtable play eesti-malumang`` (hot-seat with ``--humans N``, bots in the other seats). The view a person
sees has the board as a grid of cells — ``[A 0 ]``: the category's Estonian initial (A Ajalugu, K Kultuur,
L Loodusteadus, G Geograafia, S Sport, V Varia; E an Estonia space, F the finish square) and the pieces standing
there — instead of the board's JSON; bots still get the whole view.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mindtable.core.bots import Bot, Decision, Observation, observe
from mindtable.core.match import Match

LETTERS = {"history": "A", "culture": "K", "science": "L", "geography": "G", "sport": "S", "varia": "V"}


def render_board(board: Mapping[str, Any], pawns: list[str | None]) -> str:
    """The board as text lines, one cell per square at its place, with the pieces (seat numbers) on it."""
    squares = board["squares"]
    xs = sorted({s["x"] for s in squares})
    ys = sorted({s["y"] for s in squares})
    grid = [["      " for _ in xs] for _ in ys]
    for sq in squares:
        topic = board["colours"].get(sq["colour"], {}).get("topic")
        letter = "F" if sq["kind"] == "finish" else LETTERS.get(topic or "", "E")
        who = "".join(str(seat) for seat, at in enumerate(pawns) if at == sq["id"])
        grid[ys.index(sq["y"])][xs.index(sq["x"])] = f"[{letter}{who[:3]:<3}]"
    lines = ["".join(row).rstrip() for row in grid]
    lines.append("A Ajalugu · K Kultuur · L Loodusteadus · G Geograafia · S Sport · V Varia · E Eesti · F finiš")
    return "\n".join(lines)


def text_view(view: dict[str, Any]) -> dict[str, Any]:
    """The view for a person at the terminal: the board as text, the bulky parts left out."""
    out = {k: v for k, v in view.items() if k not in ("board", "categories", "stats", "start_rolls")}
    if view.get("board") is not None:
        out["board"] = render_board(view["board"], view["pawns"])
    out["landings"] = [f"{lnd['direction']}: {lnd['square']}" for lnd in view.get("landings", ())]
    return out


class _TextMatch:
    """The match as the generic terminal sees it: every call goes to the match, views come as text views."""

    def __init__(self, match: Match) -> None:
        self._match = match

    def __getattr__(self, name: str) -> Any:
        return getattr(self._match, name)

    def view(self, seat: int | None) -> dict[str, Any]:
        return text_view(self._match.view(seat))


class _BotOnMatch:
    """A bot that observes the real match (the whole view), whatever the terminal hands it."""

    def __init__(self, bot: Bot, match: Match) -> None:
        self.bot, self.match = bot, match

    def decide(self, observation: Observation) -> Decision | None:
        return self.bot.decide(observe(self.match, observation.seat, observation.now))


def run_terminal(match: Match, human_seats: list[int], bots: Mapping[int, Bot], **kwargs: Any) -> None:
    from mindtable.cli.table import run_table

    wrapped = {seat: _BotOnMatch(bot, match) for seat, bot in bots.items()}
    run_table(_TextMatch(match), human_seats, wrapped, **kwargs)  # type: ignore[arg-type]
