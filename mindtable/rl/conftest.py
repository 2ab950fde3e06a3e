"""Without the ``[rl]`` extra, pytest's doctest collection skips this package instead of failing to import it."""

from __future__ import annotations

import importlib.util

collect_ignore_glob = (
    [] if all(importlib.util.find_spec(name) for name in ("pettingzoo", "gymnasium", "pyspiel")) else ["*.py"]
)
