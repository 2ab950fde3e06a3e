"""The dealt cards are shared by the matches of a process: playing never changes them."""

from __future__ import annotations

import marshal

import mindtable
from mindtable.core.driver import play_out
from mindtable.games.caida_libre import rules


def test_whole_games_leave_the_shared_cards_as_they_were_read() -> None:
    options = [
        {"language": "en", "pack": "1"},
        {"language": "es", "pack": "1", "quote5_wrong_names": True},
        {"language": "en", "pack": "all", "weapons": False},
    ]
    for seed, opts in enumerate(options):
        for players in (2, 4):
            match = mindtable.new_match("caida-libre", players=players, seed=seed, options=opts)
            bots = {s: match.game.make_bot("knowing", seat=s, seed=seed) for s in range(players)}
            play_out(match, bots)
            assert match.is_over
            # every view a seat got was built from the shared cards too: read them all once more
            for seat in (*range(players), None):
                match.view(seat)
    for opts in options:
        language, pack = opts["language"], opts["pack"]
        assert rules._shared_cards(language, pack) == marshal.loads(rules._dealt(language, pack))


def test_each_match_has_its_own_deck_of_the_same_cards() -> None:
    a = mindtable.new_match("caida-libre", players=2, seed=1, options={"language": "en"})
    b = mindtable.new_match("caida-libre", players=2, seed=2, options={"language": "en"})
    assert a.state["cards"] == b.state["cards"]
    assert a.state["cards"] is not b.state["cards"]
    a.state["cards"].pop(next(iter(a.state["cards"])))  # a match's own dict: the other keeps every card
    assert len(b.state["cards"]) == len(a.state["cards"]) + 1 == 120
