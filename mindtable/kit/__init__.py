"""The tabletop kit: dice, decks, token supplies and boards, as helpers over JSON state, and small shared pieces
that games and surfaces both use (``names``: bot names, terminal keys). Game-free; imports only the core. See
``docs/kit.md``."""

from mindtable.kit.board import Board, BoardError, Landing, Square, load_board, parse_board, reachable, render_text
from mindtable.kit.deck import deck_view, discard, draw, new_deck, peek, reshuffle
from mindtable.kit.dice import number_from_rolls, roll, roll_number
from mindtable.kit.tokens import TokenError, check_conservation, new_supply

__all__ = [
    "Board",
    "BoardError",
    "Landing",
    "Square",
    "TokenError",
    "check_conservation",
    "deck_view",
    "discard",
    "draw",
    "load_board",
    "new_deck",
    "new_supply",
    "number_from_rolls",
    "parse_board",
    "peek",
    "reachable",
    "render_text",
    "reshuffle",
    "roll",
    "roll_number",
]
