/**
 * Reading the legal commands of an observation — dependency-free ES module.
 *
 * The server lists every legal action as command text ("P1 PLAY W4 color=G",
 * "P1 DRAW", "P1 CATCH P2"...). The UI never decides legality itself: it
 * offers exactly these commands, and when one card has several legal commands
 * (a wild's colour, a Flex card's side, a target) it asks the player to choose
 * among them, one keyword at a time.
 *
 *   parseCommand(text)          -> {text, seat, verb, card, arg, kw}
 *   commandBody(text)           -> the text without the leading seat ("PLAY W4 color=G")
 *   legalCommands(obs)          -> parsed commands of obs.legal
 *   playsFor(cmds, card)        -> the PLAY commands of one card
 *   nextChoice(cmds)            -> {key, values} of the first keyword that differs, or null
 *   filterChoice(cmds, key, v)  -> the commands whose keyword `key` equals v
 */

/** The order in which several options of a card are asked. */
export const CHOICE_ORDER = ["side", "color", "target", "swap", "flipcolor"];

export function parseCommand(text) {
  const words = String(text).trim().split(/\s+/);
  const out = { text: String(text).trim(), seat: null, verb: "", card: null, arg: null, kw: {} };
  let i = 0;
  if (/^P\d+$/i.test(words[0] ?? "")) {
    out.seat = Number(words[0].slice(1));
    i = 1;
  }
  out.verb = (words[i] ?? "").toUpperCase();
  const rest = words.slice(i + 1);
  if (out.verb === "PLAY") {
    out.card = rest[0] ?? null;
    for (const w of rest.slice(1)) {
      const eq = w.indexOf("=");
      if (eq > 0) out.kw[w.slice(0, eq).toLowerCase()] = w.slice(eq + 1);
    }
  } else if (rest.length) {
    out.arg = rest.join(" ");
  }
  return out;
}

/** The command without its seat prefix, as the server expects it. */
export function commandBody(text) {
  return String(text)
    .trim()
    .replace(/^P\d+\s+/i, "");
}

export function legalCommands(obs) {
  return (obs?.legal ?? []).map(parseCommand);
}

export function hasVerb(cmds, verb) {
  return cmds.some((c) => c.verb === verb);
}

export function findVerb(cmds, verb) {
  return cmds.find((c) => c.verb === verb) ?? null;
}

export function playsFor(cmds, card) {
  return cmds.filter((c) => c.verb === "PLAY" && c.card === card);
}

/** Seats this seat may catch now (from "CATCH Pn" commands). */
export function catchTargets(cmds) {
  return cmds.filter((c) => c.verb === "CATCH").map((c) => Number(String(c.arg).replace(/^P/i, "")));
}

/**
 * Given the legal commands of one card, the first keyword (in CHOICE_ORDER)
 * whose value is not the same in all of them, with its distinct values in
 * order of appearance ("" for "absent"). null when nothing is left to choose.
 */
export function nextChoice(cmds) {
  if (cmds.length <= 1) return null;
  for (const key of CHOICE_ORDER) {
    const values = [];
    for (const c of cmds) {
      const v = c.kw[key] ?? "";
      if (!values.includes(v)) values.push(v);
    }
    if (values.length > 1) return { key, values };
  }
  return null;
}

export function filterChoice(cmds, key, value) {
  return cmds.filter((c) => (c.kw[key] ?? "") === value);
}

// ---- several cards in one play (house rule multiPlay, docs/rules.md §6) ----
// The server lists a play of several cards as "P0 PLAY R5+B5+G5": one order
// per set of cards (the first card, then the others in hand order). Any other
// order of the cards after the first is accepted as a command, so the table
// plays them in the order the player picked them (the last sets the colour).

/** The cards of a PLAY command, in its order ("R5+B5" -> ["R5", "B5"]). */
export function playCards(cmd) {
  return String(cmd.card ?? "").split("+");
}

/** Whether `cards` (a multiset) fits in `pool` (a multiset). */
function within(cards, pool) {
  const left = [...pool];
  for (const c of cards) {
    const i = left.indexOf(c);
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}

/** The PLAY commands that start with `first` and hold `rest` among the
 * cards after it (all of them when `exact`). */
function plays(cmds, first, rest, exact) {
  return cmds.filter((c) => {
    if (c.verb !== "PLAY") return false;
    const cards = playCards(c);
    if (cards[0] !== first) return false;
    const tail = cards.slice(1);
    return exact ? tail.length === rest.length && within(rest, tail) : within(rest, tail);
  });
}

/** Whether some play of several cards starts with `card`. */
export function startsMulti(cmds, card) {
  return plays(cmds, card, [], false).some((c) => playCards(c).length > 1);
}

/** The cards that may start a play of several cards holding `card`. */
export function multiFirsts(cmds, card) {
  const out = [];
  for (const c of cmds) {
    if (c.verb !== "PLAY" || !c.card.includes("+")) continue;
    const cards = playCards(c);
    if (cards.slice(1).includes(card) && !out.includes(cards[0])) out.push(cards[0]);
  }
  return out;
}

/** Whether `card` may be added to the picked cards `picked` (in order). */
export function canAdd(cmds, picked, card) {
  return plays(cmds, picked[0], [...picked.slice(1), card], false).length > 0;
}

/**
 * The legal commands playing exactly the cards `picked`, rewritten to play
 * them in the order picked (their keywords unchanged; `uno=true` added when
 * `uno`). Empty when these cards are not one legal play.
 */
export function pickedPlays(cmds, picked, uno = false) {
  if (!picked.length) return [];
  return plays(cmds, picked[0], picked.slice(1), true).map((c) => {
    const words = c.text.split(/\s+/);
    const at = words.findIndex((w) => w.toUpperCase() === "PLAY");
    words[at + 1] = picked.join("+");
    if (uno) words.push("uno=true");
    return parseCommand(words.join(" "));
  });
}
