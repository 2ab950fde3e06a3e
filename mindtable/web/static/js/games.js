// Loading a game's browser module: games/<web_module>/index.js, its style.css and its strings.

import { h } from "./common.js";
import { loadGameStrings, makeT } from "./i18n.js";

const ROOT = new URL("../", import.meta.url);
const cache = new Map();

/** {module, t} for a game's web_module, or null when the game has no page. Throws if the module fails to load. */
export async function loadGame(webModule) {
  if (!webModule || !/^[a-z0-9][a-z0-9_-]*$/i.test(webModule)) return null;
  if (!cache.has(webModule)) {
    cache.set(
      webModule,
      (async () => {
        const base = new URL(`games/${webModule}/`, ROOT);
        if (!document.querySelector(`link[data-game-css="${webModule}"]`)) {
          document.head.append(h("link", { rel: "stylesheet", href: new URL("style.css", base).href, "data-game-css": webModule }));
        }
        const [module, strings] = await Promise.all([import(new URL("index.js", base).href), loadGameStrings(webModule)]);
        return { module, t: makeT(strings) };
      })(),
    );
  }
  return cache.get(webModule);
}

/** Seat label: the seat's name in the room, else "Seat N" (1-based for people). */
export function seatLabel(t, seats, seat) {
  const entry = (seats || []).find((s) => s.seat === seat);
  return entry?.name || t("seat.n", { n: seat + 1 });
}

/** Names as a list in the page's language: "Ana, Bea and Cai" / "Ana, Bea y Cai" / "Ana, Bea ja Cai". */
export function nameList(names, language) {
  try {
    return new Intl.ListFormat(language, { style: "long", type: "conjunction" }).format(names);
  } catch {
    return names.join(", ");
  }
}

/**
 * The game-over words of the shell, for every game: the headline (whose it is: "You won!", "A tie: you share
 * the win with Bea", "You lost."; nobody's for a spectator or a hot-seat page), who won or between whom the
 * tie is (`winners`, null in a cooperative game, where the headline says it), and the game's reason.
 * `nameOf(seat)` names a seat; `t` the shell's strings, `gameT` the game's.
 */
export function overWords(result, { seat = null, here = false, cooperative = false, nameOf, t, gameT, language = "en" }) {
  const winners = result?.winners || [];
  const mine = seat !== null && seat !== undefined && winners.includes(seat);
  const names = nameList(winners.map(nameOf), language);
  const others = nameList(winners.filter((s) => s !== seat).map(nameOf), language);
  let headline;
  if (seat === null || seat === undefined || here) headline = t("over.title");
  else if (mine) headline = cooperative ? t("over.team_won") : winners.length > 1 ? t("over.you_tied", { names: others }) : t("over.you_won");
  else if (winners.length) headline = t("over.you_lost");
  else headline = cooperative ? t("over.team_lost") : t("over.title");
  let line = null;
  if (!cooperative && winners.length === 1) line = t("over.winner", { name: names });
  else if (!cooperative && winners.length > 1) line = t("over.tie", { names });
  const reasonKey = `result.${result?.reason}`;
  const said = gameT?.has?.(reasonKey) ? gameT(reasonKey) : result?.reason || "";
  // A game's reason may be worded as a clause ("collected all six colours"): on its own line it starts a sentence.
  const reason = said ? said.charAt(0).toLocaleUpperCase(language) + said.slice(1) : "";
  return { headline, winners: line, reason, mine };
}
