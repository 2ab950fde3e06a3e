"""Carrera de Mente tests (the game is registered through its entry point)."""
