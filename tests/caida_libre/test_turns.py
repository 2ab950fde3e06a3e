"""Setup and the order of play: who draws, who answers, who sees the answer, who decides."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import mindtable
from mindtable.core.codes import seat_params
from mindtable.core.errors import IllegalAction, InvalidOptions
from tests.caida_libre.conftest import act, answer, current, play_card, position, right


@pytest.mark.parametrize("players", [2, 5, 8])
def test_every_pawn_starts_on_prodigious_mind(players: int) -> None:
    match = mindtable.new_match("caida-libre", players=players, seed=3)
    view = match.view(0)
    assert view["iq"] == [150] * players and view["top"] == 150
    top = view["scale"]["squares"][0]
    assert top["iq"] == 150 and "Prodigious Mind" in top["label"]


@pytest.mark.parametrize("players", [1, 9])
def test_two_to_eight_players_or_teams(players: int) -> None:
    with pytest.raises(InvalidOptions):
        mindtable.new_match("caida-libre", players=players, seed=3)


def test_the_room_chooses_who_starts() -> None:
    match = mindtable.new_match("caida-libre", players=4, seed=3, options={"starter": 2})
    assert match.to_act() == [2] and match.view(0)["starter"] == {"seat": 2, "by": "room"}
    assert match.view(0)["answerer"] == 3


def test_a_random_starter_by_default() -> None:
    starters = {mindtable.new_match("caida-libre", players=4, seed=s).view(0)["starter"]["seat"] for s in range(30)}
    assert starters == {0, 1, 2, 3}
    assert mindtable.new_match("caida-libre", players=4, seed=1).view(0)["starter"]["by"] == "random"


def test_a_starter_outside_the_table_is_refused() -> None:
    with pytest.raises(InvalidOptions, match="starter"):
        mindtable.new_match("caida-libre", players=3, seed=3, options={"starter": 5})


def test_the_room_chooses_the_pack_and_the_language() -> None:
    match = mindtable.new_match("caida-libre", players=3, seed=3, options={"pack": "3", "language": "es"})
    cards = match.state["cards"].values()
    assert {c["pack"] for c in cards} == {"3"}
    assert {c["type"] for c in cards} == {"double", "roulette", "quote5", "more_or_less", "fake_news", "shootout"}
    assert {c.get("language") for c in cards} == {"es"}
    everything = mindtable.new_match("caida-libre", players=3, seed=3, options={"pack": "all", "language": "en"})
    packs = Counter(c["pack"] for c in everything.state["cards"].values())
    assert set(packs) == {"1", "2", "3", "4", "5"} and len(set(packs.values())) == 1, "five packs of the same size"
    assert sorted(match.state["cards"]) == sorted(i for i, c in everything.state["cards"].items() if c["pack"] == "3")


def test_the_starter_draws_and_asks_the_player_on_their_left() -> None:
    match = position(4, asker=3, card="roulette-001")
    assert match.to_act() == [3]
    with pytest.raises(IllegalAction) as refused:
        act(match, "draw", 1)
    assert refused.value.code == "cl_not_asker" and refused.value.params == {"asker": 3}
    events = act(match, "draw", 3)
    drawn = next(e for e in events if e["type"] == "card_drawn")
    assert drawn["asker"] == 3 and drawn["answerer"] == 0
    assert match.to_act() == [0]


def test_the_answerer_then_draws_and_asks_the_next_player_to_the_left() -> None:
    match = position(4, asker=3, card="roulette-001")
    play_card(match, [True])
    assert match.to_act() == [0] and match.view(0)["asker"] == 0 and match.view(0)["answerer"] == 1
    play_card(match, [False] * 5)  # whatever card comes next, answered wrong
    assert match.view(0)["asker"] == 1 and match.view(0)["answerer"] == 2


def test_the_asker_sees_the_answer_the_answering_side_does_not_until_judged() -> None:
    match = position(3, card="roulette-002")
    match_events = match.apply({"type": "draw", "seat": 0, "at": 2000})
    events = [e.to_dict() for e in match_events]
    q = current(match)
    card_for_reader = match.view(0)["ask"]["card"]
    assert card_for_reader["questions"][0]["correct"] == q["correct"]
    for seat in (1, 2, None):
        assert "card" not in (match.view(seat)["ask"] or {})
        assert "correct" not in json.dumps(match.view(seat)["ask"])
    assert any(e["type"] == "ask_card" for e in events), "the asker's card goes to the asker"
    for seat in (1, 2, None):
        seen = mindtable.events_for(match_events, seat)
        assert "correct" not in json.dumps(seen) and not any(e["type"] == "ask_card" for e in seen)
    decided = answer(match, True)
    revealed = next(e for e in decided if e["type"] == "ask_decided")
    assert revealed["answer"], "once judged, the answer is shown to everyone"


def test_the_answer_never_reaches_the_answering_side_in_events() -> None:
    match = position(3, card="double-002")
    events = match.apply({"type": "draw", "seat": 0, "at": 2000})
    events += match.apply({"type": "ask_choose", "seat": 1, "question": 1, "at": 2100})
    answer_text = match.state["cards"]["double-002"]["questions"][1]["answer"]  # the chosen question's answer
    assert answer_text.isupper()  # printed in capitals: never a word of the prompt or a heading
    for seat in (1, 2, None):
        seen = json.dumps(mindtable.events_for(events, seat)) + json.dumps(match.view(seat))
        assert answer_text not in seen
    assert answer_text in json.dumps(mindtable.events_for(events, 0))


def test_the_asker_can_overrule_the_judge_both_ways() -> None:
    match = position(iq=[150, 150, 150], card="roulette-001")
    act(match, "draw", 0)
    act(match, "ask_answer", 1, text="the Romans")
    assert match.view(0)["ask"]["suggestion"]["correct"] is False
    act(match, "ask_overrule", 0)
    assert match.state["iq"][1] == 150 and match.state["last"]["results"][0]["overruled"] is True
    match = position(iq=[150, 150, 150], card="double-003")
    act(match, "draw", 0)
    act(match, "ask_choose", 1, question=1)
    act(match, "ask_answer", 1, text=right(current(match)))
    act(match, "ask_overrule", 0)
    assert match.state["iq"][1] == 120


def test_only_the_asker_judges_and_only_the_answerer_answers() -> None:
    match = position(card="roulette-001")
    act(match, "draw", 0)
    with pytest.raises(IllegalAction) as refused:
        act(match, "ask_answer", 2, text="a")
    assert refused.value.code == "ask_not_answerer" and refused.value.params == {"answerers": [1]}
    # the answerers are seats (a page names them), and the English message lists them plainly
    assert seat_params("ask_not_answerer", refused.value.params, match.game.seat_params) == ["answerers"]
    assert refused.value.message == "only the answering side (1) may do that now"
    act(match, "ask_answer", 1, text="a")
    with pytest.raises(IllegalAction) as refused:
        act(match, "ask_confirm", 1)
    assert refused.value.code == "ask_not_reader"


def test_drawing_twice_is_refused_while_a_card_is_asked() -> None:
    match = position(card="roulette-001")
    act(match, "draw", 0)
    with pytest.raises(IllegalAction) as refused:
        act(match, "draw", 0)
    assert refused.value.code == "cl_card_in_play"


def test_an_empty_draw_pile_is_refilled_from_the_discards() -> None:
    match = position(2, card="roulette-001")
    match.state["deck"]["discard"] = match.state["deck"]["draw"][1:]
    match.state["deck"]["draw"] = match.state["deck"]["draw"][:1]
    play_card(match, [True])
    events = act(match, "draw", 1)
    assert any(e["type"] == "deck_reshuffled" for e in events)
