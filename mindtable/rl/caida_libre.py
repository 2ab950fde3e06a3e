"""Caída Libre as a PettingZoo AEC environment (``caida_libre_v0``).

```python
from mindtable.rl import caida_libre
env = caida_libre.env(players=3, options={"language": "en", "pack": "1"}, knows=0.6)
```

| | |
|---|---|
| import | `from mindtable.rl import caida_libre` |
| agents | `player_<seat>` for each seat not in `bots` (2–8 seats) |
| actions | `Discrete(10 + players)` (table below) |
| observations | `Dict(observation=Box(0, 1, (33 + 2 × players,), float32), action_mask=Box(0, 1, (n,), int8))` |
| rewards | at the end (someone in free fall): +1 each seat with the highest IQ (ties all win), -1 the others |
| | (`reward="score"`: the change of the seat's IQ / 10 as it happens: -4 for a 40-point penalty) |
| termination | the match ends: every agent terminates; `max_cycles` (default 10000 agent steps) truncates |

**Actions** (`env.unwrapped.choices`): 0 `know` (answer from the seat's knowledge model: the game's knowing bot,
``knows`` its chance to remember a card it has read; a list card names each item it remembers), 1 `pass`,
2 `options` (never offered in Caída Libre: always masked), 3–6 `pick_a`…`pick_d` (a more-or-less or roulette
card's option, once read out — where the game reads options), then `target:<seat>` for each seat (the Sniper's
victim, the Hook's partner), `draw` (the asker draws a card), `ask_choose:0` and `ask_choose:1` (a double
question: take the first or the second topic). The reader confirming the judge and the answer clock are
handled by the environment (an agent answers at once, so the clock never runs out).

**Observation** (`env.unwrapped.feature_names`): the ask step (answering now, choosing, options, the question's
kind one-hot, a list's count); the phase one-hot (weapon, draw, ask, over); the card's type one-hot (double,
roulette, quote5, more_or_less, fake_news, shootout) and its wrong answers so far (/2); the double question's two
penalties (/100); the weapon being used, one-hot, and whether this seat holds it; whether this seat asks,
answers; then per seat, this seat first: its IQ (/the top of the scale) and whether it has fallen.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from mindtable.games.caida_libre.rules import CARD_TYPES, QUIZ, answerer_of, asker_of
from mindtable.games.caida_libre.scale import WEAPONS

from ._quiz import QuizEnv, one_hot, wrap

__all__ = ["CaidaEnv", "env", "raw_env"]

PHASES = ("weapon", "draw", "ask", "over")


class CaidaEnv(QuizEnv):
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "caida_libre_v0",
        "is_parallelizable": False,
    }
    game_id = "caida-libre"
    quiz_step = QUIZ

    def __init__(self, players: int = 3, **kwargs: Any) -> None:
        self.feature_names = (
            *(f"phase={p}" for p in PHASES),
            *(f"card={t}" for t in CARD_TYPES),
            "card.wrong/2",
            "double.penalty0/100",
            "double.penalty1/100",
            *(f"weapon={w}" for w in WEAPONS),
            "weapon.mine",
            "i_ask",
            "i_answer",
            *(name for rel in range(players) for name in (f"seat+{rel}.iq", f"seat+{rel}.fallen")),
        )
        super().__init__(players=players, **kwargs)

    def domain(self, move_type: str, param: str) -> list[Any]:
        if move_type == "target":
            return list(range(self.players))
        return [0, 1] if move_type == "ask_choose" else []

    def score(self, view: Mapping[str, Any], seat: int) -> float:
        return float(view["iq"][seat]) / 10

    def features(self, view: Mapping[str, Any], seat: int) -> list[float]:
        iq = view["iq"]
        players = len(iq)
        card = view.get("card") or {}
        weapon = view.get("weapon") or {}
        kind = card.get("type")
        if kind == "double":
            ask = view.get("ask") or {}
            headings = (ask.get("headings") or {}).get("headings") or []
            penalties = [int(h.get("penalty", 0)) / 100 for h in headings[:2]] + [0.0] * (2 - len(headings[:2]))
        else:
            penalties = [0.0, 0.0]
        out = one_hot(view["phase"], PHASES)
        out += one_hot(kind, CARD_TYPES)
        out.append(min(card.get("wrong", 0), 2) / 2)
        out += penalties
        out += one_hot(weapon.get("kind"), WEAPONS)
        out += (
            1.0 if weapon.get("seat") == seat else 0.0,
            1.0 if view["asker"] == seat else 0.0,
            1.0 if view["answerer"] == seat else 0.0,
        )
        top = max(view["top"], 1)
        fallen = view["fallen"]
        for rel in range(players):
            s = (seat + rel) % players
            out += (iq[s] / top, 1.0 if s in fallen else 0.0)
        return out

    def state_features(self, state: dict[str, Any], seat: int, ask: Mapping[str, Any] | None) -> list[float]:
        iq = state["iq"]
        players = len(iq)
        card = state["card"] or {}
        weapon = state["weapon"] or {}
        kind = card.get("type")
        if kind == "double":
            # the headings every seat sees (each question's penalty), as the view's ask step shows them
            shown = ask["card"]["questions"][:2] if ask else []
            penalties = [int(q.get("extra", {}).get("penalty", 0)) / 100 for q in shown] + [0.0] * (2 - len(shown))
        else:
            penalties = [0.0, 0.0]
        out = one_hot(state["phase"], PHASES)
        out += one_hot(kind, CARD_TYPES)
        out.append(min(card.get("wrong", 0), 2) / 2)
        out += penalties
        out += one_hot(weapon.get("kind"), WEAPONS)
        out += (
            1.0 if weapon.get("seat") == seat else 0.0,
            1.0 if asker_of(state) == seat else 0.0,
            1.0 if answerer_of(state) == seat else 0.0,
        )
        top = max(state["scale"]["top"], 1)
        fallen = state["fallen"]
        for rel in range(players):
            s = (seat + rel) % players
            out += (iq[s] / top, 1.0 if s in fallen else 0.0)
        return out


def raw_env(**kwargs: Any) -> CaidaEnv:
    """The environment without wrappers (see the module docstring for the parameters)."""
    return CaidaEnv(**kwargs)


def env(**kwargs: Any) -> Any:
    """The environment with PettingZoo's order-enforcing wrapper: ``players``, ``options`` (the game's),
    ``knows``, ``bot_params``, ``bots``, ``max_cycles``, ``reward``, ``render_mode``."""
    return wrap(raw_env(**kwargs))
