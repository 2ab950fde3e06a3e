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
