"""Client messages of the WebSocket protocol (see ``docs/protocol.md``): parsing and schema validation.

Every problem gets a :class:`ProtocolError` with a stable code and a message saying what was wrong, where
and what is allowed.

>>> parse_message('{"type": "hello", "last_seq": 4}', 4096)
{'type': 'hello', 'last_seq': 4, 'stream': None}
>>> parse_message('{"type": "action", "id": "c1"}', 4096)
Traceback (most recent call last):
...
mindtable.server.protocol.ProtocolError: action message: missing field 'action' (the action, e.g. {"type": "play"})
"""

from __future__ import annotations

import json
from typing import Any

MAX_ID_LENGTH = 64
MAX_TYPE_LENGTH = 64
MAX_STREAM_LENGTH = 64

ERROR_CODES = (
    "bad_json",
    "bad_message",
    "too_large",
    "rate_limited",
    "not_a_seat",
    "unknown_room",
    "bad_token",
)

_FIELDS: dict[str, dict[str, str]] = {
    "hello": {"type": "", "last_seq": "", "stream": ""},
    "action": {"type": "", "id": "", "action": ""},
    "ping": {"type": ""},
}


class ProtocolError(Exception):
    """A message that breaks the protocol; sent back as ``{"kind": "error", "code", "message"}``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_message(text: str | bytes | None, max_bytes: int) -> dict[str, Any]:
    """Decode and validate one client message; raise :class:`ProtocolError` if it is not acceptable."""
    if text is None:
        raise ProtocolError("bad_message", 'empty frame; send a JSON object such as {"type": "ping"}')
    if isinstance(text, bytes):
        raise ProtocolError("bad_message", "binary frames are not accepted; send JSON as a text frame")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise ProtocolError("too_large", f"message of {size} bytes refused; the limit is {max_bytes} bytes")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError("bad_json", f"not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", f"a message must be a JSON object, got {type(data).__name__}")
    kind = data.get("type")
    if kind not in _FIELDS:
        raise ProtocolError(
            "bad_message", f"field 'type' must be one of {', '.join(repr(k) for k in _FIELDS)}, got {kind!r}"
        )
    unknown = [key for key in data if key not in _FIELDS[kind]]
    if unknown:
        raise ProtocolError(
            "bad_message",
            f"{kind} message: unknown field {unknown[0]!r}; allowed fields: {', '.join(_FIELDS[kind])}",
        )
    if kind == "hello":
        last_seq = data.get("last_seq", 0)
        if not _int(last_seq) or last_seq < 0:
            raise ProtocolError(
                "bad_message", f"hello message: 'last_seq' must be a whole number >= 0 (0: none seen), got {last_seq!r}"
            )
        stream = data.get("stream")
        if stream is not None and (not isinstance(stream, str) or len(stream) > MAX_STREAM_LENGTH):
            raise ProtocolError(
                "bad_message", "hello message: 'stream' must be the string the last welcome gave, or null"
            )
        return {"type": "hello", "last_seq": last_seq, "stream": stream}
    if kind == "ping":
        return {"type": "ping"}
    # action
    client_id = data.get("id")
    if client_id is not None and (not isinstance(client_id, (str, int)) or isinstance(client_id, bool)):
        raise ProtocolError("bad_message", f"action message: 'id' must be a string or a number, got {client_id!r}")
    if isinstance(client_id, str) and len(client_id) > MAX_ID_LENGTH:
        raise ProtocolError("bad_message", f"action message: 'id' is longer than {MAX_ID_LENGTH} characters")
    if "action" not in data:
        raise ProtocolError(
            "bad_message", 'action message: missing field \'action\' (the action, e.g. {"type": "play"})'
        )
    action = data["action"]
    if not isinstance(action, dict):
        raise ProtocolError(
            "bad_message", f"action message: 'action' must be a JSON object, got {type(action).__name__}"
        )
    action_type = action.get("type")
    if not isinstance(action_type, str) or not action_type or len(action_type) > MAX_TYPE_LENGTH:
        raise ProtocolError(
            "bad_message",
            f"action message: 'action.type' must be a non-empty string of at most {MAX_TYPE_LENGTH} characters, "
            f"got {action_type!r}",
        )
    # The server decides who acts and when: whatever the client put in "seat" and "at" is dropped.
    cleaned = {key: value for key, value in action.items() if key not in ("seat", "at")}
    return {"type": "action", "id": client_id, "action": cleaned}


def encode(message: dict[str, Any]) -> str:
    """Compact JSON for a server message."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)
