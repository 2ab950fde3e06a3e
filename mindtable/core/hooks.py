"""One resolver for ``"module:attribute"`` hooks (games, bots, terminals, simulators, CLI commands).

Every hook is written the same way and fails the same way: a :class:`HookError` that names what the hook is
for, the target, and what went wrong, so a broken plugin can be reported without breaking anything else.

>>> resolve("mindtable.core.rng:Rng", "a test hook").__name__
'Rng'
>>> resolve("mindtable.core.rng:Nope", "bot 'x'")
Traceback (most recent call last):
...
mindtable.core.hooks.HookError: bot 'x': 'mindtable.core.rng:Nope' names no attribute 'Nope' in mindtable.core.rng
"""

from __future__ import annotations

import importlib
from typing import Any

from mindtable.core.errors import MindtableError


class HookError(MindtableError):
    """A ``"module:attribute"`` hook that cannot be loaded; the message says which, for what, and why."""


def resolve(target: str, what: str) -> Any:
    """The object ``target`` (``"package.module:attribute"``) names; ``what`` says what it is for, in errors."""
    if not isinstance(target, str) or target.count(":") != 1:
        raise HookError(f"{what}: {target!r} is not of the form 'package.module:attribute'")
    module_name, _, attribute = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # any import-time failure of a plugin is reported, never propagated raw
        raise HookError(f"{what}: {target!r} cannot be imported: {type(exc).__name__}: {exc}") from exc
    value = module
    for part in attribute.split("."):
        try:
            value = getattr(value, part)
        except AttributeError:
            raise HookError(f"{what}: {target!r} names no attribute {part!r} in {module_name}") from None
    return value
