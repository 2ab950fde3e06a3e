"""NeuroRace — race to pick tiles that satisfy the 7 conditions of your task card.

=====================  ============================================================================
Game id                ``neurorace``
Players                1 (SOLO) or 2-6 (BASIC, UNIVERSAL)
Real time              yes: every action carries ``"at"``, ms since the match began
Components             60 double-sided tiles (``tiles.txt``), 90 double-sided task cards in 10 levels
                       (``deck.txt``, 180 tasks), both shipped in this package
Bots                   ``solver`` (plans with the solver; ``actions_per_second``, ``mistakes_per_task``,
                       ``start_delay_ms``, ``jitter``) and the core's ``random``
Terminal / CLI         ``mindtable play neurorace``; ``mindtable neurorace deck verify|curve|generate``,
                       ``tiles verify``, ``task parse``
=====================  ============================================================================

The components
--------------
A tile side shows a symbol (sun, moon, lightning) in a colour (red, yellow, green, blue, purple) and a
number 00-99; the two sides of a tile show the same symbol in different colours, their numbers 50 apart.
9 bonus tiles have a special side: one symbol in all colours, all symbols in one colour, or everything.

A task is 7 places written left to right (see :mod:`mindtable.games.neurorace.tasks`): ``sun`` (a white
symbol: any colour), ``[red]`` (a coloured square: any symbol of that colour), ``red-sun`` (exactly that),
``3_`` / ``_7`` (a number whose first / last digit is shown), with ``<`` / ``>`` between neighbours
comparing their numbers.

Modes (option ``mode``)
-----------------------
``basic``
    Everyone starts at level 1. Each seat marks ``ready``; when every seat is ready a countdown
    (``countdown_seconds``, 3) runs and its end starts the round for everyone at the same ``at``.
    Whoever has laid all 7 tiles says stop; the card is checked: correct -> the next level (the card
    goes back to the box), wrong -> a new card of the same level. All tiles go back to the centre,
    shuffled. The first to complete the last level (``last_level``, 10; less for children) wins.
``universal``
    As basic, but players start at ``start_levels``; the round's winner keeps the card as a point (seats
    in ``stay_at_level`` stay at their level); the game ends at the last level or when everyone says
    ``end`` between rounds; most cards wins, a tie goes to the younger player (``ages``).
``solo``
    One player, ``solo_seconds`` (20) per task, delivered as a :class:`~mindtable.core.events.Deadline`
    (``time_up``). In time -> next level; otherwise a new card of the same level. All levels without a
    single loss: result ``"master"`` (Master of NeuroRace).

Actions (``{"type": ..., "seat": s, "at": ms, ...}``)
------------------------------------------------------
=================================  =================================================================
``ready``                          I am ready (phase ``ready``); when every seat is, phase ``countdown``
``go`` (no seat)                   the countdown ends: the round starts, from ``next_deadline``
``start``                          say START: only in matches set up under rules revision 2 or older
``take`` ``spot``                  take the tile at a centre spot (one hand: only with an empty hand)
``turn`` (``spot``)                turn over the tile in hand, or (empty hand) the tile at a spot
``place`` (``slot``)               lay the tile in hand on the leftmost empty place
``return``                         put the tile in hand back on its spot, as it lies
``take_back``                      pick up the rightmost tile of your card
``stop``                           "stop game": all 7 places filled; the card is checked at once
``end``                            agree to end the game (UNIVERSAL and SOLO, between rounds)
``time_up`` (no seat)              the SOLO timer, from :meth:`NeuroRace.next_deadline`
=================================  =================================================================

A contested tile goes to the earlier ``at``; the later ``take`` is refused with code ``tile_taken`` and a
message naming who took it and when. Other codes: ``hand_full``, ``hand_empty``, ``too_early`` (a place to
the left is empty), ``slot_taken``, ``card_full``, ``not_finished``, ``not_started``, ``round_running``,
``time_up``, ``bad_spot``, ``bad_slot``, ``not_in_mode``, ``already_voted``, ``unknown_action``.

Views
-----
Everyone sees the up side of every centre tile (by spot), every card's task once START was said, the up
side of every laid or held tile, levels, points and the last check. Hidden: the down side of every tile
(except the holder sees both sides of the tile in their hand), which tile lies at which spot, the tasks
before START (cards lie face down), and the order of the cards in the box.

Result
------
``winners``; ``scores`` = levels completed (BASIC, SOLO) or cards kept (UNIVERSAL); ``reason`` one of
``completed``, ``master``, ``ended``, ``round_limit``, ``no_cards``; ``details["progress"]`` = rounds.

>>> import mindtable
>>> match = mindtable.new_match("neurorace", players=2, seed=1)
>>> match.view(0)["players"][0]["task"] is None          # face down until START
True
>>> _ = match.apply({"type": "ready", "seat": 0, "at": 0})
>>> [e.type for e in match.apply({"type": "ready", "seat": 1, "at": 200})]
['ready', 'countdown']
>>> match.next_deadline()
Deadline(at=3200, action={'type': 'go', 'seat': None})
>>> _ = match.apply(match.next_deadline().due_action())
>>> _ = match.apply({"type": "take", "seat": 1, "spot": 4, "at": 3900})
>>> match.apply({"type": "take", "seat": 0, "spot": 4, "at": 3950})
Traceback (most recent call last):
...
mindtable.core.errors.IllegalAction: the tile at spot 4 was taken by seat 1 at 3900 ms
"""

from mindtable.games.neurorace.rules import NeuroRace

GAME = NeuroRace()

__all__ = ["GAME", "NeuroRace"]
