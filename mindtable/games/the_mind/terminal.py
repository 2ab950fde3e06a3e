"""The Mind in a terminal, in real time, against bots.

Two layers:

* :class:`TerminalSession` is pure logic with no I/O: give it the time (ms since the match began) and the
  keys pressed; it applies the bots' actions when their time comes, turns keys into actions, keeps the
  messages, and renders the screen as a Rich renderable. Tests drive it without a terminal.
* :func:`run_terminal` is the I/O loop: a monotonic wall clock, keys read without blocking (``termios``
  cbreak mode + ``select`` on stdin, restored on exit) and a :class:`rich.live.Live` screen.

Keys: space/enter play your lowest card, ``r`` ready (hands on the table), ``s`` propose a star, ``a`` /
``x`` agree / reject a proposal, ``t`` call stop ('players' detection only), ``e`` propose ending a blind
run, ``q`` quit.

>>> import mindtable
>>> from mindtable.games.the_mind.bots import ProportionalBot
>>> match = mindtable.new_match("the-mind", players=2, seed=4)
>>> session = TerminalSession(match, 0, {1: ProportionalBot(seat=1, seed=4)})
>>> [a.action["type"] for a in session.press("r", now=100)]
['ready']
>>> [(a.action["seat"], a.action["type"], a.action["at"]) for a in session.advance(now=600)]
[(1, 'ready', 500)]
>>> match.view(0)["phase"]
'playing'
"""

from __future__ import annotations

import os
import select
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Protocol

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from mindtable.core.bots import Bot
from mindtable.core.driver import next_step
from mindtable.core.errors import IllegalAction, MindtableError
from mindtable.core.events import Event, events_for
from mindtable.core.match import Match
from mindtable.kit.names import bot_name

#: Key -> action type (``None``: quit).
KEYS: dict[str, str | None] = {
    " ": "play",
    "\n": "play",
    "\r": "play",
    "r": "ready",
    "s": "propose_star",
    "a": "agree",
    "x": "reject",
    "t": "stop",
    "e": "propose_end",
    "w": "withdraw",
    "q": None,
}
#: Action type -> the key shown in the help line.
KEY_LABELS = {
    "play": "space/enter",
    "ready": "r",
    "propose_star": "s",
    "agree": "a",
    "reject": "x",
    "stop": "t",
    "propose_end": "e",
    "withdraw": "w",
}
ACTION_NAMES = {
    "play": "play your lowest",
    "ready": "ready",
    "propose_star": "propose star",
    "agree": "agree",
    "reject": "reject",
    "stop": "stop!",
    "propose_end": "end blind run",
    "withdraw": "withdraw",
}
#: How long the "life lost" banner stays up, in ms.
ALERT_MS = 3000
#: At most this many bot or deadline actions are applied per call (a guard against a runaway bot).
MAX_ACTIONS_PER_ADVANCE = 10_000


class TerminalError(MindtableError):
    """The terminal cannot run this match as asked (several humans, no interactive terminal...)."""


@dataclass(frozen=True)
class Applied:
    """An action that was applied, with the events it produced."""

    action: dict[str, Any]
    events: list[Event]


@dataclass(frozen=True)
class Message:
    at: int
    text: str
    style: str = ""


class TerminalSession:
    """The screen and the timing of a real-time game with one human seat (``None``: watch the bots).

    ``advance(now)`` applies every bot and deadline action due up to ``now``, each at the time it was
    wanted; ``press(key, now)`` applies the human's action at ``now`` (never earlier than the last action).
    Both return what was applied. ``render(now)`` draws the screen.
    """

    def __init__(
        self,
        match: Match,
        seat: int | None,
        bots: Mapping[int, Bot],
        *,
        names: Mapping[int, str] | None = None,
        max_messages: int = 7,
    ) -> None:
        if seat is not None and seat in bots:
            raise TerminalError(f"seat {seat} cannot be both the human and a bot")
        missing = [s for s in range(match.players) if s != seat and s not in bots]
        if missing:
            raise TerminalError(f"nobody plays seat(s) {', '.join(map(str, missing))}: give each a bot")
        self.match = match
        self.seat = seat
        self.bots = dict(bots)
        self.names = {
            s: ("You" if s == seat else bot_name(s) if s in bots else f"Player {s + 1}") for s in range(match.players)
        }
        #: A replay: the keys line says how to step instead of how to play.
        self.replaying = False
        if names:
            self.names.update(names)
        self.max_messages = max_messages
        self.messages: list[Message] = []
        self.alert: Message | None = None
        #: True once the player asked to leave; ``confirming`` while "quit this game?" waits for an answer.
        self.finished = False
        self.confirming = False
        self.applied: list[Applied] = []
        if match.is_over:
            self._say(match.clock, "This game is already over.", "bold")
        else:
            view = match.view(seat)
            started = {"type": "level_started", "level": view["level"], "cards_each": view["cards_each"]}
            self._say(match.clock, *self.describe(started))
        self.next_due()  # the bots look at the table now, as a player would when sitting down

    # -- time and keys -----------------------------------------------------------------------------
    def next_due(self) -> int | None:
        """When the next bot or deadline action is due (ms), or ``None`` if nobody but the human will act."""
        if self.match.is_over:
            return None
        step = next_step(self.match, self.bots, self.match.clock)
        return None if step is None else step[0]

    def advance(self, now: int) -> list[Applied]:
        """Apply, in time order, every bot and deadline action wanted at or before ``now``."""
        done: list[Applied] = []
        for _ in range(MAX_ACTIONS_PER_ADVANCE):
            if self.match.is_over:
                break
            step = next_step(self.match, self.bots, self.match.clock)
            if step is None or step[0] > now:
                break
            _, action = step
            try:
                events = self.match.apply(action)
            except IllegalAction as exc:
                raise IllegalAction(exc.code, f"bot at seat {action.get('seat')} chose {action}: {exc}") from exc
            done.append(self._record(action, events))
        return done

    def press(self, key: str, now: int) -> list[Applied]:
        """Handle one key pressed at ``now`` (ms); unknown keys are ignored."""
        key = key if key in ("\n", "\r", " ") else key.lower()
        if self.confirming:
            self.confirming = False
            if key in ("y", "q"):
                self.finished = True
            else:
                self._say(now, "Going on.", "")
            return []
        if key not in KEYS:
            return []
        kind = KEYS[key]
        if kind is None:
            if self.seat is not None and not self.match.is_over:
                self.confirming = True  # a running game: ask first
                self._say(now, "Quit this game? Press y (or q again) to quit, any other key to go on.", "bold")
                return []
            self.finished = True
            return []
        if self.match.is_over:
            if kind == "play":  # enter on the final screen leaves too
                self.finished = True
            return []
        if self.seat is None:
            self._say(now, "You are watching: only q works.", "yellow")
            return []
        at = max(now, self.match.clock)
        action = {"type": kind, "seat": self.seat, "at": at}
        try:
            events = self.match.apply(action)
        except IllegalAction as exc:
            self._say(at, f"Not now: {exc.message}", "yellow")
            return []
        return [self._record(action, events)]

    def legal_types(self) -> list[str]:
        if self.seat is None or self.match.is_over:
            return []
        return [action["type"] for action in self.match.legal_actions(self.seat)]

    # -- messages ------------------------------------------------------------------------------------
    def _record(self, action: dict[str, Any], events: list[Event]) -> Applied:
        applied = Applied(action, events)
        self.applied.append(applied)
        at = int(action.get("at", self.match.clock))
        for event in events_for(events, self.seat):
            text, style = self.describe(event)
            if text:
                self._say(at, text, style)
            if event["type"] in ("life_lost", "game_lost", "game_won"):
                self.alert = Message(at, text, style)
        return applied

    def _say(self, at: int, text: str, style: str = "") -> None:
        self.messages.append(Message(at, text, style))
        del self.messages[: -self.max_messages]

    def name(self, seat: Any) -> str:
        return self.names.get(seat, f"seat {seat}") if isinstance(seat, int) else "the table"

    @staticmethod
    def _verb(who: str, third: str, second: str) -> str:
        return second if who == "You" else third

    def describe(self, event: dict[str, Any]) -> tuple[str, str]:
        """A one-line message for an event (empty text: nothing worth saying)."""
        kind = event["type"]
        who = self.name(event.get("seat"))
        if kind == "level_started":
            prompt = " Hands on the table: press r when ready." if self.seat is not None else ""
            return f"Level {event['level']}: {event['cards_each']} card(s) each.{prompt}", "bold"
        if kind == "focused":
            return "Everyone is ready: play!", "green"
        if kind == "card_played":
            if event.get("face_down"):
                return f"{who} played a card face down", ""
            return f"{who} played {event['card']}", ""
        if kind == "life_lost":
            moved = event.get("set_aside") or {}
            held = "; ".join(f"{self.name(int(s))}: {', '.join(map(str, cards))}" for s, cards in moved.items())
            cause = event.get("cause")
            if cause == "blind_pile":
                why = "the face-down pile was out of order"
            elif cause == "stop":
                why = f"stop! {event['card']} had been played over lower cards"
            elif cause == "evident":
                why = f"nobody called stop, but a lower card showed {event['card']} had been played too early"
            else:
                why = f"{event['card']} was played while lower cards were held"
            extra = f" Set aside: {held}." if held else ""
            return f"LIFE LOST! {why.capitalize()}. Lives left: {event['lives']}.{extra}", "bold white on red"
        if kind == "stop_called":
            if event.get("error"):
                return f"{who} {self._verb(who, 'calls', 'call')} stop!", "bold"
            return f"{who} {self._verb(who, 'calls', 'call')} stop: no card was passed, nothing lost", "yellow"
        if kind == "proposed":
            if event.get("kind") == "end":
                return (
                    f"{who} {self._verb(who, 'proposes', 'propose')} ending the blind run: a agree, x reject",
                    "magenta",
                )
            return f"{who} {self._verb(who, 'proposes', 'propose')} using a star: a agree, x reject", "magenta"
        if kind == "agreed":
            return f"{who} {self._verb(who, 'agrees', 'agree')}", "magenta"
        if kind == "withdrawn":
            return (
                f"{who} {self._verb(who, 'withdraws', 'withdraw')} the {event.get('kind', 'proposal')} proposal",
                "magenta",
            )
        if kind == "rejected":
            return f"{who} {self._verb(who, 'rejects', 'reject')} the {event.get('kind', 'proposal')}", "magenta"
        if kind == "star_used":
            cards = ", ".join(f"{self.name(int(s))} {c}" for s, c in (event.get("discarded") or {}).items())
            return f"Star used! Everyone discards their lowest card: {cards or 'none'}.", "bold magenta"
        if kind == "level_completed":
            reward = event.get("reward")
            text = f"Level {event['level']} complete!"
            if reward and event.get("granted"):
                text += f" Reward: +1 {reward}."
            elif reward:
                text += f" (The {reward} reward is lost: already at the maximum.)"
            return text, "bold green"
        if kind == "game_won":
            who_won = "YOU WON!" if self.seat is not None else "THE TEAM WON!"
            return f"{who_won} Level {event['level']} completed: the team made it.", "bold black on green"
        if kind == "game_lost":
            return f"GAME OVER: the last life was lost at level {event['level']}.", "bold white on red"
        if kind == "blind_started":
            return "Blind mode: from level 1 again, cards face down, checked at the end of each level.", "bold cyan"
        if kind == "pile_revealed":
            order = "in order" if event.get("in_order") else "OUT OF ORDER"
            return f"The pile is revealed: {' '.join(map(str, event['cards']))} ({order})", "cyan"
        if kind == "blind_ended":
            return f"The blind run ends after {event.get('blind_levels', 0)} level(s).", "bold cyan"
        if kind in ("ready", "dealt"):
            return "", ""
        details = ", ".join(f"{k}={v}" for k, v in event.items() if k != "type")
        return f"{kind}: {details}", ""

    # -- screen ------------------------------------------------------------------------------------
    def render(self, now: int) -> RenderableType:
        """The whole screen at time ``now`` (ms)."""
        view = self.match.view(self.seat)
        players = self.match.players
        blind = view["mode"] == "blind"

        header = Text()
        header.append("Lives ", style="bold")
        header.append("♥ " * view["lives"], style="bold red")
        header.append(f"({view['lives']})   ", style="red")
        header.append("Stars ", style="bold")
        header.append("★ " * view["stars"] if view["stars"] else "none ", style="bold yellow")
        header.append(f"({view['stars']})   ", style="yellow")
        last = view["last_level"]
        header.append(f"Level {view['level']}" + (f" of {last}" if last else ""), style="bold")
        if view.get("reward"):
            header.append(f" (reward: {view['reward']})", style="dim")
        header.append(f"   {_clock(now)}", style="dim")

        phase = _phase_line(view, self.seat, self.match, self.name)

        pile = Table.grid(padding=(0, 2))
        pile.add_column(style="bold", min_width=12)
        pile.add_column()
        played = view["pile"]
        if blind:
            pile.add_row("Pile", Text(f"{len(played)} card(s) face down", style="cyan"))
        else:
            top = view["top"]
            top_text = Text(f" {top} " if top is not None else " - ", style="bold black on white")
            if played:
                top_text.append("   played: " + " ".join(str(p["card"]) for p in played), style="dim")
            pile.add_row("Top card", top_text)
        aside = [f"{self.name(s)}: {', '.join(map(str, cards))}" for s, cards in enumerate(view["set_aside"]) if cards]
        pile.add_row("Set aside", Text("; ".join(aside) if aside else "none", style="yellow" if aside else "dim"))
        discards = [
            f"{self.name(s)}: {', '.join(map(str, cards))}" for s, cards in enumerate(view["discards"]) if cards
        ]
        pile.add_row(
            "Discarded", Text("; ".join(discards) if discards else "none", style="magenta" if discards else "dim")
        )

        seats = Table(box=None, padding=(0, 2), show_edge=False, header_style="bold dim")
        seats.add_column("Player")
        seats.add_column("Cards", justify="right")
        seats.add_column("Ready", justify="center")
        proposal = view["proposal"]
        if proposal:
            seats.add_column("Proposal", justify="center")
        for s in range(players):
            name = self.name(s)
            ready = Text("✓", style="bold green") if view["ready"][s] else Text("·", style="dim")
            cells: list[RenderableType] = [
                Text(name, style="bold" if s == self.seat else ""),
                str(view["hand_counts"][s] + len(view["set_aside"][s])),
                ready,
            ]
            if proposal:
                agreed = s in proposal["agreed"]
                cells.append(Text("agrees" if agreed else "?", style="green" if agreed else "yellow"))
            seats.add_row(*cells)

        parts: list[RenderableType] = [header, phase, Text(""), pile, Text(""), seats, Text("")]
        if self.seat is not None:
            parts.append(_hand_line(view, self.seat))
        if self.alert is not None and (now - self.alert.at < ALERT_MS or self.match.is_over):
            parts.append(Text(""))
            parts.append(Text(f" {self.alert.text} ", style=self.alert.style or "bold"))
        log = Text()
        for index, message in enumerate(self.messages):
            if index:
                log.append("\n")
            log.append(f"{_clock(message.at)} ", style="dim")
            log.append(message.text, style=message.style)
        parts.append(Panel(log, title="Messages", title_align="left", border_style="dim"))
        parts.append(self._keys_line())
        mode = "blind mode" if blind else "normal mode"
        detection = "players call stop" if view["detection"] == "players" else "the table notices mistakes"
        title = f"[bold]The Mind[/] · {players} players · {mode} · {detection}"
        return Panel(Group(*parts), title=title, border_style="blue", padding=(0, 1))

    def _keys_line(self) -> Text:
        line = Text("Keys: ", style="bold")
        if self.replaying:
            line.append("enter/→ next · ← back · q quit", style="")
            return line
        if self.match.is_over:
            line.append("q or enter: leave", style="bold")
            return line
        if self.seat is None:
            line.append("watching the bots · q quit", style="")
            return line
        legal = set(self.legal_types())
        shown = ["play", "ready", "propose_star", "agree", "reject"]
        if self.match.view(self.seat)["detection"] == "players":
            shown.append("stop")
        if "propose_end" in legal:
            shown.append("propose_end")
        if "withdraw" in legal:
            shown.append("withdraw")
        for kind in shown:
            active = kind in legal
            line.append(f"{KEY_LABELS[kind]}", style="bold cyan" if active else "dim")
            line.append(f" {ACTION_NAMES[kind]}", style="" if active else "dim")
            line.append(" · ", style="dim")
        line.append("q", style="bold cyan")
        line.append(" quit")
        return line


def _clock(ms: int) -> str:
    seconds = max(ms, 0) // 1000
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


def _lowest(view: dict[str, Any], seat: int) -> int | None:
    cards = list(view["hand"] or []) + list(view["set_aside"][seat])
    return min(cards) if cards else None


def _hand_line(view: dict[str, Any], seat: int) -> Text:
    line = Text("Your hand  ", style="bold")
    hand = list(view["hand"] or [])
    aside = list(view["set_aside"][seat])
    lowest = _lowest(view, seat)
    if not hand and not aside:
        line.append("(empty)", style="dim")
        return line
    for card in sorted(hand + aside):
        if card in aside:
            style = "bold black on yellow"
        elif card == lowest:
            style = "bold white on blue"
        else:
            style = "black on white"
        line.append(f" {card:>3} ", style=style)
        line.append(" ")
    if aside:
        line.append(" (yellow: set aside, play them in order)", style="dim")
    return line


def _phase_line(view: dict[str, Any], seat: int | None, match: Match, name: Callable[[Any], str]) -> Text:
    result = match.result
    if result is not None:
        won = bool(result.winners)
        text = ("YOU WON" if seat is not None else "THE TEAM WON") if won else "GAME OVER"
        details = result.details or {}
        reason = "" if result.reason in ("won", "lost") else f" ({result.reason})"
        return Text(
            f" {text}: {details.get('progress', view['levels_completed'])} level(s) completed{reason} ",
            style="bold black on green" if won else "bold white on red",
        )
    proposal = view["proposal"]
    if proposal is not None:
        what = "use a star" if proposal["kind"] == "star" else "end the blind run"
        waiting = seat is not None and seat not in proposal["agreed"]
        tail = ": press a to agree, x to reject" if waiting else ": waiting for the others"
        by = name(proposal.get("by"))
        return Text(f" {by} proposed to {what}{tail} ", style="bold black on magenta")
    if view["phase"] == "refocus":
        if seat is not None and not view["ready"][seat]:
            return Text(" Hands on the table: press r when you are ready ", style="bold black on yellow")
        return Text(" Waiting for everyone to be ready... ", style="black on yellow")
    if seat is not None:
        lowest = _lowest(view, seat)
        if lowest is None:
            return Text(" Your hand is empty: wait for the others ", style="black on green")
        return Text(f" Play! Your lowest card is {lowest}: space or enter plays it ", style="bold black on green")
    return Text(" Playing ", style="bold black on green")


class _Idle:
    """Stands in for the other seats of a replay: it never acts."""

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def decide(self, observation: Any) -> None:
        return None


def replay_screen(match: Match, seat: int | None) -> Callable[[Match, dict[str, Any] | None, list[Event]], Any]:
    """For ``mindtable replay``: the play screen at each step of a record as ``seat`` saw it (``None``: a
    spectator), with its messages; at the end of the record every hand is shown."""
    others = {s: _Idle(s) for s in range(match.players) if s != seat}
    session = TerminalSession(match, seat, others, names={s: f"Player {s + 1}" for s in others})
    session.replaying = True

    def draw(current: Match, action: dict[str, Any] | None, events: list[Event]) -> Any:
        session.match = current
        if action is not None:
            session._record(action, events)
        return session.render(current.clock)

    return draw


# -- I/O ---------------------------------------------------------------------------------------------
class KeySource(Protocol):
    def __enter__(self) -> KeySource: ...

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None: ...

    def read(self, timeout: float) -> str | None:
        """Keys pressed within ``timeout`` seconds (possibly several), or ``None``."""
        ...


class Clock(Protocol):
    def now(self) -> int:
        """Ms since the match began."""
        ...


class WallClock:
    """Monotonic wall-clock ms since creation, plus ``offset``; never goes backwards."""

    def __init__(self, offset: int = 0) -> None:
        self._start = time.monotonic()
        self._offset = offset
        self._last = offset

    def now(self) -> int:
        self._last = max(self._last, self._offset + int((time.monotonic() - self._start) * 1000))
        return self._last


class TerminalKeys:
    """Keys from a terminal, without waiting for enter or echoing (cbreak); the settings come back on exit."""

    def __init__(self, stream: Any = None) -> None:
        self.stream = stream if stream is not None else sys.stdin
        self.fd = self.stream.fileno()
        self._saved: Any = None

    def __enter__(self) -> TerminalKeys:
        import termios
        import tty

        self._saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        import termios

        if self._saved is not None:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
            self._saved = None

    def read(self, timeout: float) -> str | None:
        ready, _, _ = select.select([self.fd], [], [], max(timeout, 0.0))
        if not ready:
            return None
        data = os.read(self.fd, 64)
        if not data:
            return "q"  # end of input
        text = data.decode("utf-8", errors="ignore")
        if text.startswith("\x1b"):
            return None  # arrow keys and other escape sequences
        return text


class VirtualClock:
    """A clock that only moves when told: for scripted sessions (tests, demos)."""

    def __init__(self, start: int = 0) -> None:
        self.time = start

    def now(self) -> int:
        return self.time


class ScriptedKeys:
    """Keys pressed at given times on a :class:`VirtualClock`; ``q`` once the script runs out.

    ``read(timeout)`` moves the clock to the next key if it comes within ``timeout``, else by ``timeout``.
    """

    def __init__(self, clock: VirtualClock, presses: Sequence[tuple[int, str]]) -> None:
        self.clock = clock
        self.presses = sorted(presses, key=lambda press: press[0])
        self.index = 0

    def __enter__(self) -> ScriptedKeys:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        return None

    def read(self, timeout: float) -> str | None:
        if self.index >= len(self.presses):
            return "q"
        at, key = self.presses[self.index]
        wait_ms = max(int(timeout * 1000), 1)
        if at <= self.clock.time + wait_ms:
            self.clock.time = max(self.clock.time, at)
            self.index += 1
            return key
        self.clock.time += wait_ms
        return None


def run_terminal(
    match: Match,
    human_seats: list[int],
    bots: dict[int, Bot],
    *,
    keys: KeySource | None = None,
    clock: Clock | None = None,
    console: Console | None = None,
    frame_ms: int = 50,
) -> None:
    """Play ``match`` in this terminal in real time: one human seat (or none, to watch) against ``bots``.

    ``keys``, ``clock`` and ``console`` default to the real terminal, a monotonic wall clock and stdout;
    tests pass :class:`ScriptedKeys` and a :class:`VirtualClock`.
    """
    if len(human_seats) > 1:
        raise TerminalError(
            f"The Mind is played in real time, and one keyboard can only play one seat: got {len(human_seats)} "
            "humans. Play with --humans 1 (or 0 to watch the bots); several people play together online."
        )
    seat = human_seats[0] if human_seats else None
    session = TerminalSession(match, seat, bots)
    console = console or Console()
    interactive = keys is None
    if keys is None:
        if not sys.stdin.isatty():
            raise TerminalError("the terminal game needs an interactive terminal (stdin is not a TTY)")
        keys = TerminalKeys(sys.stdin)
    clock = clock or WallClock(offset=match.clock)
    run_session(session, keys, clock, console, frame_ms=frame_ms, screen=interactive)


def run_session(
    session: TerminalSession,
    keys: KeySource,
    clock: Clock,
    console: Console,
    *,
    frame_ms: int = 50,
    screen: bool = False,
    on_frame: Callable[[int], None] | None = None,
) -> None:
    """The loop: apply due bot actions, draw, wait for a key or the next bot action, handle the key."""
    now = clock.now()
    try:
        with keys, Live(session.render(now), console=console, auto_refresh=False, screen=screen) as live:
            while not session.finished:
                now = clock.now()
                session.advance(now)
                live.update(session.render(now), refresh=True)
                if on_frame is not None:
                    on_frame(now)
                due = session.next_due()
                wait_ms = frame_ms if due is None else min(frame_ms, max(due - now, 0))
                pressed = keys.read(wait_ms / 1000)
                if not pressed:
                    continue
                now = clock.now()
                session.advance(now)
                for key in pressed:
                    session.press(key, now)
                    if session.finished:
                        break
    except KeyboardInterrupt:
        session.finished = True
    if screen:
        console.print(session.render(clock.now()))
    result = session.match.result
    if result is None:
        console.print("You left the game before it ended.")
    else:
        details = result.details or {}
        outcome = "won" if result.winners else "lost"
        reason = "" if result.reason in ("won", "lost") else f" ({result.reason})"
        console.print(f"The team {outcome} after completing {details.get('progress', '?')} level(s){reason}.")
