"""Turns: whose turn it is, neighbours, a starting player by roll-off, extra turns and teams.

Turn-based games keep a small JSON-ready dict in their state (``state["turn"]``) and move it with these
helpers, so "whose turn", "the player on my left" and "roll again" are written once::

    turn = new_turn(players=4, first=2)          # clockwise by default
    turn["seat"]                                 # 2
    pass_turn(turn)                              # 3 (to the left)
    grant_extra_turn(turn)                       # the same seat plays again at the next pass
    pass_turn(turn)                              # 3 again, and the extra turn is used up

Seats sit around the table in seat order; *clockwise* (the default, "to the left" in the rulebooks, since
play passes to the player on one's left) goes 0, 1, 2, …; *anticlockwise* the other way.

>>> left_of(3, players=4), right_of(0, players=4)
(0, 3)
>>> turn = new_turn(4, first=2)
>>> pass_turn(turn), pass_turn(turn), pass_turn(turn)
(3, 0, 1)
>>> grant_extra_turn(turn); pass_turn(turn)
1
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from mindtable.core.rng import Rng

CLOCKWISE, ANTICLOCKWISE = 1, -1


class Turn(TypedDict):
    """A turn record, as the state keeps it (plain JSON)."""

    #: Whose turn it is.
    seat: int
    players: int
    #: ``CLOCKWISE`` (1) or ``ANTICLOCKWISE`` (-1).
    direction: int
    #: Extra turns the current seat is owed ("roll again").
    extra: int
    #: Seats out of the game, sorted.
    out: list[int]
    #: Turns begun so far (the first is 1).
    number: int


class Team(TypedDict):
    """A seat played by several people: their names in answering order, and whose go it is."""

    members: list[str]
    next: int


def left_of(seat: int, players: int, direction: int = CLOCKWISE) -> int:
    """The seat on ``seat``'s left: the next one in the direction of play."""
    return (seat + direction) % players


def right_of(seat: int, players: int, direction: int = CLOCKWISE) -> int:
    """The seat on ``seat``'s right: the previous one in the direction of play."""
    return (seat - direction) % players


def seats_from(seat: int, players: int, direction: int = CLOCKWISE) -> list[int]:
    """Every seat in the order of play, starting with ``seat``.

    >>> seats_from(2, 4), seats_from(2, 4, ANTICLOCKWISE)
    ([2, 3, 0, 1], [2, 1, 0, 3])
    """
    return [(seat + direction * step) % players for step in range(players)]


def new_turn(players: int, first: int = 0, direction: int = CLOCKWISE, out: Sequence[int] = ()) -> Turn:
    """A turn record: whose turn, the direction, extra turns owed, seats out of the game, turns taken."""
    if direction not in (CLOCKWISE, ANTICLOCKWISE):
        raise ValueError(f"direction must be 1 (clockwise) or -1 (anticlockwise), got {direction!r}")
    if not 0 <= first < players:
        raise ValueError(f"first must be a seat from 0 to {players - 1}, got {first!r}")
    return {"seat": first, "players": players, "direction": direction, "extra": 0, "out": sorted(out), "number": 1}


def pass_turn(turn: Turn) -> int:
    """End the current turn: the same seat again if it earned an extra turn, else the next seat still in."""
    turn["number"] += 1
    if turn["extra"] > 0:
        turn["extra"] -= 1
        return int(turn["seat"])
    players, out = turn["players"], set(turn["out"])
    if len(out) >= players:
        raise ValueError("every seat is out of the game: nobody can take a turn")
    seat = turn["seat"]
    for _ in range(players):
        seat = (seat + turn["direction"]) % players
        if seat not in out:
            break
    turn["seat"] = seat
    return int(seat)


def grant_extra_turn(turn: Turn, count: int = 1) -> None:
    """The current seat plays again after this turn ("roll again")."""
    turn["extra"] += count


def drop_out(turn: Turn, seat: int) -> None:
    """``seat`` takes no more turns (it finished, or left); if it was its turn, pass on."""
    if seat not in turn["out"]:
        turn["out"] = sorted([*turn["out"], seat])
    if turn["seat"] == seat and len(turn["out"]) < turn["players"]:
        turn["extra"] = 0
        pass_turn(turn)
        turn["number"] -= 1


def roll_off(rng: Rng, seats: Sequence[int], sides: int = 6) -> tuple[int, list[dict[int, int]]]:
    """Everyone in ``seats`` rolls a die; the highest starts; the tied highest roll again until one is left.

    Returns the winner and every round of rolls (seat -> roll), for the events a table shows.

    >>> winner, rounds = roll_off(Rng(3), [0, 1, 2, 3])
    >>> winner in (0, 1, 2, 3) and max(rounds[-1].values()) == rounds[-1][winner]
    True
    """
    if not seats:
        raise ValueError("a roll-off needs at least one seat")
    rounds: list[dict[int, int]] = []
    contenders = list(seats)
    while True:
        stream = rng.stream()
        rolls = {seat: stream.randint(1, sides) for seat in contenders}
        rounds.append(rolls)
        best = max(rolls.values())
        contenders = [seat for seat in contenders if rolls[seat] == best]
        if len(contenders) == 1:
            return contenders[0], rounds


# -- teams -------------------------------------------------------------------------------------------
def new_teams(members: Sequence[Sequence[str]]) -> list[Team]:
    """Teams for seats played by several people: ``members[seat]`` are the names, in answering order.

    >>> teams = new_teams([["Ann", "Bo"], ["Cy"]])
    >>> answerer(teams, 0), rotate(teams, 0), answerer(teams, 0)
    ('Ann', 'Bo', 'Bo')
    """
    return [{"members": list(names), "next": 0} for names in members]


def answerer(teams: Sequence[Team], seat: int) -> str | None:
    """Who in ``seat``'s team answers now (``None`` for a seat without named members)."""
    team = teams[seat]
    if not team["members"]:
        return None
    return str(team["members"][team["next"] % len(team["members"])])


def rotate(teams: Sequence[Team], seat: int) -> str | None:
    """Pass the answering to the next member of ``seat``'s team; returns who answers next."""
    team = teams[seat]
    if team["members"]:
        team["next"] = (team["next"] + 1) % len(team["members"])
    return answerer(teams, seat)
