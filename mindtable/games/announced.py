"""Games registered ahead of their rules engines, listed in lobbies and help as coming."""

from mindtable.core.registry import Announced

CARRERA_DE_MENTE = Announced("carrera-de-mente", "Carrera de Mente", 2, 6, order=30)
EESTI_MALUMANG = Announced("eesti-malumang", "Eesti mälumäng", 2, 6, order=50)
