"""mindtable: rules engines, bots, simulation and online play for five mind games.

>>> import mindtable
>>> match = mindtable.new_match("the-mind", players=3, seed=42)
>>> match.view(0)["level"]
1
"""

from mindtable.core import *  # noqa: F403 -- the public API is the core's
from mindtable.core import __all__ as _core_all

__version__ = "0.1.0"

__all__ = list(_core_all)
