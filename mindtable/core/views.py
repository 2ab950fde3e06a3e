"""Views for bots, built as they are read.

A driver hands each bot its seat's view every step (:meth:`mindtable.core.match.Match.bot_views`), and most bots
read a part of it only: a quiz bot looks at the question being asked and nothing else while it rolls a die. A
:class:`LazyView` is a read-only mapping equal to the seat's view (``view(state, seat)``) whose parts are built when
first read: the part every seat sees alike once for all the seats of a step (and only if one of them reads it), the
seat's own parts when that seat reads them. A page never gets one: :meth:`Match.view` stays a plain dict.

>>> built = []
>>> def public():
...     built.append("public")
...     return {"phase": "roll", "ask": None, "board": [1, 2, 3]}
>>> view = LazyView(public, {"ask": lambda: {"role": "answerer"}}, {"to_act": [0]})
>>> view["ask"], built
({'role': 'answerer'}, [])
>>> view["phase"], built
('roll', ['public'])
>>> view == {"phase": "roll", "ask": {"role": "answerer"}, "board": [1, 2, 3], "to_act": [0]}
True
>>> list(view)
['phase', 'ask', 'board', 'to_act']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any


class Once:
    """``function()``, called the first time it is asked for and remembered (a part several views share)."""

    __slots__ = ("_function", "_value")

    def __init__(self, function: Callable[[], Mapping[str, Any]]) -> None:
        self._function: Callable[[], Mapping[str, Any]] | None = function
        self._value: Mapping[str, Any] | None = None

    def __call__(self) -> Mapping[str, Any]:
        value = self._value
        if value is None:
            assert self._function is not None
            value = self._value = self._function()
            self._function = None
        return value


_MISSING: Any = object()


class LazyView(Mapping[str, Any]):
    """A seat's view whose parts are built when first read (see the module docstring).

    ``public()`` gives the part every seat sees alike (a dict; share one :class:`Once` between the views of a
    step); ``own`` the keys built for this seat alone, each by its function (the public part may hold a
    placeholder at the key's place, which then keeps its place in the order); ``fixed`` keys whose values are
    known already (they come last). Read-only, like every view handed to a bot; equal to the plain dict.
    """

    __slots__ = ("_built", "_fixed", "_own", "_public")

    def __init__(
        self,
        public: Callable[[], Mapping[str, Any]],
        own: Mapping[str, Callable[[], Any]],
        fixed: Mapping[str, Any] | None = None,
    ) -> None:
        self._public = public
        self._own = own
        self._fixed = fixed or {}
        self._built: dict[str, Any] = {}

    def get(self, key: str, default: Any = None) -> Any:
        value = self._built.get(key, _MISSING)
        if value is not _MISSING:
            return value
        build = self._own.get(key)
        if build is not None:
            value = self._built[key] = build()
            return value
        value = self._fixed.get(key, _MISSING)
        if value is not _MISSING:
            return value
        return self._public().get(key, default)

    def __getitem__(self, key: str) -> Any:
        value = self.get(key, _MISSING)
        if value is _MISSING:
            raise KeyError(key)
        return value

    def __contains__(self, key: object) -> bool:
        return key in self._own or key in self._fixed or key in self._public()

    def whole(self) -> dict[str, Any]:
        """The view as the plain dict ``view(state, seat)`` gives (every part built)."""
        out = dict(self._public())
        for key in self._own:
            out[key] = self[key]
        out.update(self._fixed)
        return out

    def __iter__(self) -> Iterator[str]:
        return iter(self.whole())

    def __len__(self) -> int:
        return len(self.whole())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyView):
            other = other.whole()
        if not isinstance(other, Mapping):
            return NotImplemented
        return self.whole() == dict(other)

    __hash__ = None  # type: ignore[assignment]  # a view is a dict

    def __repr__(self) -> str:
        return repr(self.whole())
