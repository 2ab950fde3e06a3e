"""The table's history of questions (mindtable.trivia.step.QuizStep.history, ``view["quiz_history"]``), on Caída
Libre's cards: each verdict that counts is kept with who answered, the question, the answer given, the card's
answer, the verdict and who decided — for every seat alike; nothing of a question before its verdict, nothing of
a card's questions never asked; the last 50 only; the same in a replay of the record."""

from __future__ import annotations

import json

import mindtable
from mindtable.core.driver import play_out
from mindtable.games.caida_libre.rules import QUIZ
from mindtable.trivia.step import HISTORY_LENGTH
from tests.caida_libre.conftest import act, current, play_card, position, wrong


def test_a_shootout_keeps_each_statement_judged_and_none_never_read() -> None:
    match = position(iq=[150, 150, 150], card="shootout-001")
    statements = match.state["cards"]["shootout-001"]["questions"]
    play_card(match, [True, True, False, True, True])  # the third is wrong: the fourth and fifth are never read
    for seat in (0, 1, 2, None):
        history = match.view(seat)["quiz_history"]
        assert [e["prompt"] for e in history] == [q["prompt"] for q in statements[:3]]
        assert [e["correct"] for e in history] == [True, True, False]
        assert all(e["answerers"] == [1] and e["reader"] == 0 for e in history)
        assert all(e["by"] == "reader" and e["seat"] == 0 for e in history)  # the asker confirmed each
        seen = json.dumps(match.view(seat), ensure_ascii=False)
        assert statements[3]["prompt"] not in seen and statements[4]["prompt"] not in seen
    assert [e["n"] for e in match.view(None)["quiz_history"]] == [1, 2, 3]


def test_an_answer_waiting_for_its_verdict_is_not_in_the_history() -> None:
    match = position(iq=[150, 150, 150], card="roulette-001")
    act(match, "draw", 0)
    q = current(match)
    act(match, "ask_answer", 1, text=wrong(q))
    assert match.view(1)["quiz_history"] == [] and match.view(None)["quiz_history"] == []
    act(match, "ask_overrule", 0)  # the asker rules it right against the judge
    (entry,) = match.view(1)["quiz_history"]
    assert entry["given"] == wrong(q) and entry["correct"] is True and entry["overruled"] is True
    assert entry["code"] == "overruled_right" and entry["params"] == {"judge": "wrong_option"}
    assert (entry["by"], entry["seat"]) == ("reader", 0)
    assert entry["answer"] and entry["answer"] in json.dumps(match.view(2), ensure_ascii=False)


def test_a_pass_is_decided_by_the_one_who_passed() -> None:
    match = position(iq=[150, 150, 150], card="roulette-001")
    act(match, "draw", 0)
    act(match, "ask_pass", 1)
    (entry,) = match.view(2)["quiz_history"]
    assert (entry["by"], entry["seat"], entry["correct"], entry["given"]) == ("pass", 1, False, None)


def test_the_history_keeps_the_last_fifty_questions_and_replays() -> None:
    match = mindtable.new_match("caida-libre", players=4, seed=3, options={"language": "en"})
    bots = {seat: match.game.make_bot("knowing", seat=seat, seed=3) for seat in range(4)}
    verdicts: list[dict] = []
    play_out(
        match,
        bots,
        on_events=lambda _a, events: verdicts.extend(e.to_dict() for e in events if e.type == "ask_decided"),
    )
    history = match.view(0)["quiz_history"]
    assert len(verdicts) > HISTORY_LENGTH, "a game long enough to fill the history"
    assert len(history) == HISTORY_LENGTH and history[-1]["n"] == len(verdicts)
    assert [e["n"] for e in history] == list(range(len(verdicts) - HISTORY_LENGTH + 1, len(verdicts) + 1))
    assert [(e["prompt"], e["correct"], e["by"]) for e in history] == [
        (v["prompt"], v["correct"], v["by"]) for v in verdicts[-HISTORY_LENGTH:]
    ]
    assert mindtable.replay(match.record()).view(1)["quiz_history"] == history
    # the room's replay (GET /api/rooms/{code}/replay) has it at every step, as a spectator saw it
    steps = mindtable.replay_steps(match.record(), None)
    assert steps[0]["view"]["quiz_history"] == [] and steps[-1]["view"]["quiz_history"] == history


def test_a_text_the_history_shows_everyone_is_no_secret_of_the_card_being_asked() -> None:
    """An earlier card's answer that reads like one of the card being asked ("b) Chile" twice) is public: the
    secrets the leak checks look for leave it out, and only it."""
    match = position(iq=[150, 150, 150], card="more_or_less-053")
    act(match, "draw", 0)
    secrets = [text for _, text in QUIZ.secrets(match.state)]
    assert len(secrets) >= 2, secrets
    public = json.loads(secrets[0])
    state = match.snapshot()["state"]
    state["ask_history"] = [{"n": 1, "prompt": "Which country has the larger area?", "answer": public, "given": "b"}]
    assert [text for _, text in QUIZ.secrets(state)] == secrets[1:]
