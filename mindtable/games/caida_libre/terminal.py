"""Caída Libre in a terminal, in the room's language: hot-seat and bots, with the IQ scale drawn as text.

:func:`render` draws a seat's view (the scale with the pawns and weapon squares, whose turn and who asks, the
card as that seat may see it, the last card's outcome); :func:`run_terminal` is the loop ``mindtable play
caida-libre`` runs: people at ``human_seats`` choose from a numbered menu (answers are typed), bots play the
other seats, the Quote 5 clock runs on the wall clock and is delivered when due.

Every line is said through a message catalogue (:class:`mindtable.kit.words.Catalogue`) in ``language`` (``en``,
``es`` or ``et``; by default the match's ``language`` option, the language of its cards): the page's own words
(``mindtable/games/caida_libre/web/i18n``: card types, weapons, outcomes) where they fit, the terminal's
in ``i18n/<language>.json`` beside this module. Refusals are said from their codes and parameters. What the
cards say (prompts, topics, answers) stays in the cards' language.

>>> import mindtable
>>> match = mindtable.new_match("caida-libre", players=2, seed=1, options={"starter": 0, "language": "en"})
>>> print(render(match.view(0), 0).splitlines()[0])
Caída Libre: Player 1 asks Player 2 (phase draw) · pack 1 · ... cards in the draw pile
>>> print(render(match.view(0), 0, "es").splitlines()[0])
Caída Libre: Jugador 1 pregunta a Jugador 2 (fase: robar) · mazo 1 · ... tarjetas por robar
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from mindtable.core.bots import Bot
from mindtable.core.codes import seat_params
from mindtable.core.errors import IllegalAction
from mindtable.core.match import Match
from mindtable.kit.names import seat_name
from mindtable.kit.table import TableDriver
from mindtable.kit.terminal import play_turns
from mindtable.kit.words import Catalogue, screen_language, surface_words
from mindtable.trivia.quiz import overrule_count_asked, reader_answer

Reader = Callable[[str], str]

HERE = Path(__file__).resolve().parent
WEAPONS = ("sniper", "hook", "dynamite", "jetpack", "armageddon")
#: Actions a person does not pick from the menu: the draft of a typed answer, and what this game never opens.
MENU_SKIP = ("ask_type", "ask_options", "ask_call_vote", "ask_vote")
#: The events told as a line to the person who gets the keyboard next.
TOLD_EVENTS = ("deck_reshuffled", "weapon_armed", "target_chosen", "cl_partly_wrong", "card_scored", "free_fall")
#: The narrowest the scale's label column gets (the English labels and a space).
SCALE_COLUMN = 16


def words(language: str) -> Catalogue:
    """The terminal's words in ``language``, first match wins: its own (``i18n`` beside this module), the game
    page's, the site's; English fills in any key a language lacks."""
    return surface_words(language, HERE / "i18n", web_module="caida-libre")


class Screen:
    """How the match reads in one language: seats, the scale, the card, the menu, events, refusals."""

    def __init__(self, say: Catalogue, humans: Collection[int] = ()) -> None:
        self.say = say
        self.humans = tuple(humans)  # the seats people play at this keyboard: named "Player N", bots by name

    @classmethod
    def of(cls, language: str | None, options: Mapping[str, Any] | None = None) -> Screen:
        """The screen in ``language``, else the match's ``language`` option, else English."""
        return cls(words(screen_language(language, options)))

    # --- names -------------------------------------------------------------------------------------------------

    def seat(self, seat: int) -> str:
        return seat_name(seat, self.humans, functools.partial(self.say, "term.player"))

    def seats(self, seats: Any) -> str:
        return ", ".join(self.seat(int(s)) for s in seats)

    def weapon(self, kind: str) -> str:
        """The weapon in a sentence (the page's words: in Spanish with its article)."""
        return self.say(f"cl.weapon.{kind}")

    def card_type(self, kind: str) -> str:
        key = f"cl.type.{kind}"
        return self.say(key) if self.say.has(key) else kind

    def verdict(self, correct: bool) -> str:
        return self.say("term.right" if correct else "term.wrong")

    # --- the scale ---------------------------------------------------------------------------------------------

    def scale_label(self, view: Mapping[str, Any], square: Mapping[str, Any]) -> str:
        if square["iq"] == view["top"]:
            return self.say("cl.top")
        if square["iq"] == 0:
            return self.say("cl.bottom")
        kind = square.get("weapon")
        return self.say(f"term.scale.{kind}") if kind in WEAPONS else ""

    def scale(self, view: Mapping[str, Any]) -> list[str]:
        """The IQ scale, top down: each square with its weapon and the players standing on it (numbered from 1, as
        their names are); the label column is as wide as this language's longest label needs."""
        squares = view["scale"]["squares"]
        labels = [self.scale_label(view, square) for square in squares]
        width = max([SCALE_COLUMN, *(len(label) + 1 for label in labels)])
        lines = []
        for square, label in zip(squares, labels, strict=True):
            here = [str(seat + 1) for seat, iq in enumerate(view["iq"]) if iq == square["iq"]]
            pawns = " ".join(f"[{s}]" for s in here)
            lines.append(f"{square['iq']:>4} | {label:<{width}}| {pawns}")
        return lines

    # --- a seat's screen ---------------------------------------------------------------------------------------

    def header(self, view: Mapping[str, Any]) -> str:
        say = self.say
        deck = view["deck"]
        pack = say("option.pack.all") if view["pack"] == "all" else say("term.pack", pack=view["pack"])
        return say(
            "term.header",
            title=say("game.title"),
            asks=say("cl.asks", asker=self.seat(view["asker"]), answerer=self.seat(view["answerer"])),
            phase=say("term.phase", phase=say(f"term.phase.{view['phase']}")),
            pack=pack,
            pile=say("term.pile", n=deck["draw"]),
        )

    def render(self, view: Mapping[str, Any], seat: int | None) -> list[str]:
        """What ``seat`` sees: the header, the scale, every seat's IQ, the weapon in play, the card being asked
        (the asker also sees the answer and the judge's suggestion), else the last card's outcome."""
        say = self.say
        lines = [self.header(view), *self.scale(view)]
        iq = ", ".join(say("term.iq_item", name=self.seat(s), iq=v) for s, v in enumerate(view["iq"]))
        lines.append(say("term.iq_line", list=iq))
        weapon = view.get("weapon")
        if weapon:
            params = {"name": self.seat(weapon["seat"]), "weapon": self.weapon(weapon["kind"])}
            if weapon.get("target") is not None:
                lines.append(say("term.weapon_target", target=self.seat(weapon["target"]), **params))
            else:
                lines.append(say("term.weapon", **params))
        if view.get("ask"):
            lines += self.question(view["ask"])
        last = view.get("last")
        if last and not view.get("ask"):
            lines.append(
                say(
                    "term.last",
                    type=self.card_type(last["card_type"]),
                    name=self.seat(last["answerer"]),
                    outcome=self.outcome(last),
                    moves=self.moves(last["moves"]),
                ).rstrip()
            )
        return lines

    def outcome(self, scored: Mapping[str, Any]) -> str:
        if scored["correct"]:
            return self.say("term.outcome_right")
        return self.say("cl.outcome_wrong", penalty=scored["penalty"])

    def moves(self, moves: list[Mapping[str, Any]]) -> str:
        return "; ".join(
            self.say("term.move", name=self.seat(m["seat"]), before=m["before"], after=m["after"]) for m in moves
        )

    def question(self, ask: Mapping[str, Any]) -> list[str]:
        """The card as this seat may see it: its type and topic, the topics to choose from (Double Questions),
        the question with its options, the clock, what was typed; the asker also gets the answer and the
        judge's suggestion; then the questions of the card already decided."""
        say = self.say
        headings = ask["headings"]
        card_line = say("term.card", type=self.card_type(headings["type"]))
        out = [card_line + (f" · {headings['topic']}" if headings.get("topic") else "")]
        if ask["phase"] == "choose":
            for index in ask["choices"] or []:
                h = headings["headings"][index]
                penalty = say("quiz.penalty", penalty=h.get("penalty", 0))
                out.append("  " + say("term.topic", n=index + 1, topic=h.get("topic", ""), penalty=penalty))
        question = ask.get("question")
        if question:
            out.append("  " + say("term.q", prompt=question["prompt"]))
            for letter, option in zip("abcd", question.get("options") or [], strict=False):
                out.append(f"     {letter}) {option}")
            if question.get("count"):
                out.append("     " + say("term.name_items", count=question["count"]))
        if ask.get("deadline"):
            out.append("  " + say("term.answer_by", s=f"{ask['deadline'] / 1000:.1f}"))
        if ask.get("draft"):
            out.append("  " + say("term.typed", text=ask["draft"]))
        card = ask.get("card")
        if card and question:
            shown = reader_answer(card["questions"][question["index"]], say)
            out.append("  " + say("term.asker_card", answer=shown))
        suggestion = ask.get("suggestion")
        if suggestion and ask["role"] == "reader":
            verdict = self.verdict(bool(suggestion["correct"]))
            if "needed" in suggestion:
                verdict += say("term.named_of", named=suggestion["named"], needed=suggestion["needed"])
            out.append("  " + say("term.judge_suggests", verdict=verdict, reason=self.reason(suggestion)))
        for result in ask.get("results", []):
            verdict = self.verdict(bool(result["correct"]))
            out.append("  " + say("term.result", prompt=result["prompt"], verdict=verdict, answer=result["answer"]))
        return out

    def reason(self, verdict: Mapping[str, Any]) -> str:
        """The judge's reason from its code and parameters (its English words when no table knows the code)."""
        key = f"judge.{verdict.get('code')}"
        if not self.say.has(key):
            return str(verdict.get("reason", ""))
        params = {**verdict.get("params", {}), "named": verdict.get("named"), "needed": verdict.get("needed")}
        return self.say(key, **{k: v for k, v in params.items() if v is not None})

    # --- the menu ----------------------------------------------------------------------------------------------

    def action(self, entry: Mapping[str, Any], view: Mapping[str, Any]) -> str:
        """A menu line for a listed action."""
        say = self.say
        kind = entry["type"]
        if kind == "target":
            return say("term.action.target", name=self.seat(entry["target"]), iq=view["iq"][entry["target"]])
        if kind == "ask_choose":
            h = view["ask"]["headings"]["headings"][entry["question"]]
            return say("term.action.ask_choose", topic=h.get("topic", ""), penalty=h.get("penalty", 0))
        key = f"term.action.{kind}"
        return say(key) if say.has(key) else kind

    # --- events ------------------------------------------------------------------------------------------------

    def event(self, event: Mapping[str, Any]) -> str | None:
        """What happened, in words; ``None`` for what the screen shows anyway."""
        say = self.say
        kind = event["type"]
        if kind == "deck_reshuffled":
            return say("term.event.deck_reshuffled")
        if kind == "weapon_armed":
            return say("cl.weapon_armed", name=self.seat(event["seat"]), weapon=self.weapon(event["weapon"])) + "."
        if kind == "target_chosen":
            return say(
                "term.event.target_chosen",
                name=self.seat(event["seat"]),
                weapon=self.weapon(event["weapon"]),
                target=self.seat(event["target"]),
            )
        if kind == "cl_partly_wrong":
            params = {k: v for k, v in event.items() if k != "type"}
            return say(
                "cl.note.cl_partly_wrong",
                **{**params, "name": self.seat(event["seat"]), "weapon": self.weapon(event["weapon"])},
            )
        if kind == "card_scored":
            line = say(
                "term.event.card_scored",
                number=event["number"],
                type=self.card_type(event["card_type"]),
                name=self.seat(event["answerer"]),
                outcome=self.outcome(event),
            )
            moves = self.moves(event["moves"])
            return f"{line} {moves}" if moves else line
        if kind == "free_fall":
            return say("term.event.free_fall", n=len(event["seats"]), names=self.seats(event["seats"]))
        return None

    # --- the shared turn loop's questions (mindtable.kit.terminal.TurnScreen) ----------------------------------

    def name(self, seat: int) -> str:
        return self.seat(seat)

    def tell(self, seat: int, events: list[dict[str, Any]], view: Mapping[str, Any]) -> list[str]:
        lines = [self.event(e) for e in events if e["type"] in TOLD_EVENTS]
        return [f"{line[:1].upper()}{line[1:]}" for line in lines if line is not None]

    def draw(self, view: Mapping[str, Any], seat: int, now: int) -> list[Text]:
        return [Text(line) for line in self.render(view, seat)]

    def describe(self, entry: Mapping[str, Any], view: Mapping[str, Any]) -> str:
        return self.action(entry, view)

    def wants(self, entry: Mapping[str, Any], spec: Mapping[str, Any], view: Mapping[str, Any]) -> bool:
        return overrule_count_asked(entry, spec, view)

    # --- refusals ----------------------------------------------------------------------------------------------

    def refusal(self, exc: IllegalAction, declared: Mapping[str, tuple[str, ...]] | None = None) -> str:
        """A refusal from its code, the parameters that name a seat said as seats and a weapon by its name."""
        from .rules import GAME

        declared = GAME.seat_params if declared is None else declared
        params: dict[str, Any] = {}
        for key in seat_params(exc.code, exc.params, declared):
            value = exc.params[key]
            params[key] = self.seats(value) if isinstance(value, list) else self.seat(value)
        if exc.params.get("weapon") in WEAPONS:
            params["weapon"] = self.weapon(exc.params["weapon"])
        return self.say.refusal(exc, **params)


def render(view: Mapping[str, Any], seat: int | None, language: str | None = None) -> str:
    """A seat's view as text in ``language`` (default: the language of the match's cards)."""
    return "\n".join(Screen.of(language, {"language": view.get("language")}).render(view, seat))


def run_terminal(
    match: Match,
    human_seats: list[int],
    bots: Mapping[int, Bot],
    *,
    read: Reader = input,
    console: Console | None = None,
    clock: Callable[[], int] | None = None,
    language: str | None = None,
) -> None:
    """Play ``match``: people at ``human_seats`` answer prompts (hot-seat), ``bots`` play the other seats.
    Everything is said in ``language`` (default: the match's ``language`` option, the language of its cards)."""
    console = console or Console()
    screen = Screen(Screen.of(language, match.options).say, human_seats)
    say = screen.say
    table = TableDriver(match, human_seats, bots, clock)

    def show(text: str, style: str | None = None) -> None:
        console.print(Text(text, style=style or ""), highlight=False)

    if human_seats:
        humans = say("term.you_play", n=len(human_seats), seats=screen.seats(human_seats))
    else:
        humans = say("term.only_bots")
    show(say("term.welcome", title=say("game.title"), players=match.players, humans=humans), "bold")

    if not play_turns(screen, table, read=read, console=console, skip=MENU_SKIP):
        return
    result = match.result
    assert result is not None
    show("")
    over = Text(say("cl.over"), style="bold")
    over.append(" " + "\n".join(screen.render(match.view(None), None)))
    console.print(over, highlight=False)
    show(say("term.winners", n=len(result.winners), names=screen.seats(result.winners)), "bold")
    fallen = result.details.get("fallen") or []
    if fallen:
        show(say("cl.fell", names=screen.seats(fallen)))
