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

/**
 * The rules registry of the server (/api/meta: `house_rules`, `options`,
 * `presets`; unokit.engine.options), installed by useRegistry(meta). Until
 * then (or without a server) the house rules of docs/rules.md §6 and the
 * presets Official and Party.
 */
const DEFAULTS = {
  stacking: "off", jumpIn: false, sevenZero: false, drawUntilPlayable: false, forcedPlay: false, noBluff: false,
  deflect: "off", zeroRotate: false, sevenSwap: false, multiPlay: "off", finishRestriction: "off", handLimit: 0,
  mercy: 0, teams: "off", wildDrawChallenge: "on", mustPlayDrawn: false, shuffleSeats: false,
};
/** The house rules a preset turns on (everything else: official), by lower-case name. */
export const PRESETS = {
  official: {},
  party: { stacking: "same_symbol", jumpIn: true, sevenZero: true, drawUntilPlayable: true },
};
/** Every preset of the registry, in order: {key, name, options, playable, why}. */
export const PRESET_LIST = [
  { key: "official", name: "Official", options: {}, playable: true, why: null },
  { key: "party", name: "Party", options: PRESETS.party, playable: true, why: null },
];
/** The house rules the engine plays, in the order of the rules. */
export const HOUSE_SWITCHES = ["stacking", "jumpIn", "sevenZero", "drawUntilPlayable", "forcedPlay", "noBluff",
  "deflect", "zeroRotate", "sevenSwap", "finishRestriction", "handLimit", "teams", "wildDrawChallenge",
  "mustPlayDrawn", "shuffleSeats"];

/** Take the server's registry: its house rules, their defaults and its presets. */
export function useRegistry(meta) {
  if (!meta?.house_rules || !meta?.options) return;
  HOUSE_SWITCHES.splice(0, HOUSE_SWITCHES.length, ...meta.house_rules.filter((k) => k in meta.options));
  for (const k of HOUSE_SWITCHES) DEFAULTS[k] = meta.options[k].default;
  if (!Array.isArray(meta.presets)) return;
  for (const k of Object.keys(PRESETS)) delete PRESETS[k];
  PRESET_LIST.splice(0, PRESET_LIST.length);
  for (const p of meta.presets) {
    const key = String(p.name).toLowerCase();
    PRESET_LIST.push({ key, name: p.name, options: p.options, playable: Boolean(p.playable), why: p.why ?? null });
    if (p.playable) PRESETS[key] = p.options;
  }
}

/** Whether house rule `k` is away from its default (switched on) in `options`. */
export function ruleOn(k, options) {
  const v = options?.[k];
  return v !== undefined && v !== null && v !== DEFAULTS[k] && !(DEFAULTS[k] === false && v === "off");
}

/** Which preset a set of options is ("custom" when none matches). */
export function presetOf(options) {
  const on = HOUSE_SWITCHES.filter((k) => ruleOn(k, options));
  for (const [name, rules] of Object.entries(PRESETS)) {
    const keys = Object.keys(rules).filter((k) => rules[k] !== DEFAULTS[k]);
    if (keys.length === on.length && keys.every((k) => options?.[k] === rules[k])) return name;
  }
  return "custom";
}

/** A rule's value in words: "Stacking draw cards: Same card only", "Hand limit: 12". */
function ruleLabel(k, v) {
  let label = t(`opt.${k}`);
  if (typeof v === "string" && has(`opt.${k}.${v}`)) label = `${label}: ${t(`opt.${k}.${v}`)}`;
  else if (typeof v === "number") label = `${label}: ${v}`;
  return label;
}

/** The house rules switched on in `options`, as [label, one-line explanation]. */
export function houseRules(options) {
  return HOUSE_SWITCHES.filter((k) => ruleOn(k, options)).map((k) => [ruleLabel(k, options[k]), t(`help.${k}`)]);
}

/** A short chip text for the table: "Official rules" or the preset name. */
export function rulesChip(options) {
  const p = presetOf(options);
  if (p === "official") return t("table.rules.official");
  if (p === "custom") return `${t("table.rules")}: ${houseRules(options).length}`;
  return `${t("table.rules")}: ${t(`preset.${p}`)}`;
}

/** The active house rules as chips (one per rule, its one-line explanation as title). */
export function ruleChipsHtml(options) {
  const on = HOUSE_SWITCHES.filter((k) => ruleOn(k, options));
  if (!on.length) return "";
  const chips = on
    .map((k) => {
      const v = options[k];
      // short on the table; the value and the rule's line in its title
      return `<li class="rule-chip" data-rule="${esc(k)}" title="${esc(`${ruleLabel(k, v)} — ${t(`help.${k}`)}`)}">${esc(t(`chip.${k}`, { v }))}</li>`;
    })
    .join("");
  return `<ul class="rule-chips" id="rule-chips" aria-label="${esc(t("chips.label"))}">${chips}</ul>`;
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

/** The first-game hint; `multi`: the table plays several cards of one number
 * at once (house rule multiPlay), where a click picks a card instead of playing it. */
export function hintHtml(multi = false) {
  const touch = window.matchMedia?.("(pointer: coarse)").matches ?? false;
  const mode = touch ? "" : ".mouse";
  const body = t(`hint.body${mode}`) + (multi ? ` ${t(`hint.multi${mode}`)}` : "");
  return `<div class="hint-layer" id="hint-layer" role="note" aria-labelledby="hint-title">
    <strong id="hint-title">${esc(t("hint.title"))}</strong> <span>${esc(body)}</span>
    <button type="button" class="btn small" id="hint-dismiss">${esc(t("hint.dismiss"))}</button></div>`;
}

// ---- teams, players out of the match, the pending draw (observation fields) ----

/** The team (index into o.teams) of seat `s`, or -1 without teams. */
export function teamOf(o, s) {
  return (o?.teams ?? []).findIndex((team) => team.includes(s));
}

/** Whether seat `s` is out of the match (mercy): the observation's `out`,
 * a list of seats or of booleans; absent, nobody is. */
export function isOut(o, s) {
  const out = o?.out ?? o?.eliminated;
  if (!Array.isArray(out) || !out.length) return false;
  return typeof out[0] === "boolean" ? Boolean(out[s]) : out.includes(s);
}

/** The badges of seat `s` for teams and mercy: "partner" (of seat `me`), its team, "out". */
export function seatHouseBadges(o, s, me, nameOf) {
  const out = [];
  const team = teamOf(o, s);
  if (team >= 0) {
    if (me !== null && me !== s && teamOf(o, me) === team) out.push(`<span class="badge partner" title="${esc(t("table.partner.title", { who: nameOf(s) }))}">${esc(t("table.partner"))}</span>`);
    out.push(`<span class="badge team team-${team}" data-team="${team}">${esc(t("table.team", { n: team + 1 }))}</span>`);
  }
  if (isOut(o, s)) out.push(`<span class="badge out" title="${esc(t("table.out.title", { who: nameOf(s) }))}">${esc(t("table.out"))}</span>`);
  return out.join("");
}

/** The classes seat `s` takes for teams and mercy. */
export function seatHouseClasses(o, s, me) {
  const out = [];
  const team = teamOf(o, s);
  if (team >= 0) out.push(`team-${team}`);
  if (team >= 0 && me !== null && me !== s && teamOf(o, me) === team) out.push("partner");
  if (isOut(o, s)) out.push("out");
  return out;
}

/** The team totals, one line per team ("" without teams). */
export function teamScoresHtml(o, nameOf) {
  const teams = o?.teams ?? [];
  if (!teams.length) return "";
  const rows = teams
    .map((team, i) => `<li class="team-${i}" data-team="${i}"><strong>${esc(t("table.team", { n: i + 1 }))}</strong> ${esc(t("table.teamScore", { names: team.map(nameOf).join(" + "), points: o.team_scores?.[i] ?? o.scores[team[0]] }))}</li>`)
    .join("");
  return `<ul class="team-scores" id="team-scores" aria-label="${esc(t("table.teams"))}">${rows}</ul>`;
}

/** Who must answer the pending draw and where it goes ("" when none). */
export function pendingToText(o, nameOf) {
  const p = o?.pending;
  if (!p) return "";
  const back = p.back === null || p.back === undefined ? "" : t("table.pendingBack", { back: nameOf(p.back) });
  return t("table.pendingTo", { who: nameOf(p.victim), to: nameOf(p.to), back });
}
