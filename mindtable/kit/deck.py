"""Decks as plain JSON in a game's state: draw, discard, reshuffle, and peek for the player who may look.

A deck is ``{"draw": [...], "discard": [], "reshuffles": 0}``; its items are any JSON values (card ids are
best: the cards themselves stay in the state once, or in the set the state pins). The top of the draw pile is
the *first* item. Everything random goes through the match's :class:`~mindtable.core.rng.Rng`.

>>> from mindtable.core.rng import Rng
>>> deck = new_deck(["a", "b", "c"], Rng(1), shuffle=False)
>>> draw(deck, Rng(1)), peek(deck, 2), deck_view(deck)
('a', ['b', 'c'], {'draw': 2, 'discard': 0, 'reshuffles': 0})
>>> discard(deck, "a"); draw(deck, Rng(1)); draw(deck, Rng(1))
'b'
'c'
>>> draw(deck, Rng(1))   # the draw pile is empty: the discards are shuffled into a new one
'a'
>>> deck["reshuffles"]
1
>>> draw(deck, Rng(1), reshuffle_empty=False) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mindtable.core.rng import Rng

Deck = dict[str, Any]


def new_deck(items: Iterable[Any], rng: Rng, *, shuffle: bool = True) -> Deck:
    """A deck of ``items`` (shuffled with the match's generator unless ``shuffle`` is false)."""
    pile = list(items)
    if shuffle:
        rng.shuffle(pile)
    return {"draw": pile, "discard": [], "reshuffles": 0}


def reshuffle(deck: Deck, rng: Rng) -> None:
    """Shuffle the discard pile under (after) what is left of the draw pile."""
    pile = list(deck["discard"])
    rng.shuffle(pile)
    deck["draw"].extend(pile)
    deck["discard"] = []
    deck["reshuffles"] += 1


def draw(deck: Deck, rng: Rng, *, reshuffle_empty: bool = True) -> Any:
    """The top item, removed from the draw pile; ``None`` when both piles are empty (or the draw pile is and
    ``reshuffle_empty`` is off)."""
    if not deck["draw"] and reshuffle_empty and deck["discard"]:
        reshuffle(deck, rng)
    if not deck["draw"]:
        return None
    return deck["draw"].pop(0)


def draw_many(deck: Deck, rng: Rng, count: int) -> list[Any]:
    """Up to ``count`` items (fewer when the deck runs out)."""
    out = []
    for _ in range(count):
        item = draw(deck, rng)
        if item is None:
            break
        out.append(item)
    return out


def discard(deck: Deck, item: Any) -> None:
    """Put ``item`` on the discard pile."""
    deck["discard"].append(item)


def put_back(deck: Deck, item: Any, *, bottom: bool = True) -> None:
    """Return ``item`` to the draw pile (at the bottom by default)."""
    if bottom:
        deck["draw"].append(item)
    else:
        deck["draw"].insert(0, item)


def peek(deck: Deck, count: int = 1) -> list[Any]:
    """The top ``count`` items without drawing them: only for a view that may see them (the reader's)."""
    return list(deck["draw"][:count])


def deck_view(deck: Deck) -> dict[str, int]:
    """What every seat may see of a deck: how many cards each pile holds."""
    return {"draw": len(deck["draw"]), "discard": len(deck["discard"]), "reshuffles": deck["reshuffles"]}
