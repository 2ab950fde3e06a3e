"""A scripted player of Carrera de Mente who steers a two-player game to a steal, then to a win.

The browser test drives a person's page with it, and ``test_scripted_player.py`` checks, with the rules alone
and many seeds, that the path it takes does not depend on the dice. It sees only what its seat sees (its view
and legal actions) plus the booklets anyone may read (it has learnt them by heart, like the knowing bot), and
uses what a player may do:

* while the other player holds no prize token, it answers wrong (the turn passes, the bot plays on);
* as the asker it confirms the judge, except that once the other player holds a token it overrules a right
  answer (the asker's call), so the other player's turn stops at its first right answer and it never wins;
* once the other player holds a token, it answers right (5 squares) until its peg lands on the other peg, with
  the options (1 square) when it is 1–4 squares short and may ask for them, then steals, choosing a colour it
  lacks; it never answers a question right that would make it win before that steal;
* after the steal it answers every question right, to the end.

A right answer moves 5 and the track is 14 squares, so it reaches every square; laps are passed on the way
(their prize chosen from the offered colours, the first legal).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mindtable.games.carrera_de_mente.bots import shipped_library
from mindtable.trivia.model import OPTION_LETTERS

WRONG = "I do not know"


@dataclass(frozen=True)
class Step:
    """What to do now: ``kind`` is roll, roll_whole_number, topic, lap_prize, steal, ask_confirm, ask_overrule,
    ask_options, or ask_answer (``value``: the colour, the topic, or the text/letter to give; ``right``: whether
    that answer is the booklet's)."""

    kind: str
    value: str = ""
    right: bool = False


def booklet_answer(prompt: str, letter: bool) -> str:
    """The answer a player who knows the booklets gives: the option's letter, or the required part."""
    known = shipped_library().find(prompt)
    if known is None:
        raise AssertionError(f"a question not in the shipped booklets: {prompt!r}")
    if letter:
        assert known.correct is not None, prompt
        return OPTION_LETTERS[known.correct]
    return known.required_answer or known.answer


def plan(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], me: int, stolen: bool) -> Step | None:
    """The scripted player's next step at ``me`` (see the module docstring); ``None`` when it has none."""
    types = {a["type"] for a in legal}
    other = 1 - me
    if "roll" in types:
        return Step("roll")
    if "roll_whole_number" in types:
        return Step("roll_whole_number")  # the page's one button, the terminal's one menu item
    if "topic" in types:
        return Step("topic", next(a["topic"] for a in legal if a["type"] == "topic"))
    if "lap_prize" in types:
        return Step("lap_prize", next(a["colour"] for a in legal if a["type"] == "lap_prize"))
    if "steal" in types:
        colours = [a["colour"] for a in legal if a["type"] == "steal"]
        lacking = [c for c in colours if c not in view["prizes"][me]]
        return Step("steal", (lacking or colours)[0])
    if "ask_confirm" in types:
        if view["ask"]["suggestion"]["correct"] and view["prizes"][other]:
            return Step("ask_overrule")
        return Step("ask_confirm")
    if "ask_answer" not in types:
        return None
    ask = view["ask"]
    prompt = ask["question"]["prompt"]
    if ask.get("options_shown"):
        return Step("ask_answer", booklet_answer(prompt, letter=True), right=True)
    right = Step("ask_answer", booklet_answer(prompt, letter=False), right=True)
    if stolen:
        return right
    if not view["prizes"][other]:
        return Step("ask_answer", WRONG)
    mine = view["prizes"][me]
    star = (view.get("context") or {}).get("star")
    if len(mine) == 5 and star is not None and star not in mine:
        return Step("ask_answer", WRONG)  # right here would win before the steal
    size = len(view["board"]["squares"])
    short = (view["pegs"][other] - view["pegs"][me]) % size
    if short == 0 or short >= 5:
        return right
    if "ask_options" in types:
        return Step("ask_options")
    return right  # 5 squares past the other peg: three more right answers come back one square closer


def play_from_the_menu(language: str, answer_prompt: str) -> tuple[Any, list[Step], str]:
    """A whole game of seat 0 (the scripted player: a steal, a lap prize, the bot overruled as asker) against the
    knowing bot, through the terminal's numbered menu in ``language``; the match, the planned steps, the screen."""
    import io

    from rich.console import Console

    import mindtable
    from mindtable.games.carrera_de_mente.terminal import MENU_SKIP, run_terminal

    match = mindtable.new_match("carrera-de-mente", players=2, seed=12, options={"board": "small"})
    bots = {1: match.game.make_bot("knowing", 1, seed=12)}
    planned: list[Step] = []

    def read(prompt: str) -> str:
        if prompt == answer_prompt:
            return planned[-1].value
        assert prompt == "> ", prompt
        stolen = any(a["type"] == "steal" and a["seat"] == 0 for a in match.actions)
        step = plan(match.view(0), match.legal_actions(0), 0, stolen)
        assert step is not None
        planned.append(step)
        menu = [a for a in match.legal_actions(0) if a["type"] not in MENU_SKIP]
        for number, entry in enumerate(menu, start=1):
            if entry["type"] == step.kind and step.value in ("", entry.get("colour"), entry.get("topic")):
                return str(number)
            if entry["type"] == step.kind == "ask_answer":
                return str(number)
        raise AssertionError(f"{step} is not on the menu {menu}")

    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None)
    run_terminal(match, [0], bots, read=read, console=console, clock=lambda: 0, language=language)
    return match, planned, out.getvalue()
