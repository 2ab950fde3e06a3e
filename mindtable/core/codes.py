"""Reason codes: every refusal and every notice is a code with parameters, never prose to be parsed.

A code is declared once, with an English template that names its parameters::

    CODES = {"not_lowest": "you may only play your lowest card, {lowest}, not {card}"}

The core declares the codes every game shares (:data:`CORE_CODES`); a game declares its own in ``Game.codes``.
A game refuses with :func:`refuse`, giving the code and its parameters; the match fills in the English message
from the template. Pages translate the code with its parameters (``mindtable/web/static/i18n``), a terminal
prints the English message. A game's code never reuses a core code with another meaning (a test checks it).

>>> error = refuse("not_lowest", lowest=12, card=30)
>>> describe("not_lowest", error.params, {"not_lowest": "you may only play your lowest card, {lowest}, not {card}"})
'you may only play your lowest card, 12, not 30'
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any

from mindtable.core.errors import IllegalAction

#: The codes the core itself raises, whatever the game.
CORE_CODES: dict[str, str] = {
    "malformed_action": "this is not a valid action: {problem}",
    "unknown_action": "unknown action {action!r}; allowed here: {allowed}",
    "bad_seat": "seat must be a whole number from 0 to {last}, got {seat}",
    "seat_required": "the action {action!r} needs the seat of the player who takes it",
    "system_action": "{action!r} is taken by the game itself (a timer), not by a seat",
    "missing_time": "{game} is played in real time: every action needs 'at', its time in ms since the match began",
    "bad_time": "'at' must be a whole number of ms from 0 to {limit}, got {at}",
    "time_went_backwards": "action at {at} ms is earlier than the previous action at {clock} ms",
    "match_over": "the match is over; no more actions are accepted",
    "unknown_field": "the action {action!r} has no field {field!r}; its fields: {allowed}",
    "missing_field": "the action {action!r} needs the field {field!r} ({allowed})",
    "bad_value": "{field!r} of {action!r} must be {allowed}, got {value}",
    "not_your_turn": "it is not your turn: waiting for {waiting}",
    "not_now": "{action!r} is not possible now",
}

#: The parameters of core codes that name a seat (a seat number, or a list of them): a surface says them as the
#: seat is shown to people (its player's name), not as the number. ``bad_seat``'s ``seat`` is not listed: it is
#: a number that names no seat. A game lists its own codes' in ``Game.seat_params``; see :func:`seat_params`.
CORE_SEAT_PARAMS: dict[str, tuple[str, ...]] = {"not_your_turn": ("waiting",)}

#: The longest action a match will read: anything longer is refused before any rule looks at it.
MAX_TIME_MS = 10 * 365 * 24 * 3600 * 1000


_SHARED: dict[str, IllegalAction] = {}


def refuse(code: str, **params: Any) -> IllegalAction:
    """An :class:`IllegalAction` for ``code``: a move's gate returns it, other code raises it.

    The match fills in the English message from the code's template. (A refusal without parameters is
    shared, since gates build many while listing; the match raises a fresh copy.)
    """
    if not params:
        shared = _SHARED.get(code)
        if shared is None:
            shared = _SHARED[code] = IllegalAction(code)
        return shared
    return IllegalAction(code, None, None, params)


def fresh(error: IllegalAction) -> IllegalAction:
    """A copy of a (possibly shared) refusal that a caller may fill in and keep."""
    return IllegalAction(error.code, error._message, error.action, dict(error.params))


class _Defaulting(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


class _Listed(list[Any]):
    """A list parameter in a message: ``{seats}`` reads "0, 2" (``{seats!r}`` is still the list's repr)."""

    def __format__(self, spec: str) -> str:
        return format(", ".join(map(str, self)), spec)


def describe(code: str, params: Mapping[str, Any], codes: Mapping[str, str] | None = None) -> str:
    """The English message of ``code`` with ``params`` (game codes first, then the core's); a list reads as its
    items joined by commas.

    >>> describe("not_answering", {"answerers": [0, 2]}, {"not_answering": "only seats {answerers} may"})
    'only seats 0, 2 may'
    """
    template = (codes or {}).get(code) or CORE_CODES.get(code)
    if template is None:
        return code.replace("_", " ") + (f" ({', '.join(f'{k}={v!r}' for k, v in params.items())})" if params else "")
    try:
        shown = {k: _Listed(v) if type(v) is list else v for k, v in params.items()}
        return string.Formatter().vformat(template, (), _Defaulting(shown))
    except (ValueError, IndexError, AttributeError, KeyError):
        return template


def seat_params(
    code: str, params: Mapping[str, Any], declared: Mapping[str, tuple[str, ...]] | None = None
) -> list[str]:
    """The names among ``params`` of refusal ``code`` that name a seat, as declared (the game's ``declared``
    first, then :data:`CORE_SEAT_PARAMS`), and only those whose value is a seat number or a list of them.

    >>> seat_params("not_your_turn", {"waiting": 2})
    ['waiting']
    >>> seat_params("em_wait", {"seat": 1, "step": "roll the die"}, {"em_wait": ("seat",)})
    ['seat']
    >>> seat_params("bad_seat", {"seat": 9, "last": 3})
    []
    """
    names = (declared or {}).get(code) or CORE_SEAT_PARAMS.get(code, ())
    return [name for name in names if _is_seat_value(params.get(name))]


def label_params(
    code: str, params: Mapping[str, Any], declared: Mapping[str, Mapping[str, str]] | None = None
) -> dict[str, str]:
    """The parameters of refusal ``code`` whose values are ids a page shows by their label (a colour, a topic),
    as declared in the game's ``label_params``: parameter -> the prefix of the label's key (the page says the
    label of ``prefix.value``). Only parameters whose value is a text or a list of texts are given.

    >>> label_params("bad_colour", {"allowed": ["green", "pink"]}, {"bad_colour": {"allowed": "my.colour"}})
    {'allowed': 'my.colour'}
    >>> label_params("bad_colour", {"allowed": 3}, {"bad_colour": {"allowed": "my.colour"}})
    {}
    """
    names = (declared or {}).get(code) or {}
    return {name: prefix for name, prefix in names.items() if _is_text_value(params.get(name))}


def _is_text_value(value: Any) -> bool:
    if isinstance(value, list):
        return all(isinstance(v, str) for v in value)
    return isinstance(value, str)


def _is_seat_value(value: Any) -> bool:
    if isinstance(value, list):
        return bool(value) and all(_is_seat_value(v) for v in value)
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def template_fields(template: str) -> set[str]:
    """The parameter names a template uses.

    >>> sorted(template_fields("you may only play {lowest}, not {card!r}"))
    ['card', 'lowest']
    """
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


#: How much of a client's value an error message echoes.
ECHO_CHARS = 60


def show(value: Any, limit: int = ECHO_CHARS) -> str:
    """A short, ASCII-only picture of a client's value for an error message (never a lone surrogate).

    >>> show("\\ud800" * 3)
    "'\\\\ud800\\\\ud800\\\\ud800'"
    >>> show(float("nan"))
    'nan'
    """
    try:
        text = ascii(value)
    except (RecursionError, ValueError):  # ascii() of a huge int or a very deep list
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."
