// A refusal in words, and its parameters as people read them (docs/protocol.md, "rejected"): seat numbers become the seats' names,
// ids with a label (a colour, a topic) the page's own words. The shell knows no game: the server says which
// parameters are which (`err.seats`, `err.labels`), as each game declares them.

/**
 * A refusal's parameters as people read them: those the server marks as naming a seat (`err.seats`, declared
 * with the code) become the seat's name as the page shows it; a list of seats, their names joined.
 */
export function seatWords(params, seats, nameOf) {
  const out = { ...(params || {}) };
  for (const name of seats || []) {
    const value = out[name];
    if (Number.isInteger(value)) out[name] = nameOf(value);
    else if (Array.isArray(value) && value.every(Number.isInteger)) out[name] = value.map(nameOf).join(", ");
  }
  return out;
}

/**
 * A refusal's parameters whose values are ids with a label (`err.labels`: parameter -> key prefix, declared with
 * the code), as the page's own words: `prefix.value` translated when the game has that string; a list, joined.
 */
export function labelWords(params, labels, gameT) {
  const out = { ...(params || {}) };
  for (const [name, prefix] of Object.entries(labels || {})) {
    const say = (value) => (gameT.has?.(`${prefix}.${value}`) ? gameT(`${prefix}.${value}`) : String(value));
    const value = out[name];
    if (typeof value === "string") out[name] = say(value);
    else if (Array.isArray(value)) out[name] = value.map(say).join(", ");
  }
  return out;
}

/**
 * A refusal or error of the server in the page's words: `error.<code>` with its parameters (the game's strings
 * first when `tr` is a game's translator, then the shell's); the server's English message only for a code no
 * table knows (a newer server's), and the shell's "server error" when there is neither.
 */
export function errorWords(err, tr) {
  const key = `error.${err?.code}`;
  if (err?.code && tr.has?.(key)) return tr(key, err.params || {});
  return err?.message || tr("error.server");
}
