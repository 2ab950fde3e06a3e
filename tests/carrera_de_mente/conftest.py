"""Carrera de Mente tests: the game registered (until its entry point replaces the announced one)."""

from __future__ import annotations

import mindtable
from mindtable.games.carrera_de_mente import GAME

mindtable.register_game(GAME)
