// A refusal's parameters as people read them (docs/protocol.md, "rejected"): seat numbers become the seats' names,
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
