"""The move table's speed machinery: listing and check code generated from its declarations.

A :class:`~mindtable.core.moves.MoveTable` turns its declarations into small Python functions once, when the
game is loaded: per phase, one function that lists every move of the phase (gates asked once, values appended
inline), and per move type, one function that checks a plain action in one pass. They are generated from the
same ``Move`` and ``Param`` objects the general code in :mod:`mindtable.core.moves` reads — nothing is written
twice by hand — and remove the per-call interpretation of the declaration (looping over moves, unpacking
entries, reading attributes), which was most of the engine's own cost per action.
``tests/core/test_fast_paths.py`` holds them equal to the general path on random positions of every game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mindtable.core.codes import MAX_TIME_MS
from mindtable.core.errors import IllegalAction
from mindtable.core.moves import SAFE_INT, _always, gate_needs, gate_opens, json_safe

if TYPE_CHECKING:
    from mindtable.core.moves import Domain, Move, MoveTable


def _compile(name: str, lines: list[str], namespace: dict[str, Any]) -> Callable[..., Any]:
    source = "\n".join(lines) + "\n"
    code = compile(source, f"<move table: {name}>", "exec")
    exec(code, namespace)  # the source is generated here from the table's own declarations
    function: Callable[..., Any] = namespace[name]
    function.__doc__ = source  # readable when debugging: help(table._listers[phase])
    return function


def _gate_lines(
    i: int, gate: Any, asked: dict[Any, str], needed: dict[Any, str], namespace: dict[str, Any], lines: list[str]
) -> str:
    """Write the lines that ask entry ``i``'s gate (once per gate: it only reads the state; through its ``opens``
    when it declares one, after its ``needs``, asked once for all the gates that share it) and open the block
    its entry is listed in; the indent of that block."""
    if gate is None:
        return "    "
    gate_var = asked.get(gate)
    if gate_var is None:
        gate_var = asked[gate] = f"open{i}"
        opens, needs = gate_opens(gate), gate_needs(gate)
        if opens is not None:
            namespace[f"opens{i}"] = opens
            ask = f"opens{i}(state, seat, at)"
        else:
            namespace[f"gate{i}"] = gate
            ask = f"gate{i}(state, seat, at) is None"
        if needs is not None:
            needs_var = needed.get(needs)
            if needs_var is None:
                needs_var = needed[needs] = f"needs{i}"
                namespace[f"needs_of{i}"] = needs
                lines.append(f"    {needs_var} = needs_of{i}(state)")
            ask = f"{needs_var} and {ask}"
        lines.append(f"    {gate_var} = {ask}")
    lines.append(f"    if {gate_var}:")
    return "        "


def compile_listing(
    table: MoveTable[Any], entries: tuple[Any, ...], name: str = "listing"
) -> Callable[..., list[dict[str, Any]]]:
    """``legal_actions`` for the moves of ``entries`` (a phase's listing), as one generated function."""
    namespace: dict[str, Any] = {"table": table}
    lines = [f"def {name}(state, seat, at):", "    actions = []", "    append = actions.append"]
    asked: dict[Any, str] = {}  # gate -> its answer's variable: a gate only reads the state, so ask it once
    needed: dict[Any, str] = {}  # a gate's ``needs`` -> its answer's variable: asked once for all its gates
    for i, (kind, gate, move, single) in enumerate(entries):
        namespace[f"move{i}"] = move
        indent = _gate_lines(i, gate, asked, needed, namespace, lines)
        if single is not None:
            param_name, domain, skip_none = single
            namespace[f"domain{i}"] = domain
            lines.append(f"{indent}for value in domain{i}(state, seat):")
            lines.append(f"{indent}    if value is not None:")
            lines.append(f"{indent}        append({{'type': {kind!r}, 'seat': seat, {param_name!r}: value}})")
            if not skip_none:
                lines.append(f"{indent}    else:")
                lines.append(f"{indent}        append({{'type': {kind!r}, 'seat': seat}})")
        elif move.params and all(_static_input(p) for p in move.params):
            # typed inputs only, whose description never depends on the state (a text, a flag, fixed bounds)
            inputs = [p.schema(None, None) for p in move.params]
            lines.append(f"{indent}append({{'type': {kind!r}, 'seat': seat, 'inputs': {inputs!r}}})")
        elif move.params:
            lines.append(f"{indent}actions.extend(table._entries(move{i}, state, seat))")
        else:
            lines.append(f"{indent}append({{'type': {kind!r}, 'seat': seat}})")
    lines.append("    return actions")
    return _compile(name, lines, namespace)


def compile_types(
    table: MoveTable[Any], entries: tuple[Any, ...], name: str = "types"
) -> Callable[..., tuple[str, ...]]:
    """The types of the moves the listing of ``entries`` would list, each once and in its order (what
    ``Match.bot_legal_types`` gives), as one generated function: the gates asked as the listing asks them, and a
    move with listed choices counted when it has one to list, without building any entry."""
    namespace: dict[str, Any] = {"table": table}
    lines = [f"def {name}(state, seat, at):", "    out = []", "    append = out.append"]
    asked: dict[Any, str] = {}
    needed: dict[Any, str] = {}
    for i, (kind, gate, move, single) in enumerate(entries):
        namespace[f"move{i}"] = move
        indent = _gate_lines(i, gate, asked, needed, namespace, lines)
        if single is not None:
            _name, domain, skip_none = single
            namespace[f"domain{i}"] = domain
            lines.append(f"{indent}for value in domain{i}(state, seat):")
            if skip_none:  # a None value is not listed: only another value makes an entry
                lines.append(f"{indent}    if value is not None:")
                lines.append(f"{indent}        append({kind!r})")
                lines.append(f"{indent}        break")
            else:
                lines.append(f"{indent}    append({kind!r})")
                lines.append(f"{indent}    break")
        elif any(p.listed for p in move.params):  # (typed inputs alone make one entry, whatever they describe)
            lines.append(f"{indent}if table._entries(move{i}, state, seat):")
            lines.append(f"{indent}    append({kind!r})")
        else:
            lines.append(f"{indent}append({kind!r})")
    lines.append("    return tuple(out)")
    return _compile(name, lines, namespace)


def compile_check(table: MoveTable[Any], move: Move[Any], name: str = "check") -> Callable[..., dict[str, Any] | None]:
    """:meth:`MoveTable.quick_normalize` for one move type, as one generated function."""
    namespace: dict[str, Any] = {
        "fields": move.fields,
        "IllegalAction": IllegalAction,
        "json_safe": json_safe,
        "SAFE_INT": SAFE_INT,
        "MAX_TIME_MS": MAX_TIME_MS,
        "phases": frozenset(move.phases),
        "gate": move.gate,
    }
    kind = move.type
    lines = [
        f"def {name}(state, action, players, clock, realtime):",
        "    for key in action:",
        "        if key not in fields:",
        "            return None",
        "    seat = action.get('seat')",
    ]
    if move.system:
        lines += ["    if seat is not None:", "        return None"]
    else:
        lines += ["    if type(seat) is not int or not 0 <= seat < players:", "        return None"]
    lines += [
        "    at = action.get('at')",
        "    if at is None:",
        "        if realtime or 'at' in action:",
        "            return None",
        "    elif type(at) is not int or not clock <= at <= MAX_TIME_MS:",
        "        return None",
    ]
    if move.phases:
        lines += [f"    if state[{table.phase_key!r}] not in phases:", "        return None"]
    if move.gate is not _always:
        opens = gate_opens(move.gate)
        if opens is not None:
            namespace["opens"] = opens
            lines += ["    if not opens(state, seat, at):", "        return None"]
        else:
            lines += ["    if gate(state, seat, at) is not None:", "        return None"]
    lines.append(
        f"    result = {{'type': {kind!r}}}" if move.system else f"    result = {{'type': {kind!r}, 'seat': seat}}"
    )
    lines += ["    if at is not None:", "        result['at'] = at"]
    for i, param in enumerate(move.params):
        namespace[f"param{i}"] = param
        lines += [
            f"    value = action.get({param.name!r})",
            "    if value is not None and not (type(value) is int and -SAFE_INT <= value <= SAFE_INT):",
            "        if not json_safe(value):",
            "            return None",
        ]
        if param.default is not None:
            namespace[f"default{i}"] = param.default
            lines += ["    if value is None:", f"        value = default{i}(state, seat)"]
        if param.kind == "choice" and param.domain is not None:
            namespace[f"domain{i}"] = param.domain
            lines += [
                "    kind = type(value)",
                f"    for item in domain{i}(state, seat):",
                "        if item == value and type(item) is kind:",  # True is not the card 1 (see _member)
                "            break",
                "    else:",
                "        return None",
            ]
        else:
            lines += [
                "    try:",
                f"        value = param{i}.accept(state, seat, {kind!r}, value)",
                "    except IllegalAction:",
                "        return None",
            ]
        lines += ["    if value is not None:", f"        result[{param.name!r}] = value"]
    lines.append("    return result")
    return _compile(name, lines, namespace)


def _static_input(param: Any) -> bool:
    """A typed parameter whose input description (``Param.schema``) is the same in every state."""
    if param.kind in ("text", "bool"):
        return True
    return param.kind == "int" and not callable(param.minimum) and not callable(param.maximum)


def single_param(move: Move[Any]) -> tuple[str, Domain[Any], bool] | None:
    """The listing fast path: a move with exactly one parameter, a listed choice."""
    if len(move.params) != 1:
        return None
    param = move.params[0]
    if param.kind != "choice" or param.domain is None:
        return None
    return param.name, param.domain, param.default is not None
