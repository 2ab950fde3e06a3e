"""Eesti mälumäng — a quiz board game about Estonia for 2 to 6 players or teams.

Game id ``eesti-malumang``. Collect the six Estonia cards (History, Culture, Natural science, Geography,
Sport, Varia) by answering questions read by the player on your left, then reach the finish square in the
middle of the board by the finish path and answer a last question of a category chosen by that player.
Rules engine: :mod:`mindtable.games.eesti_malumang.rules`; the board: ``board.yaml``; the question cards:
``content/{et,en}/``; every rule with its sentence of the book: ``docs/rules/eesti-malumang.md``.
"""

from mindtable.games.eesti_malumang.rules import GAME, EestiMalumang

__all__ = ["GAME", "EestiMalumang"]
