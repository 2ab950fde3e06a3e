"""The match's seeded random generator: the project's own algorithm, the same on every machine for ever.

Its whole state is a few integers, so it serialises into a snapshot as-is. Each draw (a shuffle, a roll, a
deal) takes a fresh *stream* derived from ``(seed, draws)``, so a game that changes how it shuffles one pile
does not change every later shuffle.

Algorithm 2 (the default): a stream is SplitMix64 (Steele, Lea and Flood, 2014) started at
``mix(seed) ^ mix(draws + golden)``; whole numbers below ``n`` come from Lemire's multiply-and-reject method on
64-bit outputs, so they are exactly uniform. Shuffles are Fisher-Yates from the last position down; a deal of
``k`` items is the first ``k`` steps of that shuffle. Everything is plain integer arithmetic on Python ints,
so results do not depend on the Python version or the platform. A test pins the first outputs.

Algorithm 1 (records of format 1) drew from :class:`random.Random` seeded with a string; it stays available
so that those records replay as they were played.

>>> a, b = Rng(7), Rng(7)
>>> deck_a, deck_b = list(range(10)), list(range(10))
>>> a.shuffle(deck_a); b.shuffle(deck_b)
>>> deck_a == deck_b
True
>>> Rng(7).stream().next64()
3370826928119983353
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
#: The algorithm new matches use; records store it, so a later change never alters an old record's draws.
ALGORITHM = 2
ALGORITHMS = (1, 2)


def mix64(z: int) -> int:
    """SplitMix64's finaliser: a bijection on 64-bit integers that scatters nearby inputs."""
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & MASK
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB & MASK
    return z ^ (z >> 31)


class Stream:
    """One draw's generator (SplitMix64). Offers the few methods games need, like :class:`random.Random`."""

    __slots__ = ("_state",)

    def __init__(self, seed: int, draws: int) -> None:
        z = seed & MASK
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & MASK
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB & MASK
        y = (draws + GOLDEN) & MASK
        y = (y ^ (y >> 30)) * 0xBF58476D1CE4E5B9 & MASK
        y = (y ^ (y >> 27)) * 0x94D049BB133111EB & MASK
        self._state = (z ^ (z >> 31)) ^ (y ^ (y >> 31))

    def next64(self) -> int:
        self._state = state = (self._state + GOLDEN) & MASK
        z = (state ^ (state >> 30)) * 0xBF58476D1CE4E5B9 & MASK
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A whole number from 0 to ``n - 1``, exactly uniform (Lemire 2019)."""
        if n <= 0:
            raise ValueError(f"below() needs n >= 1, got {n}")
        if n > MASK:
            raise ValueError("below() handles n up to 2**64 - 1")
        m = self.next64() * n
        low = m & MASK
        if low < n:
            threshold = ((1 << 64) - n) % n
            while low < threshold:
                m = self.next64() * n
                low = m & MASK
        return m >> 64

    # the random.Random-like surface games use
    def randrange(self, start: int, stop: int | None = None) -> int:
        if stop is None:
            start, stop = 0, start
        return start + self.below(stop - start)

    def randint(self, low: int, high: int) -> int:
        return low + self.below(high - low + 1)

    def random(self) -> float:
        return (self.next64() >> 11) / float(1 << 53)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[Any]) -> None:
        # below(i + 1) for i from the last position down, with the generator inlined (the same numbers).
        state = self._state
        for i in range(len(items) - 1, 0, -1):
            bound = i + 1
            state = (state + GOLDEN) & MASK
            z = (state ^ (state >> 30)) * 0xBF58476D1CE4E5B9 & MASK
            z = (z ^ (z >> 27)) * 0x94D049BB133111EB & MASK
            m = (z ^ (z >> 31)) * bound
            if m & MASK < bound:  # rarely: Lemire's rejection step, done by below()'s own loop
                self._state = state
                m = self._reject(m, bound)
                state = self._state
            j = m >> 64
            items[i], items[j] = items[j], items[i]
        self._state = state

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """``k`` distinct items in random order: the first ``k`` steps of a Fisher-Yates shuffle."""
        if type(items) not in (list, tuple, range):
            items = list(items)
        n = len(items)
        if not 0 <= k <= n:
            raise ValueError(f"sample() of {k} from {n} items")
        # i + below(n - i) for each i, with the generator inlined (the same numbers).
        state = self._state
        if k * 4 <= n:
            # A few items from many (a deal): the same swaps, kept in a dict of moved positions, not a copy.
            moved: dict[int, int] = {}
            taken: list[T] = []
            for i in range(k):
                bound = n - i
                state = (state + GOLDEN) & MASK
                z = (state ^ (state >> 30)) * 0xBF58476D1CE4E5B9 & MASK
                z = (z ^ (z >> 27)) * 0x94D049BB133111EB & MASK
                m = (z ^ (z >> 31)) * bound
                if m & MASK < bound:
                    self._state = state
                    m = self._reject(m, bound)
                    state = self._state
                j = i + (m >> 64)
                here = moved.get(i, i)
                taken.append(items[moved.get(j, j)])
                moved[j] = here
            self._state = state
            return taken
        pool = list(items)
        for i in range(k):
            bound = n - i
            state = (state + GOLDEN) & MASK
            z = (state ^ (state >> 30)) * 0xBF58476D1CE4E5B9 & MASK
            z = (z ^ (z >> 27)) * 0x94D049BB133111EB & MASK
            m = (z ^ (z >> 31)) * bound
            if m & MASK < bound:
                self._state = state
                m = self._reject(m, bound)
                state = self._state
            j = i + (m >> 64)
            pool[i], pool[j] = pool[j], pool[i]
        self._state = state
        return pool[:k]

    def _reject(self, m: int, n: int) -> int:
        """The rest of :meth:`below` after a first product ``m`` whose low half fell below ``n``."""
        threshold = ((1 << 64) - n) % n
        while m & MASK < threshold:
            m = self.next64() * n
        return m


#: ``mix64(draws + GOLDEN)`` for the first draws of a match: half of every stream's start, computed once.
_MIXED_DRAWS = tuple(mix64((draws + GOLDEN) & MASK) for draws in range(512))


class Rng:
    """Deterministic randomness for one match: ``seed``, how many draws were made, and the algorithm."""

    __slots__ = ("_mixed", "algorithm", "draws", "seed")

    def __init__(self, seed: int, draws: int = 0, algorithm: int = ALGORITHM) -> None:
        self.seed = seed
        self.draws = draws
        self.algorithm = algorithm
        #: (seed, mix64(seed)): the seed's half of every stream's start, kept once computed.
        self._mixed: tuple[int, int] | None = None

    def _stream2(self) -> Stream:
        """The next draw's stream of algorithm 2: ``Stream(seed, draws)`` with its two halves looked up."""
        draws = self.draws
        self.draws = draws + 1
        seed = self.seed
        mixed = self._mixed
        if mixed is None or mixed[0] != seed:
            mixed = self._mixed = (seed, mix64(seed & MASK))
        stream: Stream = Stream.__new__(Stream)
        stream._state = mixed[1] ^ (_MIXED_DRAWS[draws] if 0 <= draws < 512 else mix64((draws + GOLDEN) & MASK))
        return stream

    def __repr__(self) -> str:
        return f"Rng(seed={self.seed}, draws={self.draws}, algorithm={self.algorithm})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and self.to_dict() == other.to_dict()

    def stream(self) -> Any:
        """A generator for one step of the game (a shuffle, a roll); each call gives a new one."""
        draws = self.draws
        self.draws = draws + 1
        if self.algorithm == 1:
            return random.Random(f"mindtable/{self.seed}/{draws}")
        self.draws = draws
        return self._stream2()

    def shuffle(self, items: MutableSequence[T]) -> None:
        self.stream().shuffle(items)

    def randint(self, low: int, high: int) -> int:
        if self.algorithm == 1:
            return int(self.stream().randint(low, high))
        return low + self._stream2().below(high - low + 1)  # what stream().randint gives, one call less

    def roll(self, sides: int = 6) -> int:
        """One die roll, 1 to ``sides``."""
        return self.randint(1, sides)

    def deal(self, items: Sequence[T], count: int) -> list[T]:
        """``count`` items drawn at random from ``items``, in the order drawn (one draw of the generator).

        Algorithm 1 shuffled the whole sequence and took the first ``count``; algorithm 2 only draws what it
        deals.
        """
        if self.algorithm == 1:
            pool = list(items)
            self.stream().shuffle(pool)
            return pool[:count]
        result: list[T] = self._stream2().sample(items, count)
        return result

    def to_dict(self) -> dict[str, int]:
        data = {"seed": self.seed, "draws": self.draws}
        if self.algorithm != 1:
            data["algorithm"] = self.algorithm
        return data

    @classmethod
    def from_dict(cls, data: Any, default_algorithm: int = 1) -> Rng:
        """Load :meth:`to_dict` output; a dict without ``algorithm`` is from format 1 (algorithm 1)."""
        try:
            algorithm = int(data.get("algorithm", default_algorithm))
            if algorithm not in ALGORITHMS:
                raise ValueError(f"unknown algorithm {algorithm}")
            return cls(int(data["seed"]), int(data["draws"]), algorithm)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(
                f"rng must be {{'seed': int, 'draws': int, 'algorithm': 1 or 2}}, got {data!r} ({exc})"
            ) from exc
