"""The Mind — play the cards 1 to 100 in ascending order, together, without a word.

Game id ``the-mind``; 2 to 4 players; cooperative; real time (every action carries ``"at"``, its time in
ms since the match began).

Setup, as printed: 2 players have 2 lives, 3 have 3, 4 have 4; everyone has 1 star; the team must complete
levels 1-12 (2 players), 1-10 (3) or 1-8 (4). Level N deals N cards to each player from a full reshuffle of
the 100 cards.

Actions (``{"type": ..., "seat": s, "at": ms}``):

========================  ====================================================================================
``ready``                 hands on the table: the ready check before each level and after a stop or a star
``play``                  play your lowest card (optionally ``"card": n`` to make sure it is the one you mean)
``propose_star``          raise your hand to use a star; everyone must ``agree`` (anyone may ``reject``)
``agree`` / ``reject``    answer the pending proposal
``stop``                  ('players' detection only) call stop: was a card played while a lower one was held?
``propose_end``           (blind mode, between levels) propose that the team stops its blind run
========================  ====================================================================================

Options: ``detection`` (``"table"``: a card played out of order is noticed at once, the default for online
play; ``"players"``: as printed, someone must call ``stop``), ``lives``, ``stars``, ``last_level``,
``blind_after_win`` and ``start_blind``.

Views: your own hand, how many cards each other player holds, the pile (face down in blind mode), the
set-aside and discarded cards (face up), lives, stars, level, phase, ready flags and any proposal. Nobody
ever sees another player's hand.

Bots: ``proportional`` (waits in proportion to the gap between the highest card played and its lowest card,
with ``tempo_ms``, ``noise`` and ``reaction_ms``), ``random-timing`` (plays its lowest card after a random
wait) and the generic ``random``.

>>> import mindtable
>>> match = mindtable.new_match("the-mind", players=2, seed=1)
>>> for seat in (0, 1):
...     _ = match.apply({"type": "ready", "seat": seat, "at": 0})
>>> match.view(0)["phase"], len(match.view(0)["hand"]), match.view(0)["hand_counts"]
('playing', 1, [1, 1])
"""

from mindtable.games.the_mind.rules import MAX_LIVES, MAX_STARS, REWARDS, SETUP, TheMind, lowest_card

GAME = TheMind()

__all__ = ["GAME", "MAX_LIVES", "MAX_STARS", "REWARDS", "SETUP", "TheMind", "lowest_card"]
