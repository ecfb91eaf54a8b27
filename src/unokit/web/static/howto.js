/**
 * How to play (per variant, with the real card faces of cards.js), the house
 * rules of a room in plain words, the rule presets of the lobby and the
 * first-game hint. Dependency-free ES module.
 */

import { renderCard } from "./cards.js";
import { cardName, has, t } from "./i18n.js";

const esc = (s) =>
  String(s ?? "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");

/** The house rules a preset turns on (everything else: official). */
export const PRESETS = {
  official: {},
  party: { stacking: "same_symbol", jumpIn: true, sevenZero: true },
  hard: { drawUntilPlayable: true, forcedPlay: true },
};
export const HOUSE_SWITCHES = ["stacking", "jumpIn", "sevenZero", "drawUntilPlayable", "forcedPlay", "noBluff"];

/** Which preset a set of options is ("custom" when none matches). */
export function presetOf(options) {
  const on = {};
  for (const k of HOUSE_SWITCHES) {
    const v = options?.[k];
    if (v && v !== "off") on[k] = v;
  }
  for (const [name, rules] of Object.entries(PRESETS)) {
    const keys = Object.keys(rules);
    if (keys.length === Object.keys(on).length && keys.every((k) => on[k] === rules[k])) return name;
  }
  return "custom";
}

/** The house rules switched on in `options`, as [label, one-line explanation]. */
export function houseRules(options) {
  const out = [];
  for (const k of HOUSE_SWITCHES) {
    const v = options?.[k];
    if (!v || v === "off") continue;
    let label = t(`opt.${k}`);
    if (k === "stacking" && has(`opt.stacking.${v}`)) label = `${label}: ${t(`opt.stacking.${v}`)}`;
    out.push([label, t(`help.${k}`)]);
  }
  return out;
}

/** A short chip text for the table: "Official rules" or the preset name. */
export function rulesChip(options) {
  const p = presetOf(options);
  if (p === "official") return t("table.rules.official");
  if (p === "custom") return `${t("table.rules")}: ${houseRules(options).length}`;
  return `${t("table.rules")}: ${t(`preset.${p}`)}`;
}

const SAMPLES = {
  classic: [["R7", "light"], ["GD2", "light"], ["BS", "light"], ["YR", "light"], ["W", "light"], ["W4", "light"]],
  flip: [["RF|Pk3", "light"], ["RF|Pk3", "dark"], ["BD1|OrD5", "dark"], ["Y1|PkSE", "dark"], ["W2|WDC", "dark"]],
  flex: [["R5~G", "light"], ["GFD2", "light"], ["FW4", "light"], ["WAD", "light"], ["WTD", "light"]],
};

function cardRow(variant) {
  return (SAMPLES[variant] ?? [])
    .map(([c, side]) => {
      const name = cardName(c, side);
      return `<figure class="howto-card">${renderCard(c, { size: "sm", side, label: name })}<figcaption>${esc(name)}</figcaption></figure>`;
    })
    .join("");
}

/**
 * The how-to-play panel's HTML. `variant`: the one shown first; `options`:
 * the room's options (its house rules are listed), or null outside a room.
 */
export function howToHtml(variant, options) {
  const tabs = ["classic", "flip", "flex"]
    .map(
      (v) =>
        `<button type="button" class="btn small howto-tab ${v === variant ? "primary" : ""}" role="tab" aria-selected="${v === variant}" data-howto="${v}">${esc(t(`variant.${v}`))}</button>`,
    )
    .join("");
  let house = "";
  if (options) {
    const rules = houseRules(options);
    house = `<section class="howto-house" id="howto-house"><h3>${esc(t("howto.house"))}</h3>${
      rules.length
        ? `<ul>${rules.map(([l, d]) => `<li><strong>${esc(l)}</strong> — ${esc(d)}</li>`).join("")}</ul>`
        : `<p>${esc(t("howto.house.none"))}</p>`
    }</section>`;
  }
  return `<div class="panel howto-panel" data-variant="${esc(variant)}">
    <h2 id="howto-title">${esc(t("howto.title"))} — ${esc(t(`variant.${variant}`))}</h2>
    <div class="howto-tabs" role="tablist">${tabs}</div>
    <p>${esc(t("howto.goal"))}</p>
    <div class="howto-cards">${cardRow(variant)}</div>
    <p class="howto-special">${esc(t(`howto.${variant}.cards`))}</p>
    ${house}
    <p class="hint">${esc(t("howto.keys"))}</p>
    <div class="panel-actions"><button type="button" class="btn" id="howto-close">${esc(t("btn.close"))} <kbd>Esc</kbd></button></div>
  </div>`;
}

const HINT_KEY = "unokit.hintsDone";

export function hintDismissed() {
  try {
    return localStorage.getItem(HINT_KEY) === "1";
  } catch {
    return true;
  }
}

export function dismissHint() {
  try {
    localStorage.setItem(HINT_KEY, "1");
  } catch {
    /* ignore */
  }
}

export function hintHtml() {
  const touch = window.matchMedia?.("(pointer: coarse)").matches ?? false;
  return `<div class="hint-layer" id="hint-layer" role="note" aria-labelledby="hint-title">
    <strong id="hint-title">${esc(t("hint.title"))}</strong> <span>${esc(t(touch ? "hint.body" : "hint.body.mouse"))}</span>
    <button type="button" class="btn small" id="hint-dismiss">${esc(t("hint.dismiss"))}</button></div>`;
}
