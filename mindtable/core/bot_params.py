"""Bot parameters (``bot_params``): every parameter has a declared type and range, checked before a bot is built.

A bot factory may declare its parameters itself as ``params``: a mapping of name to :class:`BotParam` (the
place this declaration is meant to move to, next to each game's bots). Until it does, the declaration is
derived from the factory's signature: each keyword parameter other than ``seat`` and ``seed`` takes the
type of its default (whole number, number, true/false or text), numbers must be finite and within
:data:`GENERIC_RANGE`, text at most 64 characters; the bot's own checks (e.g. ``tempo_ms > 0``) come on top.

>>> from mindtable.core import get_game
>>> validate_bot_params(get_game("the-mind"), "proportional", {"tempo_ms": 50})
{'tempo_ms': 50.0}
>>> validate_bot_params(get_game("the-mind"), "proportional", {"tempo_ms": float("nan")})
Traceback (most recent call last):
...
ValueError: parameter 'tempo_ms' must be a finite number from 0 to 1000000, got nan
>>> validate_bot_params(get_game("the-mind"), "proportional", {"speed": 2})
Traceback (most recent call last):
...
ValueError: unknown parameter 'speed' for bot 'proportional'; its parameters: tempo_ms (number 0-1000000), ...
"""

from __future__ import annotations

import importlib
import inspect
import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from mindtable.core.codes import show
from mindtable.core.game import Game

#: The range of every numeric bot parameter a bot does not declare itself (ms, rates, probabilities...).
GENERIC_RANGE = (0.0, 1_000_000.0)
MAX_TEXT = 64


@dataclass(frozen=True)
class BotParam:
    """One parameter of a bot: its type (``int``, ``float``, ``bool`` or ``str``) and, for numbers, range."""

    name: str
    type: type
    minimum: float | None = GENERIC_RANGE[0]
    maximum: float | None = GENERIC_RANGE[1]

    def describe(self) -> str:
        if self.type is bool:
            return f"{self.name} (true/false)"
        if self.type is str:
            return f"{self.name} (text)"
        kind = "whole number" if self.type is int else "number"
        return f"{self.name} ({kind} {_num(self.minimum)}-{_num(self.maximum)})"

    def validate(self, value: Any) -> Any:
        if self.type is bool:
            if not isinstance(value, bool):
                raise ValueError(f"parameter {self.name!r} must be true or false, got {show(value)}")
            return value
        if self.type is str:
            if not isinstance(value, str) or len(value) > MAX_TEXT:
                raise ValueError(f"parameter {self.name!r} must be text of at most {MAX_TEXT} characters")
            return value
        lo = -math.inf if self.minimum is None else self.minimum
        hi = math.inf if self.maximum is None else self.maximum
        kind = "whole number" if self.type is int else "finite number"
        bad = ValueError(f"parameter {self.name!r} must be a {kind} from {_num(lo)} to {_num(hi)}, got {show(value)}")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise bad
        if isinstance(value, float) and not math.isfinite(value):
            raise bad
        if not lo <= value <= hi:
            raise bad
        if self.type is int:
            if isinstance(value, float):
                if not value.is_integer():
                    raise bad
                value = int(value)
            return value
        return float(value)


def _num(value: float | None) -> str:
    if value is None:
        return "any"
    return str(int(value)) if float(value).is_integer() else str(value)


@lru_cache(maxsize=128)
def _declared(target: str) -> tuple[BotParam, ...]:
    module_name, _, attribute = target.partition(":")
    factory = getattr(importlib.import_module(module_name), attribute)
    own = getattr(factory, "params", None)
    if isinstance(own, Mapping) and all(isinstance(p, BotParam) for p in own.values()):
        return tuple(own.values())
    params = []
    for parameter in inspect.signature(factory).parameters.values():
        if parameter.name in ("self", "seat", "seed") or parameter.kind in (
            inspect.Parameter.VAR_POSITIONAL,
            inspect.Parameter.VAR_KEYWORD,
        ):
            continue
        default = parameter.default
        kind: type = float
        if isinstance(default, bool):
            kind = bool
        elif isinstance(default, int):
            kind = int
        elif isinstance(default, str):
            kind = str
        params.append(BotParam(parameter.name, kind))
    return tuple(params)


def declared_params(game: Game, bot: str) -> dict[str, BotParam]:
    """The parameters ``bot`` of ``game`` accepts (its own declaration, else derived from its signature)."""
    target = game.bots.get(bot)
    if target is None:
        raise ValueError(f"unknown bot {show(bot)} for {game.id}; available bots: {', '.join(sorted(game.bots))}")
    return {param.name: param for param in _declared(target)}


def validate_bot_params(game: Game, bot: str, params: Any) -> dict[str, Any]:
    """``params`` checked against the declaration: unknown names, wrong types and out-of-range values are
    refused with a :class:`ValueError` naming the parameter; the result holds clean values."""
    declared = declared_params(game, bot)
    if not isinstance(params, Mapping):
        raise ValueError(f"bot parameters must be an object of name to value, got {show(params)}")
    clean: dict[str, Any] = {}
    for name, value in params.items():
        spec = declared.get(name) if isinstance(name, str) else None
        if spec is None:
            known = ", ".join(p.describe() for p in declared.values()) or "none"
            raise ValueError(f"unknown parameter {show(name)} for bot {bot!r}; its parameters: {known}")
        clean[name] = spec.validate(value)
    return clean


def room_defaults(game: Game, bot: str) -> dict[str, Any]:
    """The parameters a room gives ``bot`` of ``game`` unless its creator says otherwise
    (:attr:`mindtable.core.Game.room_bot_params`, e.g. a turn-based bot's think time), checked like any.

    >>> from mindtable.core import get_game
    >>> room_defaults(get_game("caida-libre"), "knowing")
    {'think_ms': 1200}
    >>> room_defaults(get_game("caida-libre"), "random")
    {}
    """
    defaults = game.room_bot_params.get(bot)
    return validate_bot_params(game, bot, dict(defaults)) if defaults else {}
