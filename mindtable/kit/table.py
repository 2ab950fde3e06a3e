"""The shared loop of a turn-by-turn terminal table: the clock, events kept per person, timers and bots.

The generic terminal (``mindtable/cli/table.py``) and the games' own terminals differ only in how a person's
turn is shown; everything automatic — delivering a due deadline, letting a bot whose turn it is act, stamping
``at`` on every action, collecting what each person may see since their last turn — is here, once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from mindtable.core.bots import Bot, observe
from mindtable.core.events import events_for
from mindtable.core.match import Match


class TableDriver:
    """A match at a terminal table: people at ``human_seats``, ``bots`` at the others, time from ``clock``."""

    def __init__(
        self,
        match: Match,
        human_seats: list[int],
        bots: Mapping[int, Bot],
        clock: Callable[[], int] | None = None,
        *,
        bots_keep_their_time: bool = False,
    ) -> None:
        self.match = match
        self.human_seats = human_seats
        self.bots = bots
        self._clock = clock
        self._started = time.monotonic()
        #: A bot's action is stamped with the time it asked for, if later than now (else: now).
        self._bots_keep_their_time = bots_keep_their_time
        #: The events each person may see that they have not been shown yet.
        self.unseen: dict[int, list[dict[str, Any]]] = {seat: [] for seat in human_seats}
        #: The person who had the keyboard last, and whether the game stopped with nobody able to act.
        self.last_person: int | None = None
        self.stuck = False

    def now(self) -> int:
        current = self._clock() if self._clock is not None else int((time.monotonic() - self._started) * 1000)
        return max(current, self.match.clock)

    def apply(self, action: dict[str, Any]) -> None:
        events = self.match.apply(action)
        for seat in self.human_seats:
            self.unseen[seat].extend(events_for(events, seat))

    def automatic_step(self) -> bool:
        """Deliver a due deadline, or let a bot whose turn it is act; whether anything happened."""
        match = self.match
        deadline = match.next_deadline()
        if deadline is not None and deadline.at <= self.now():
            self.apply(deadline.due_action())
            return True
        bot_seat = next((s for s in match.to_act() if s in self.bots), None)
        if bot_seat is not None:
            decision = self.bots[bot_seat].decide(observe(match, bot_seat, self.now()))
            if decision is not None:
                at = max(self.now(), decision.at or 0) if self._bots_keep_their_time else self.now()
                if deadline is not None and deadline.at <= at:
                    # The time the bot wants comes after a deadline: the deadline happens first (as in
                    # mindtable.core.driver.play_out), and the bot is asked again.
                    self.apply(deadline.due_action())
                    return True
                self.apply({**decision.action, "seat": bot_seat, "at": at})
                return True
        return False

    def human_to_act(self) -> int | None:
        """The first person whose turn it is (``None``: nobody at this keyboard)."""
        return next((s for s in self.match.to_act() if s in self.human_seats), None)

    def wait_for_deadline(self) -> bool:
        """Sleep a little towards the next deadline; False when there is none (nobody can act: stuck)."""
        deadline = self.match.next_deadline()
        if deadline is None:
            return False
        time.sleep(min(0.2, max(0.0, (deadline.at - self.now()) / 1000)))
        return True

    def next_person(self, hand_over: Callable[[int], bool]) -> int | None:
        """Play timers and bots until a person at this keyboard is to act, and return that seat.

        ``None`` when the match is over, when nobody can act and no timer runs (``stuck`` is then True), or when
        the people stop at a hand-over: between two different people, ``hand_over(seat)`` asks for the keyboard
        to be passed to ``seat`` and returns False to stop the game there.
        """
        match = self.match
        while not match.is_over:
            if self.automatic_step():
                continue
            seat = self.human_to_act()
            if seat is None:
                if not self.wait_for_deadline():
                    self.stuck = True
                    return None
                continue
            changing = self.last_person is not None and seat != self.last_person and len(self.human_seats) > 1
            if changing and not hand_over(seat):
                return None
            self.last_person = seat
            return seat
        return None


def pass_the_keyboard(
    console: Any, read: Callable[[str], str], name: Callable[[int], str] = str, say: Any = None
) -> Callable[[int], bool]:
    """The usual hand-over between two people at one keyboard: say whose turn it is, wait for Enter (q stops).
    ``say`` (a :class:`mindtable.kit.words.Catalogue`) says it in its language (``table.pass_keyboard``)."""

    def hand_over(seat: int) -> bool:
        if say is None:
            console.print(f"\n[bold]Pass the keyboard to seat {name(seat)}[/] and press Enter.", highlight=False)
        else:
            console.print("\n" + say("table.pass_keyboard", seat=name(seat)), highlight=False, markup=False)
        return read("").strip().lower() != "q"

    return hand_over
