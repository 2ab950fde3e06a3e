"""Carrera de Mente — a race round a track of coloured squares, answering questions from six booklets.

Game id ``carrera-de-mente``; 2 to 6 players or teams. Be the first to collect the six prize tokens, one of
each colour. The rules: ``rules.py`` and ``docs/rules/carrera-de-mente.md``; the board and booklets it reads
at the start: ``content.py``; bots: ``bots.py``.

>>> import mindtable
>>> match = mindtable.new_match("carrera-de-mente", players=3, seed=4)
>>> seat = match.to_act()[0]
>>> [a["type"] for a in match.legal_actions(seat)]
['roll']
"""

from mindtable.games.carrera_de_mente.rules import CODES, GAME, CarreraDeMente, lap_choices, pick_question

__all__ = ["CODES", "GAME", "CarreraDeMente", "lap_choices", "pick_question"]
