"""Dice, always through the match's seeded generator (:class:`mindtable.core.rng.Rng`).

>>> from mindtable.core.rng import Rng
>>> rolls = roll(Rng(7), count=3)
>>> len(rolls), all(1 <= r <= 6 for r in rolls)
(3, True)
>>> number = roll_number(Rng(7))
>>> 111 <= number <= 666 and set(str(number)) <= set("123456")
True
>>> number_from_rolls([3, 2, 5])
325
"""

from __future__ import annotations

from collections.abc import Sequence

from mindtable.core.rng import Rng


def roll(rng: Rng, count: int = 1, sides: int = 6) -> list[int]:
    """``count`` dice of ``sides`` sides, in the order they came up."""
    if count < 1 or sides < 2:
        raise ValueError(f"need at least one die of at least two sides, got {count} d{sides}")
    return [rng.roll(sides) for _ in range(count)]


def number_from_rolls(rolls: Sequence[int]) -> int:
    """The number the rolls spell, in the order they came up (three rolls 3, 2, 5 make 325)."""
    if not rolls or any(not 1 <= r <= 9 for r in rolls):
        raise ValueError(f"rolls must be digits 1-9, got {list(rolls)}")
    return int("".join(str(r) for r in rolls))


def roll_number(rng: Rng, dice: int = 3, sides: int = 6) -> int:
    """A question number made of ``dice`` rolls (Carrera de Mente's 111-666)."""
    return number_from_rolls(roll(rng, dice, sides))
