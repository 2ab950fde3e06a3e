"""A scripted player at the NeuroRace terminal's keyboard: lines typed at times on a virtual clock (seconds)."""

from __future__ import annotations

from collections.abc import Callable

Plan = Callable[["Keyboard"], "str | None"]


class Keyboard:
    """Lines typed at times on a virtual clock (seconds); ``None`` from the plan: nothing typed yet."""

    def __init__(self, plan: Plan) -> None:
        self.time = 0.0
        self.plan = plan
        self.typed: list[str] = []

    def clock(self) -> float:
        return self.time

    def read(self, timeout: float | None) -> str | None:
        line = self.plan(self)
        if line is None:
            self.time += 0.25 if timeout is None else min(timeout, 0.25)
            return None
        self.time += 0.3  # typing takes a moment
        self.typed.append(line)
        return line
