"""The match's seeded random generator.

Its whole state is two integers, so it serialises into a snapshot as-is. Every draw derives a fresh
:class:`random.Random` from ``(seed, draws)``, which keeps results independent of how many numbers an
earlier draw consumed: a game that changes how it shuffles one pile does not change every later shuffle.
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass
class Rng:
    """Deterministic randomness for one match.

    >>> a, b = Rng(7), Rng(7)
    >>> deck_a, deck_b = list(range(10)), list(range(10))
    >>> a.shuffle(deck_a); b.shuffle(deck_b)
    >>> deck_a == deck_b
    True
    """

    seed: int
    draws: int = 0

    def stream(self) -> random.Random:
        """A generator for one step of the game (a shuffle, a roll); each call gives a new one."""
        generator = random.Random(f"mindtable/{self.seed}/{self.draws}")
        self.draws += 1
        return generator

    def shuffle(self, items: MutableSequence[T]) -> None:
        self.stream().shuffle(items)

    def randint(self, low: int, high: int) -> int:
        return self.stream().randint(low, high)

    def to_dict(self) -> dict[str, int]:
        return {"seed": self.seed, "draws": self.draws}

    @classmethod
    def from_dict(cls, data: Any) -> Rng:
        try:
            return cls(int(data["seed"]), int(data["draws"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"rng must be {{'seed': int, 'draws': int}}, got {data!r}") from exc
