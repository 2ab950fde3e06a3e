"""A view handed out is the position at that moment: later play does not change it (a replay, a client and a bot
keep each step's view)."""

from __future__ import annotations

import copy

import mindtable


def test_a_view_does_not_change_when_the_next_number_die_is_rolled() -> None:
    match = mindtable.new_match("carrera-de-mente", players=2, seed=4, options={"board": "small"})
    views = []
    for _ in range(60):
        if match.is_over:
            break
        seat = match.to_act()[0]
        views.append((copy.deepcopy(match.view(seat)), match.view(seat)))
        legal = match.legal_actions(seat)
        action = next((a for a in legal if a["type"] in ("roll_number", "roll")), legal[0])
        if action["type"] == "ask_answer" or "inputs" in action:
            action = {"type": "ask_pass", "seat": seat} if any(a["type"] == "ask_pass" for a in legal) else action
        match.apply({k: v for k, v in action.items() if k != "inputs"})
    assert any(v[0].get("context") and v[0]["context"].get("digits") for v in views), "no number die was rolled"
    assert [kept for kept, _ in views] == [given for _, given in views]
