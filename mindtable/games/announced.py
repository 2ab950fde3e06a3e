"""Games registered ahead of their rules engines, listed in lobbies and help as coming."""

from mindtable.core.registry import Announced

CARRERA_DE_MENTE = Announced("carrera-de-mente", "Carrera de Mente", 2, 6, order=30)
CAIDA_LIBRE = Announced("caida-libre", "Caída Libre", 2, 8, order=40)
