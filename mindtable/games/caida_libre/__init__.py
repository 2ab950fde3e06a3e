"""Caída Libre — fall down the IQ scale as you miss questions; the last one standing highest wins.

Game id ``caida-libre``; 2 to 8 players or teams (a seat may be a team). The rules are in
:mod:`mindtable.games.caida_libre.rules` and ``docs/rules/caida-libre.md``; the IQ scale is the board file
``board.yaml`` (:mod:`mindtable.games.caida_libre.scale`); the cards (six types, five packs, Spanish and
English) are under ``content/``.

Actions: ``target`` (the answerer on a Sniper or Hook square chooses the victim or partner), ``draw`` (the
asker draws a card), and the ask step's ``ask_*`` moves (choose a double question's topic, type and give the
answer, pass; the asker confirms or overrules the judge).

>>> import mindtable
>>> match = mindtable.new_match("caida-libre", players=3, seed=1, options={"starter": 0})
>>> match.view(0)["iq"], match.to_act()
([150, 150, 150], [0])
>>> [a["type"] for a in match.legal_actions(0)]
['draw']
"""

from mindtable.games.caida_libre.rules import CODES, GAME, MOVES, CaidaLibre

__all__ = ["CODES", "GAME", "MOVES", "CaidaLibre"]
