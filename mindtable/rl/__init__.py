"""Reinforcement-learning environments for the five games (the optional ``[rl]`` extra).

* PettingZoo AEC: :mod:`mindtable.rl.carrera_de_mente`, :mod:`mindtable.rl.caida_libre`,
  :mod:`mindtable.rl.eesti_malumang` (turn-based quiz games; shared rules in :mod:`mindtable.rl._quiz`).
* PettingZoo Parallel: :mod:`mindtable.rl.the_mind`, :mod:`mindtable.rl.neurorace`; Gymnasium:
  :mod:`mindtable.rl.neurorace` ``SoloEnv`` (registered as ``mindtable/NeuroRaceSolo-v0``).
* OpenSpiel: :mod:`mindtable.rl.openspiel` registers the turn-based games as Python games.

Each module's docstring is its environment page (also in ``docs/rl/``). Install with ``pip install -e '.[rl]'``.
"""
