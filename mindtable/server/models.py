"""The lobby's request and answer bodies (the OpenAPI schema says what the handlers take: strict JSON types)."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator

from mindtable.core.pace import MOST_SECONDS

log = logging.getLogger("mindtable.server")


#: A name needs a letter or a digit (of any script); the OpenAPI document states the same pattern.
NAME_PATTERN = r"\w"


# -- REST models ---------------------------------------------------------------------------------------
def _clean_name(value: str) -> str:
    if not re.search(NAME_PATTERN, value):
        raise ValueError("a name needs at least one letter or digit")
    # Invisible and control characters (and lone surrogates) are dropped; a letter or digit always remains.
    return "".join(ch for ch in value if ch.isprintable()).strip()


def _integral(value: Any) -> Any:
    # JSON has one number type: 2.0 is the whole number 2 (JSON Schema's "integer" says so too); "2" and true
    # are not numbers.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


#: A whole number as JSON writes it (2 or 2.0; never "2" or true).
JsonInt = Annotated[int, BeforeValidator(_integral)]
#: A seat number (the bounds inside the type, so the schema of ``SeatNumber | None`` keeps them).
SeatNumber = Annotated[int, Field(ge=0, le=63), BeforeValidator(_integral)]

#: A bot pace: a named one, or the seconds a bot thinks over each step (:func:`mindtable.core.pace.pace_of`).
BotPace = Literal["off", "normal", "slow"] | Annotated[float, Field(ge=0, le=MOST_SECONDS, allow_inf_nan=False)]

#: Strict types, as on the WebSocket: ``true`` is no seat, ``"2"`` and ``2.0`` are no player count.
MODEL_CONFIG = ConfigDict(extra="forbid", allow_inf_nan=False, regex_engine="python-re", strict=True)


class CreateRoom(BaseModel):
    model_config = MODEL_CONFIG

    game: str = Field(description="a game id from GET /api/games", max_length=64)
    players: JsonInt = Field(description="number of seats", ge=1, le=64)
    options: dict[str, Any] = Field(default_factory=dict, description="match options (see the game's 'options')")
    bots: dict[str, str] = Field(default_factory=dict, description='seat -> bot name, e.g. {"1": "proportional"}')
    bot_params: dict[str, dict[str, Any]] = Field(default_factory=dict, description="seat -> bot parameters")
    public: bool = Field(True, description="listed by GET /api/rooms")
    name: str = Field(
        "Player",
        min_length=1,
        max_length=40,
        pattern=NAME_PATTERN,
        description="the creator's name (needs a letter or digit; invisible characters are dropped)",
    )
    seat: SeatNumber | None = Field(None, description="the creator's seat (default: the lowest human seat)")
    turn_timer_s: float | None = Field(
        None, gt=0, le=86400, description="turn-based games: seconds a seat has to act before a bot acts for it"
    )
    grace_s: float = Field(60.0, ge=0, le=86400, description="seconds a disconnected seat waits before a bot takes it")
    replace_with_bot: bool = Field(True, description="hand a seat to a bot after the grace period or on leaving")
    replacement_bot: str | None = Field(None, max_length=64, description="bot for replaced seats (default: first)")
    bot_pace: BotPace | None = Field(
        None,
        description="turn-based games: how long the bots take over each step so people can follow — off, normal, "
        "slow, or the seconds of thought per step (0 to 60; reading a question takes longer in proportion); "
        "default: the game's room_bot_pace (normal for the quiz games)",
    )

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return _clean_name(value)


class JoinRoom(BaseModel):
    model_config = MODEL_CONFIG

    name: str = Field(
        "Player",
        min_length=1,
        max_length=40,
        pattern=NAME_PATTERN,
        description="your name (needs a letter or digit; invisible characters are dropped)",
    )
    seat: SeatNumber | None = Field(None, description="the seat to take (default: the lowest free one)")

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return _clean_name(value)


class SeatOut(BaseModel):
    seat: int
    name: str | None = Field(
        description="the name the table shows: the person's, or for a bot (also one playing a replaced seat) "
        "its name with '(bot)', e.g. 'Ada (bot)'; null for an open seat"
    )
    player: str | None = Field(
        None, description="a replaced seat: the name of the person who left it (their token reclaims it)"
    )
    kind: str = Field(description="human, bot or open")
    bot: str | None
    connected: bool
    replaced: bool = Field(description="a human seat currently played by a bot; its token reclaims it")
    reserved: bool = Field(description="an open seat of a rematch room held for its player of the previous match")


class RoomOut(BaseModel):
    code: str
    game: str
    players: int
    options: dict[str, Any]
    public: bool
    status: str = Field(description="waiting, playing or over")
    seats: list[SeatOut]
    result: dict[str, Any] | None = Field(
        description="the engine's result once over, with details.bot_finished: the seats a replacement bot "
        "finished after their player left (no title or win is credited to that player)"
    )
    turn_timer_s: float | None
    grace_s: float
    replace_with_bot: bool
    replacement_bot: str | None
    bot_pace: str | float | None = Field(None, description="the bots' pace at this table (see CreateRoom)")
    spectators: int
    rematch: str | None = Field(description="code of the rematch room, once someone asked for one")
    integrity: str = Field(
        description="ok; mismatch or broken when the stored record does not replay as stored (the room is closed)"
    )
    integrity_message: str | None = Field(description="what did not replay, when integrity is not ok")
    notices: list[dict[str, Any]] = Field(
        default_factory=list,
        description="codes with parameters: the room's record was made under other rules (rules_changed), "
        "content (content_changed) or before records pinned their start (old_format)",
    )


class SeatGranted(BaseModel):
    code: str
    seat: int | None = Field(description="your seat (null: every seat is a bot; watch as a spectator)")
    token: str | None = Field(description="your seat token: keep it secret; it opens /ws/{code}?token=...")
    room: RoomOut


class Ok(BaseModel):
    ok: bool


class UploadProblem(BaseModel):
    line: int | None
    field: str | None
    message: str
    severity: str | None = None


class UploadOut(BaseModel):
    value: str = Field(description="what to give the option when creating the room: upload:ID")
    name: str = Field(description="the file as kept (a CSV, GIFT or JSON bank is kept as the project's YAML)")
    bytes: int
    warnings: list[UploadProblem] = Field(description="what the importer could not carry over, line by line")


class ErrorDetail(BaseModel):
    code: str
    message: str
    params: dict[str, Any] = Field(
        default_factory=dict, description="the code's parameters, for a page to say it in its own words"
    )


class ErrorOut(BaseModel):
    detail: ErrorDetail


class FieldError(BaseModel):
    loc: list[str | int]
    msg: str
    type: str


class ValidationOut(BaseModel):
    detail: list[FieldError]


_WHY: dict[int, str] = {
    400: "bad_body: the body is not JSON text (e.g. not UTF-8)",
    401: "bad_token: the seat token is missing or opens no seat of this room",
    403: "not_over: published once the match is over",
    404: "unknown_room or unknown_game",
    409: "room_full, seat_taken, seat_reserved, room_over, not_over or room_broken",
    413: "too_large: the body is over the limit (max_body_bytes)",
    422: "a body that does not match the schema (a list of field errors), or bad_options, bad_bot, bad_seat, or "
    "for the player's name: name_required, name_too_long {max}, name_needs_letter, bad_name",
    429: "rate_limited or too_many_rooms: a per-address limit (see Retry-After)",
    503: "too_many_rooms (the server is full) or storage_error",
}


def answers(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The documented error answers of a route."""
    out: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        model: Any = ErrorOut
        if status == 422:
            model = ValidationOut | ErrorOut
        out[status] = {"model": model, "description": _WHY[status]}
    return out


#: Largest name a player may give (the models' max_length).
MAX_NAME = 40


def name_problem(errors: Iterable[Mapping[str, Any]]) -> tuple[str, str, dict[str, Any]] | None:
    """A specific code for a problem with the body's ``name`` (what a person types), or ``None``."""
    for error in errors:
        loc = tuple(error.get("loc", ()))
        if loc[-1:] != ("name",) or loc[:1] != ("body",):
            continue
        kind = str(error.get("type", ""))
        value = error.get("input")
        if kind == "string_too_short" or (isinstance(value, str) and not value.strip()):
            return "name_required", "enter a name so the others know who you are", {}
        if kind == "string_too_long":
            return "name_too_long", f"a name may be at most {MAX_NAME} characters long", {"max": MAX_NAME}
        if kind in ("string_pattern_mismatch", "value_error"):
            return "name_needs_letter", "a name needs at least one letter or digit", {}
        return "bad_name", "the name must be text of 1 to 40 characters with a letter or digit", {"max": MAX_NAME}
    return None
