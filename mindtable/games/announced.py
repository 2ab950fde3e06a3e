"""Games registered ahead of their rules engines, listed in lobbies and help as coming."""

from mindtable.core.registry import Announced

CAIDA_LIBRE = Announced("caida-libre", "Caída Libre", 2, 8, order=40)
