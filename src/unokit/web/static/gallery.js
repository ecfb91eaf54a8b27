// The card gallery (gallery.html): a module file, as the CSP allows no inline script.
import { renderCard, renderBack, renderSymbol, parseCard, colorInfo } from "./cards.js";

const main = document.getElementById("gallery");
const LIGHT = ["R", "Y", "G", "B"];
const DARK = ["Pk", "Tl", "Or", "Pu"];
const range = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

function section(id, title, note) {
  const s = document.createElement("section");
  s.id = id;
  s.innerHTML = `<h2>${title}</h2>` + (note ? `<p class="note">${note}</p>` : "");
  main.appendChild(s);
  return s;
}
function row(parent, heading, extraClass = "") {
  if (heading) {
    const h = document.createElement("h3");
    h.textContent = heading;
    parent.appendChild(h);
  }
  const r = document.createElement("div");
  r.className = `row ${extraClass}`;
  parent.appendChild(r);
  return r;
}
function add(r, svg, caption) {
  const f = document.createElement("figure");
  f.innerHTML = svg + (caption ? `<figcaption>${caption}</figcaption>` : "");
  r.appendChild(f);
}
const cards = (r, notations, opts = {}) => notations.forEach((n) => add(r, renderCard(n, opts), n));

// Legend of colour-blind symbols.
const legend = document.getElementById("legend");
for (const [code, info] of Object.entries(colorInfo)) {
  const span = document.createElement("span");
  span.innerHTML = `${renderSymbol(code)} ${code} ${info.name} — ${info.symbol}`;
  legend.appendChild(span);
}

// --- Classic ---------------------------------------------------------
const classic = section("classic", "Classic UNO", "0–9, Skip, Reverse, Draw Two per colour; Wild, Wild Draw Four.");
for (const c of LIGHT) {
  cards(row(classic), [...range(0, 9).map((n) => `${c}${n}`), `${c}S`, `${c}R`, `${c}D2`]);
}
cards(row(classic, "Wilds"), ["W", "W4"]);

// --- Flip light ------------------------------------------------------
const flipL = section("flip-light", "UNO Flip — light faces", "1–9, Draw One, Skip, Reverse, Flip; Wild, Wild Draw Two.");
for (const c of LIGHT) {
  cards(row(flipL), [...range(1, 9).map((n) => `${c}${n}`), `${c}D1`, `${c}S`, `${c}R`, `${c}F`]);
}
cards(row(flipL, "Wilds"), ["W", "W2"]);

// --- Flip dark -------------------------------------------------------
const flipD = section("flip-dark", "UNO Flip — dark faces", "1–9, Draw Five, Skip Everyone, Reverse, Flip; Wild, Wild Draw Color.");
for (const c of DARK) {
  cards(row(flipD), [...range(1, 9).map((n) => `${c}${n}`), `${c}D5`, `${c}SE`, `${c}R`, `${c}F`]);
}
cards(row(flipD, "Wilds"), ["DW", "WDC"]);

// --- Flip physical cards (both sides) -------------------------------
const flipP = section("flip-physical", "UNO Flip — physical cards, both faces", "renderCard('light|dark', {side}).");
const physical = ["R3|WDC", "Y7|PkSE", "GF|Tl9", "BD1|OrD5", "W|PuF", "W2|DW"];
const pr = row(flipP);
for (const n of physical) {
  add(pr, renderCard(n, { side: "light" }), `${n} light`);
  add(pr, renderCard(n, { side: "dark" }), `${n} dark`);
}

// --- Flex ------------------------------------------------------------
const flex = section(
  "flex",
  "UNO Flex",
  "Numbers 1–8; with the flip icon (*); Flex numbers with a flex colour (~); actions; Flex actions; wilds.",
);
for (const c of LIGHT) {
  cards(row(flex, c === "R" ? "Numbers" : ""), range(1, 8).map((n) => `${c}${n}`));
}
for (const c of LIGHT) {
  cards(row(flex, c === "R" ? "Numbers with flip icon" : ""), range(1, 8).map((n) => `${c}${n}*`));
}
for (const c of LIGHT) {
  const others = LIGHT.filter((o) => o !== c);
  cards(row(flex, c === "R" ? "Flex numbers (main~flex colour)" : ""), range(1, 8).map((n) => `${c}${n}~${others[(n - 1) % 3]}`));
}
for (const c of LIGHT) {
  cards(row(flex, c === "R" ? "Actions and Flex actions" : ""), [`${c}S`, `${c}R`, `${c}D2`, `${c}FS`, `${c}FR`, `${c}FD2`]);
}
cards(row(flex, "Wilds"), ["WAF", "WAD", "WTD", "FW4"]);

// --- Sizes -----------------------------------------------------------
const sizes = section("sizes", "Sizes", "sm / md / lg.");
const sizeSamples = ["R5", "Y9", "GD2", "W4", "G6|Pk6", "B5~G"];
for (const size of ["sm", "md", "lg"]) {
  const r = row(sizes, size);
  for (const n of sizeSamples) add(r, renderCard(n, { size, side: "dark" }), n);
}

// --- States ----------------------------------------------------------
const states = section("states", "States", "plain · playable · selected · playable+selected");
const stateSamples = ["R7", "YS", "TlSE", "FW4"];
for (const [title, o] of [
  ["plain", {}],
  ["playable", { playable: true }],
  ["selected", { selected: true }],
  ["playable + selected", { playable: true, selected: true }],
]) {
  cards(row(states, title, "tall"), stateSamples, o);
}

// --- Backs -----------------------------------------------------------
const backs = section("backs", "Backs", "Classic, Flex, neutral Flip.");
for (const size of ["sm", "md", "lg"]) {
  const r = row(backs, size);
  for (const v of ["classic", "flex", "flip"]) add(r, renderBack(v, { size }), v);
}

// --- Phone hand ------------------------------------------------------
const handSec = section("hand", "Phone hand (12 cards, sm, overlapped)", "Only the left ~45% of each card is visible.");
const phone = document.createElement("div");
phone.className = "phone";
const hand = document.createElement("div");
hand.className = "card-hand";
const handCards = ["R0", "R7", "Y3", "Y9", "GS", "G6", "BR", "B2", "BD2", "R5~G", "W", "W4"];
hand.innerHTML = handCards
  .map((n, i) => renderCard(n, { size: "sm", playable: i % 3 === 0, selected: i === 4 }))
  .join("");
phone.appendChild(hand);
handSec.appendChild(phone);

// Sanity: parseCard is usable from the page too.
window.unokitCards = { renderCard, renderBack, parseCard, colorInfo };
document.body.dataset.cardCount = String(document.querySelectorAll("svg.card").length);
document.body.dataset.ready = "1";
