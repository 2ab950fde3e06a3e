"""A fast reader for the plain block-YAML that bank files are written in, or a :class:`Fallback`.

Even with LibYAML's C parser, PyYAML spends most of a large bank's load turning parser events into Python
objects one by one (about 20 µs per question). Bank files, whether written by ``yaml.dump`` or by hand, use a
small part of YAML: block mappings and sequences (the ``- key: value`` compact form and the indentless
``key:\\n- item`` sequence included), plain and single-quoted texts (folded onto several lines when long, as
``yaml.dump`` writes them), one-line double-quoted texts, one-line flow sequences of scalars
(``accept: [Sancho, Panza]``) and comments. This module reads exactly that part, a line at a time with str
methods, and returns what ``yaml.load(text, Loader=bank._Loader)`` returns for it.

It is a shortcut, never a second YAML dialect: whatever it is not sure about — tabs, carriage returns, control
or special characters anywhere, anchors, aliases, tags, block scalars (``|``, ``>``), a double-quoted text or a
flow sequence over several lines, a quoted key, a flow mapping, document markers, odd indentation — raises
:class:`Fallback`, and the caller parses the text the ordinary way (so every error, and the line it names,
stays PyYAML's). Plain scalars that may be something other than text (``12``, ``true``, ``null``,
``2024-01-01``) are resolved by the very resolver and constructor the loader uses (handed in as ``resolve``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any


class Fallback(Exception):
    """The text uses YAML this reader does not handle: parse it the ordinary way."""


# Bytes a bank text may hold in the shortcut, once encoded: printable ASCII and the line feed. Everything else
# below 0x80 (tab, carriage return, controls, DEL) makes the reader step aside.
_ASCII_OK = bytes(range(0x20, 0x7F)) + b"\n"
# Non-ASCII characters PyYAML treats specially (C1 controls with NEL, the line and paragraph separators, the
# byte order mark, the non-characters U+FFFE/U+FFFF), as UTF-8.
_SPECIAL_UTF8 = re.compile(b"\xc2[\x80-\x9f]|\xe2\x80[\xa8\xa9]|\xef\xbb\xbf|\xef\xbf[\xbe\xbf]")
# The first characters of the plain scalars the loader's resolver may read as other than text (a test checks it
# against the loader's resolvers); any other plain scalar is text.
MAYBE_NOT_TEXT = frozenset("0123456789+-.~nNtTfF<=")
# A plain scalar may not start with these (PyYAML would read an indicator, or an error); "-" is allowed when
# followed by something other than a space or another "-" (a negative number, "-x").
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
# A plain scalar starting with none of these, on a line without " #" or ": " and not ending in a space or a
# colon, is the text itself.
_SPECIAL_START = _INDICATORS | MAYBE_NOT_TEXT | frozenset(" ")  # (the hash and the quotes are indicators)
# The first characters of the plain scalars that may be other than text and are no indicator ("-5" is left to
# the general path).
_RESOLVABLE = MAYBE_NOT_TEXT - _INDICATORS
_SINGLE = re.compile(r"'((?:[^']|'')*)'(?: +(?:#.*)?)?")
_DOUBLE = re.compile(r'"((?:[^"\\]|\\.)*)"(?: +(?:#.*)?)?')
_ESCAPE = re.compile(r"\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)")
_ESCAPES = {
    "0": "\0",
    "a": "\x07",
    "b": "\x08",
    "t": "\t",
    "n": "\n",
    "v": "\x0b",
    "f": "\x0c",
    "r": "\r",
    "e": "\x1b",
    " ": " ",
    '"': '"',
    "/": "/",
    "\\": "\\",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
}
# A one-line flow sequence of scalars: plain items hold no flow indicator, colon or hash (and start as a plain
# scalar may), quoted items are complete; no trailing comma, no nesting.
_FLOW_PLAIN = r"[^\s\-?:,\[\]{}#&*!|>'\"%@`][^:#,\[\]{}]*?"
_FLOW_ITEM = rf"'(?:[^']|'')*'|\"(?:[^\"\\]|\\.)*\"|{_FLOW_PLAIN}"
_FLOW_SEQUENCE = re.compile(rf"\[( *(?:(?:{_FLOW_ITEM})(?: *, *(?:{_FLOW_ITEM}))*)? *)\](?: +(?:#.*)?)?")
_FLOW_ITEMS = re.compile(rf" *({_FLOW_ITEM}) *(?:,|$)")


def _check_characters(text: str) -> None:
    """Fall back on any character PyYAML reads specially or refuses (see the module docstring)."""
    if text.isascii():
        if text.encode("ascii").translate(None, _ASCII_OK):
            raise Fallback
        return
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        raise Fallback from None
    if data.translate(None, _ASCII_OK + bytes(range(0x80, 0x100))) or _SPECIAL_UTF8.search(data):
        raise Fallback


def _unescape(match: re.Match[str]) -> str:
    code = match.group(1)
    if len(code) == 1:
        if code not in _ESCAPES:
            raise Fallback
        return _ESCAPES[code]
    char = chr(int(code[1:], 16))
    if "\ud800" <= char <= "\udfff":
        raise Fallback  # a surrogate: let PyYAML decide
    return char


def load(text: str, resolve: Callable[[str], Any], lines: list[int] | None = None) -> Any:
    """``yaml.load(text, Loader=bank._Loader)`` for the block-YAML of bank files, or :class:`Fallback`.

    ``resolve`` turns a plain scalar that may be other than text into its value (the loader's own resolver and
    constructor). ``lines`` (when given) receives the 1-based line of each item of the top-level
    ``questions`` list, as the parser's marks would give it.
    """
    _check_characters(text)
    indicators, maybe_not_text = _INDICATORS, MAYBE_NOT_TEXT
    resolved: dict[str, Any] = {}  # the values of plain scalars that needed the resolver, by their text
    keys: dict[str, Any] = {}  # the keys seen, by their text (one object for each: lookups compare identity)

    def scalar(rest: str) -> Any:
        """The value of a one-line scalar ``rest`` (not empty, no comment at its start)."""
        first = rest[0]
        if first == "'":
            m = _SINGLE.fullmatch(rest)
            if m is None:
                raise Fallback  # goes on to the next line, or something follows it
            return m.group(1).replace("''", "'")
        if first == '"':
            m = _DOUBLE.fullmatch(rest)
            if m is None:
                raise Fallback
            value = m.group(1)
            return _ESCAPE.sub(_unescape, value) if "\\" in value else value
        if first == "[":
            return flow_sequence(rest)
        if first in indicators and (first != "-" or len(rest) == 1 or rest[1] == " " or rest[1] == "-"):
            raise Fallback
        cut = rest.find(" #")
        if cut >= 0:
            rest = rest[:cut]
        if rest[-1] == " ":
            rest = rest.rstrip(" ")
        if ": " in rest or rest[-1] == ":":
            raise Fallback  # a mapping where PyYAML reports an error
        return plain(rest)

    def plain(value: str) -> Any:
        if value[0] not in maybe_not_text:
            return value
        out = resolved.get(value, resolved)
        if out is resolved:
            try:
                out = resolved[value] = resolve(value)
            except Exception:  # a merge key "<<", an impossible date …: PyYAML's own path says what it is
                raise Fallback from None
        return out

    def flow_sequence(rest: str) -> list[Any]:
        m = _FLOW_SEQUENCE.fullmatch(rest)
        if m is None:
            raise Fallback
        out: list[Any] = []
        for item in _FLOW_ITEMS.findall(m.group(1)):
            first = item[0]
            if first == "'" or first == '"':
                out.append(scalar(item))
            else:
                out.append(plain(item.rstrip(" ")))
        return out

    if lines is None:
        lines = []
    special, resolvable = _SPECIAL_START, _RESOLVABLE
    root: Any = None
    cur: Any = None  # the innermost open collection
    cur_indent = -1  # its column (of its keys, or of its dashes)
    cur_map = False  # whether it is a mapping (else a list)
    stack: list[tuple[Any, int, bool]] = []  # the open collections around ``cur``
    pending: Any = None  # (collection, key or index, column) of an entry whose value may be on the next lines
    questions: Any = None  # the top-level questions list, once seen
    # A plain text that may go on to the next lines (as yaml.dump folds long texts): the number of its last line
    # (0: none), its key in ``cur`` (-1: the last item of a list) and its text so far.
    open_number, open_text = 0, ""
    open_key: Any = None
    rows = enumerate(text.split("\n"), 1)
    for number, line in rows:
        s = line.lstrip(" ")
        if not s or s[0] == "#":
            if s:
                open_number = 0  # a comment ends a plain text
            continue
        indent = len(line) - len(s)
        previous, open_number = open_number, 0
        dash = s[0] == "-" and (len(s) == 1 or s[1] == " ")
        if pending is not None:
            owner, slot, column = pending
            pending = None
            if indent > column or (dash and indent == column and type(owner) is dict):
                # the entry's value is the block that starts here (at the same column: an indentless list)
                new: Any = [] if dash else {}
                owner[slot] = new
                if owner is root and slot == "questions" and dash:
                    questions = new
                elif owner is questions:
                    lines[-1] = number
                stack.append((cur, cur_indent, cur_map))
                cur, cur_indent, cur_map = new, indent, not dash
        elif cur is None:
            if indent:
                raise Fallback
            root = cur = [] if dash else {}
            cur_indent, cur_map = 0, not dash
        if indent != cur_indent or cur_map is dash:
            if indent > cur_indent:
                # more indented than the open collection: the next line of its last plain text, or an error
                if not previous or s[0] in indicators or ": " in s or " #" in s or s[-1] == ":":
                    raise Fallback
                # folded as PyYAML folds it: one line break is a space, each blank line a line break
                open_text += (" " if number == previous + 1 else "\n" * (number - previous - 1)) + s.rstrip(" ")
                cur[open_key] = plain(open_text)  # "12" is a number, "12 b" a text
                open_number = number
                continue
            # the line closes collections (or is an error)
            while indent < cur_indent:
                if not stack:
                    raise Fallback
                cur, cur_indent, cur_map = stack.pop()
            if indent != cur_indent:
                raise Fallback  # between the columns of two open collections
            if not cur_map and not dash:
                # the end of an indentless list (a mapping's value at the mapping's column), or an error
                if not stack or stack[-1][1] != indent or not stack[-1][2]:
                    raise Fallback
                cur, cur_indent, cur_map = stack.pop()
            if cur_map and dash:
                raise Fallback
        if dash:
            # "- item" of the list ``cur``
            rest = s[2:] if len(s) > 2 and s[2] != " " else s[1:].lstrip(" ")
            if not rest or rest[0] == "#":
                cur.append(None)
                if cur is questions:
                    lines.append(number)
                pending = (cur, len(cur) - 1, indent)
                continue
            key, sep, value = rest.partition(": ")
            if not sep and rest[-1] == ":":
                key, sep = rest[:-1], ":"
            unknown = False
            if sep:
                known = keys.get(key, keys)
                if known is keys and key.isidentifier():
                    known = keys[key] = plain(key)
                unknown = known is keys
                key = known
            if not sep or unknown:
                if cur is questions:
                    lines.append(number)
                first = rest[0]
                if (
                    first not in special
                    and ": " not in rest
                    and " #" not in rest
                    and rest[-1] != " "
                    and rest[-1] != ":"
                ):
                    open_number, open_key, open_text = number, -1, rest  # plain text (the most common item)
                elif first == "'" and rest.find("'", 1) == len(rest) - 1:
                    rest = rest[1:-1]  # 'text' with no quote inside and nothing after it
                elif first == "'" and _quote_opens(rest):
                    rest = _quoted_text(rest, rows, cur_indent)  # takes the lines up to the closing quote
                elif (
                    first in resolvable
                    and ": " not in rest
                    and " #" not in rest
                    and rest[-1] != " "
                    and rest[-1] != ":"
                ):
                    open_number, open_key, open_text = number, -1, rest
                    rest = plain(rest)  # a number, true, null … or a text starting like one
                else:
                    rest = scalar(rest)
                cur.append(rest)
                continue
            # "- key: value": a mapping opens at the key's column
            new = {}
            cur.append(new)
            if cur is questions:
                lines.append(number)
            stack.append((cur, cur_indent, cur_map))
            cur, cur_indent, cur_map = new, indent + len(s) - len(rest), True
        else:
            # "key: value" of the mapping ``cur``
            key, sep, value = s.partition(": ")
            if not sep:
                if s[-1] != ":":
                    raise Fallback
                key = s[:-1]
            known = keys.get(key, keys)
            if known is keys:
                if not key.isidentifier():
                    raise Fallback  # a quoted, complex or odd key, a scalar where a key belongs …
                known = keys[key] = plain(key)
            key = known
        if not value or value[0] in special:
            # empty, quoted, a number, true, null, a flow list, an indicator … (or spaces before any of them)
            if value and value[0] == " ":
                value = value.lstrip(" ")
            if not value or value[0] == "#":
                cur[key] = None
                pending = (cur, key, cur_indent)
                continue
            if value[0] == "'" and value.find("'", 1) == len(value) - 1:
                value = value[1:-1]  # 'text' with no quote inside and nothing after it
            elif value[0] == "'" and _quote_opens(value):
                value = _quoted_text(value, rows, cur_indent)  # takes the lines up to the closing quote
            elif (
                value[0] in resolvable
                and ": " not in value
                and " #" not in value
                and value[-1] != " "
                and value[-1] != ":"
            ):
                open_number, open_key, open_text = number, key, value
                value = plain(value)  # a number, true, null … or a text starting like one
            else:
                value = scalar(value)
                if type(value) is list and cur is root and key == "questions":
                    questions = value
                    lines.extend([number] * len(value))
        elif ": " in value or " #" in value or value[-1] == " " or value[-1] == ":":
            value = scalar(value)  # a comment after it, trailing spaces (or an error)
        else:
            open_number, open_key, open_text = number, key, value  # plain text (the most common value)
        cur[key] = value
    if cur is None:
        raise Fallback  # nothing but comments: let PyYAML say what that is
    return root


_CLOSING_QUOTE = re.compile(r"((?:[^']|'')*)'(?: +(?:#.*)?)?")


def _quote_opens(value: str) -> bool:
    """Whether ``value`` (starting with a quote) opens a single-quoted text that goes on to the next line: no
    closing quote on this line (``''`` is a quote inside)."""
    return "'" not in value[1:].replace("''", "")


def _quoted_text(first: str, rows: Iterator[tuple[int, str]], column: int) -> str:
    """The single-quoted text that ``first`` opens (a line's value, from its quote on), taking its next lines
    from ``rows`` up to the closing quote. Folded as PyYAML folds it: the line break between two lines becomes a
    space, each blank line a line break, and the spaces around a line break go."""
    parts = [first[1:].rstrip(" ")]
    blanks = 0
    for _, line in rows:
        t = line.lstrip(" ")
        if not t:
            blanks += 1
            continue
        if len(line) - len(t) <= column:
            raise Fallback  # not indented under its key: let PyYAML decide
        closing = _CLOSING_QUOTE.fullmatch(t)
        if closing is not None:
            part = closing.group(1)
        elif _quote_opens("'" + t):
            part = t.rstrip(" ")
        else:
            raise Fallback  # something after the closing quote
        parts.append((" " if not blanks else "\n" * blanks) + part)
        if closing is not None:
            return "".join(parts).replace("''", "'")
        blanks = 0
    raise Fallback  # the quote is never closed
