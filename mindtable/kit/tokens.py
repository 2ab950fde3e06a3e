"""Token supplies with conservation: every token is either in the supply or held by a seat, never both and
never lost.

A supply is JSON: ``{"total": {"red": 6, ...}, "supply": {"red": 6, ...}, "held": [{...}, {...}]}`` (one
mapping per seat). Moves check first with :func:`can_take` / :func:`holds` (a rule's gate), then move; a move
that is not possible raises :class:`TokenError` and changes nothing.

>>> tokens = new_supply({"red": 2, "blue": 1}, players=2)
>>> take(tokens, 0, "red"); take(tokens, 1, "red"); can_take(tokens, "red")
False
>>> steal(tokens, 0, 1, "red"); count(tokens, 0, "red"), count(tokens, 1, "red")
(2, 0)
>>> give_back(tokens, 0, "red"); check_conservation(tokens); tokens["supply"]["red"]
1
>>> take(tokens, 1, "green")
Traceback (most recent call last):
...
mindtable.kit.tokens.TokenError: no token 'green' in this supply; colours: blue, red
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Tokens = dict[str, Any]


class TokenError(ValueError):
    """A token move that is not possible (none left, not held, unknown colour), or a broken supply."""


def new_supply(counts: Mapping[str, int], players: int) -> Tokens:
    for colour, n in counts.items():
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise TokenError(f"{colour}: a supply count must be a whole number of at least 0, got {n!r}")
    return {"total": dict(counts), "supply": dict(counts), "held": [{} for _ in range(players)]}


def _known(tokens: Tokens, colour: str) -> None:
    if colour not in tokens["total"]:
        raise TokenError(f"no token {colour!r} in this supply; colours: {', '.join(sorted(tokens['total']))}")


def can_take(tokens: Tokens, colour: str) -> bool:
    count: int = tokens["supply"].get(colour, 0)
    return count > 0


def count(tokens: Tokens, seat: int, colour: str | None = None) -> int:
    """How many tokens ``seat`` holds (of ``colour``, or in all)."""
    held = tokens["held"][seat]
    return int(held.get(colour, 0)) if colour is not None else sum(held.values())


def holds(tokens: Tokens, seat: int, colour: str) -> bool:
    return count(tokens, seat, colour) > 0


def colours_held(tokens: Tokens, seat: int) -> list[str]:
    return sorted(c for c, n in tokens["held"][seat].items() if n > 0)


def take(tokens: Tokens, seat: int, colour: str) -> None:
    """``seat`` takes one ``colour`` token from the supply."""
    _known(tokens, colour)
    if not can_take(tokens, colour):
        raise TokenError(f"no {colour} token is left in the supply")
    tokens["supply"][colour] -= 1
    held = tokens["held"][seat]
    held[colour] = held.get(colour, 0) + 1


def give_back(tokens: Tokens, seat: int, colour: str) -> None:
    """``seat`` returns one ``colour`` token to the supply."""
    _known(tokens, colour)
    if not holds(tokens, seat, colour):
        raise TokenError(f"seat {seat} holds no {colour} token")
    _remove(tokens, seat, colour)
    tokens["supply"][colour] += 1


def steal(tokens: Tokens, thief: int, victim: int, colour: str) -> None:
    """One ``colour`` token passes from ``victim`` to ``thief``."""
    _known(tokens, colour)
    if not holds(tokens, victim, colour):
        raise TokenError(f"seat {victim} holds no {colour} token")
    _remove(tokens, victim, colour)
    held = tokens["held"][thief]
    held[colour] = held.get(colour, 0) + 1


def _remove(tokens: Tokens, seat: int, colour: str) -> None:
    held = tokens["held"][seat]
    held[colour] -= 1
    if not held[colour]:
        del held[colour]


def check_conservation(tokens: Tokens) -> None:
    """Raise :class:`TokenError` naming the colour when supply + held no longer adds up to the total."""
    for colour, total in tokens["total"].items():
        held = sum(int(h.get(colour, 0)) for h in tokens["held"])
        supply = int(tokens["supply"].get(colour, 0))
        if supply < 0 or held + supply != total:
            raise TokenError(f"{colour}: {supply} in the supply + {held} held = {supply + held}, not {total}")
    for seat, held in enumerate(tokens["held"]):
        for colour, n in held.items():
            if colour not in tokens["total"] or n < 0:
                raise TokenError(f"seat {seat} holds {n} of the unknown or negative token {colour!r}")


def supply_view(tokens: Tokens) -> dict[str, Any]:
    """The supply and every seat's tokens (public at every table the kit knows)."""
    return {"supply": dict(tokens["supply"]), "held": [dict(h) for h in tokens["held"]]}
