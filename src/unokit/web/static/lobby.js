/**
 * The lobby (create a room, open one by code) and the room's waiting view
 * (seats, invite link, join form, start). Dependency-free ES module.
 *
 *   renderLobby(root, {meta, recent, onCreate, onOpen})
 *   renderRoom(root, {info, seat, host, onJoin, onWatch, onStart, joining})
 */

import { renderCard } from "./cards.js";
import { HOUSE_SWITCHES, PRESET_LIST, PRESETS, presetOf, ruleOn } from "./howto.js";
import { has, t } from "./i18n.js";
import { esc } from "./table.js";

const NAME_KEY = "unokit.name";
const LAST_KEY = "unokit.lastCreate";
const CUSTOM_KEY = "unokit.customRules";

export function savedName() {
  try {
    return localStorage.getItem(NAME_KEY) ?? "";
  } catch {
    return "";
  }
}

export function saveName(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    /* ignore */
  }
}

function loadLast() {
  try {
    return JSON.parse(localStorage.getItem(LAST_KEY) ?? "null") ?? null;
  } catch {
    return null;
  }
}

const VARIANT_SAMPLES = {
  classic: [["W4", "light"], ["R7", "light"]],
  flip: [["R3|WDC", "light"], ["R3|WDC", "dark"]],
  flex: [["R5~G", "light"], ["FW4", "light"]],
};

const HOUSE_BOOLS = ["jumpIn", "sevenZero", "drawUntilPlayable", "forcedPlay", "noBluff", "zeroRotate", "sevenSwap", "mustPlayDrawn", "shuffleSeats"];

/** The custom set of house rules this browser keeps (the Custom preset brings it back). */
function loadCustom() {
  try {
    const v = JSON.parse(localStorage.getItem(CUSTOM_KEY) ?? "null");
    return v && typeof v === "object" && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

function saveCustom(rules) {
  try {
    localStorage.setItem(CUSTOM_KEY, JSON.stringify(rules));
  } catch {
    /* ignore */
  }
}

/**
 * The rules of a share link: `?variant=flip&preset=Party&rules=jumpIn=false,handLimit=12`
 * (the same key=value list as `unokit play --rules`). Returns null without
 * one, {error} when a part is not valid (then nothing is applied), else
 * {variant, options}: the preset's house rules with the listed options on top.
 */
export function parseShareLink(search, meta) {
  const q = new URLSearchParams(search);
  if (!q.has("rules") && !q.has("preset") && !q.has("variant")) return null;
  const optMeta = meta?.options ?? {};
  const options = {};
  let variant = null;
  if (q.has("variant")) {
    variant = String(q.get("variant")).toLowerCase();
    if (!(meta?.variants ?? { classic: 1, flip: 1, flex: 1 })[variant]) return { error: t("share.why.variant", { name: q.get("variant") }) };
  }
  if (q.has("preset")) {
    const name = String(q.get("preset"));
    const p = PRESET_LIST.find((x) => x.key === name.toLowerCase());
    if (!p) return { error: t("share.why.preset", { name }) };
    if (!p.playable) return { error: t("share.why.presetNotYet", { name: p.name }) };
    Object.assign(options, p.options);
  }
  for (const item of String(q.get("rules") ?? "").split(",").map((x) => x.trim()).filter(Boolean)) {
    const at = item.indexOf("=");
    if (at <= 0) return { error: t("share.why.pair", { item }) };
    const wanted = item.slice(0, at).trim();
    const raw = item.slice(at + 1).trim();
    const key = Object.keys(optMeta).find((k) => k.toLowerCase() === wanted.toLowerCase().replace(/[-_]/g, "")) ?? Object.keys(optMeta).find((k) => k.toLowerCase() === wanted.toLowerCase());
    const m = key ? optMeta[key] : null;
    if (!m) return { error: (meta?.not_yet_played ?? []).includes(wanted) ? t("share.why.ruleNotYet", { name: wanted }) : t("share.why.key", { key: wanted }) };
    let value;
    const low = raw.toLowerCase();
    if (m.type === "bool") {
      if (["true", "on", "yes", "1"].includes(low)) value = true;
      else if (["false", "off", "no", "0"].includes(low)) value = false;
    } else if (m.type === "int") {
      if (/^\d{1,6}$/.test(raw)) value = Number(raw);
    } else if (m.type === "choice") {
      value = m.choices.find((c) => c.toLowerCase() === low);
    } else if (raw) {
      value = raw;
    }
    if (value === undefined) return { error: t("share.why.value", { value: raw, key }) };
    options[key] = value;
  }
  return { variant, options };
}

/** The share link of a variant and a set of options (only what differs from the defaults). */
export function shareLink(variant, options, optMeta) {
  const preset = presetOf(options);
  const parts = [`variant=${encodeURIComponent(variant)}`];
  const base = preset !== "custom" && preset !== "official" ? PRESETS[preset] : {};
  if (preset !== "custom" && preset !== "official") parts.push(`preset=${encodeURIComponent(PRESET_LIST.find((p) => p.key === preset)?.name ?? preset)}`);
  const rules = Object.entries(options)
    .filter(([k, v]) => optMeta[k] && optMeta[k].default !== v && !(k in base && base[k] === v))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  if (rules.length) parts.push(`rules=${rules.join(",")}`);
  return `${location.origin}/?${parts.join("&")}`;
}

/** Options shown under "More options", per variant (null: all variants). */
const MORE_OPTIONS = [
  ["handSize", null],
  ["unoPenalty", null],
  ["falseCatchPenalty", null],
  ["dealerRotation", null],
  ["misplayPenalty", null],
  ["flipPairing", "flip"],
  ["flexFlexSideWD4Restricted", "flex"],
];

function botLabel(level) {
  const key = `bot.${level}`;
  const txt = t(key);
  return t("lobby.seat.bot", { level: txt === key ? level : txt });
}

/**
 * The create/join page. `onCreate(body)` gets the POST /api/rooms body;
 * `onOpen(code)` a room code typed by the user.
 */
export function renderLobby(root, { meta, recent, onCreate, onOpen, error, onQuickBots, onQuickPlay, publicRooms, history, onJoinPublic, onRecord, onReplay, onReplayFile }) {
  const last = loadLast() ?? {};
  // players pick a level; the other bots of the server are for developers
  const serverBots = meta?.bots?.length ? meta.bots : ["heuristic", "random"];
  const levels = ["easy", "normal", "hard"].filter((b) => serverBots.includes(b));
  const bots = levels.length ? levels : serverBots;
  const defaultBot = bots.includes("normal") ? "normal" : bots.includes("heuristic") ? "heuristic" : bots[0];
  const variants = meta?.variants ?? {
    classic: { min_players: 2, max_players: 10 },
    flip: { min_players: 2, max_players: 10 },
    flex: { min_players: 2, max_players: 8 },
  };
  const optMeta = meta?.options ?? {};
  const form = {
    variant: last.variant && variants[last.variant] ? last.variant : "classic",
    players: last.players ?? 4,
    seats: last.seats ?? null, // array of "human" | "bot:<level>" for seats 1..
    options: { ...(last.options ?? {}) },
    turnTimer: last.turnTimer ?? "",
    name: savedName(),
    public: Boolean(last.public),
  };
  // the last room's settings are reused, and the lobby says so (with a Reset)
  let fromSaved = Object.keys(last).length > 0;
  // a share link's rules replace the house rules (all of them, or none when it is not valid)
  const shared = parseShareLink(location.search, meta);
  let shareNote = null;
  if (shared) {
    window.history.replaceState(null, "", "/"); // (`history` here is the games played)
    if (shared.error) shareNote = { error: t("share.bad", { why: shared.error }) };
    else {
      for (const k of HOUSE_SWITCHES) delete form.options[k];
      for (const [k, v] of Object.entries(shared.options)) if (optMeta[k]?.default !== v) form.options[k] = v;
      if (shared.variant) form.variant = shared.variant;
      fromSaved = false;
      shareNote = { ok: t("share.applied") };
    }
  }
  // the sections a player opened stay open when the form is drawn again
  const openSections = new Set();

  function seatKinds() {
    const kinds = [];
    for (let i = 1; i < form.players; i++) {
      let k = form.seats?.[i - 1] ?? (i === 1 ? "human" : `bot:${defaultBot}`);
      if (k.startsWith("bot:") && !bots.includes(k.slice(4))) k = `bot:${defaultBot}`;
      kinds.push(k);
    }
    return kinds;
  }

  function choiceOptions(key, current) {
    const m = optMeta[key];
    const choices = m?.choices ?? [];
    return choices
      .map((c) => {
        const labelKey = `opt.${key}.${c}`;
        const lbl = t(labelKey);
        return `<option value="${esc(c)}" ${c === current ? "selected" : ""}>${esc(lbl === labelKey ? c : lbl)}</option>`;
      })
      .join("");
  }

  function optValue(key) {
    if (key in form.options) return form.options[key];
    return optMeta[key]?.default;
  }

  function moreOptionField(key) {
    const m = optMeta[key];
    if (!m) return "";
    const label = t(`opt.${key}`);
    const v = optValue(key);
    if (m.type === "bool") {
      return `<label class="check"><input type="checkbox" name="opt-${key}" ${v ? "checked" : ""} /> ${esc(label)}</label>`;
    }
    if (m.type === "int") {
      const min = m.min ?? 0;
      const max = Math.min(m.max ?? 100, 100);
      return `<label class="field"><span>${esc(label)}</span><input type="number" name="opt-${key}" min="${min}" max="${max}" value="${esc(v)}" /></label>`;
    }
    if (m.type === "choice") {
      if (key === "misplayPenalty") {
        return `<label class="check"><input type="checkbox" name="opt-${key}" ${v === "on" ? "checked" : ""} /> ${esc(label)}</label>`;
      }
      return `<label class="field"><span>${esc(label)}</span><select name="opt-${key}">${choiceOptions(key, v)}</select></label>`;
    }
    return "";
  }

  /** One house rule: its control, one line that explains it, and a "?" that shows an example. */
  function houseField(k) {
    const m = optMeta[k] ?? { type: HOUSE_BOOLS.includes(k) ? "bool" : "choice", choices: ["off"] };
    const v = optValue(k);
    const why = `<button type="button" class="rule-why" data-example="${esc(k)}" aria-expanded="false" aria-controls="example-${esc(k)}" aria-label="${esc(t("rule.example"))}: ${esc(t(`opt.${k}`))}">?</button>`;
    const lines = `<small class="help-line">${esc(t(`help.${k}`))} ${why}</small><small class="rule-example" id="example-${esc(k)}" hidden>${esc(t("rule.example"))}: ${esc(t(`example.${k}`))}</small>`;
    if (m.type === "bool") {
      return `<div class="house-rule" data-rule="${esc(k)}"><label class="check"><input type="checkbox" name="opt-${k}" ${v ? "checked" : ""} /> <span>${esc(t(`opt.${k}`))}</span></label>${lines}</div>`;
    }
    if (m.type === "int") {
      return `<div class="house-rule" data-rule="${esc(k)}"><label class="field"><span>${esc(t(`opt.${k}`))}</span><input type="number" name="opt-${k}" min="0" max="10000" value="${esc(v ?? 0)}" /></label>${lines}</div>`;
    }
    return `<div class="house-rule" data-rule="${esc(k)}"><label class="field"><span>${esc(t(`opt.${k}`))}</span><select name="opt-${k}">${choiceOptions(k, v)}</select></label>${lines}</div>`;
  }

  function draw() {
    for (const d of root.querySelectorAll("#create-form details[data-section]")) {
      if (d.open) openSections.add(d.dataset.section);
      else openSections.delete(d.dataset.section);
    }
    const isOpen = (name) => (openSections.has(name) ? "open" : "");
    const vmeta = variants[form.variant];
    const maxP = vmeta.max_players;
    if (form.players > maxP) form.players = maxP;
    const kinds = seatKinds();
    const variantTiles = Object.keys(variants)
      .map((v) => {
        const samples = VARIANT_SAMPLES[v] ?? [];
        const art = samples.map(([c, side]) => renderCard(c, { size: "sm", side, label: "" })).join("");
        return `<label class="variant-tile ${form.variant === v ? "checked" : ""}" data-variant="${v}">
          <input type="radio" name="variant" value="${v}" ${form.variant === v ? "checked" : ""} />
          <span class="variant-art" aria-hidden="true">${art}</span>
          <span class="variant-name">${esc(t(`variant.${v}`))}</span>
          <small>${esc(t(`variant.${v}.desc`))}</small>
        </label>`;
      })
      .join("");
    const playerOptions = [];
    for (let n = vmeta.min_players; n <= maxP; n++) {
      playerOptions.push(`<option value="${n}" ${n === form.players ? "selected" : ""}>${n}</option>`);
    }
    const seatRows = [
      `<li class="seat-row"><span class="seat-no">${esc(t("lobby.seat", { n: 1 }))}</span><span class="seat-you">${esc(t("lobby.seat.you"))}</span></li>`,
      ...kinds.map((k, i) => {
        const opts = [`<option value="human" ${k === "human" ? "selected" : ""}>${esc(t("lobby.seat.human"))}</option>`]
          .concat(bots.map((b) => `<option value="bot:${esc(b)}" ${k === `bot:${b}` ? "selected" : ""}>${esc(botLabel(b))}</option>`))
          .join("");
        return `<li class="seat-row"><label class="seat-no" for="seat-${i + 1}">${esc(t("lobby.seat", { n: i + 2 }))}</label>
          <select id="seat-${i + 1}" name="seat-${i + 1}" data-seat="${i + 1}">${opts}</select></li>`;
      }),
    ].join("");
    const houseFields = HOUSE_SWITCHES.filter((k) => optMeta[k] || !meta)
      .map((k) => houseField(k))
      .join("");
    const preset = presetOf(Object.fromEntries(HOUSE_SWITCHES.map((k) => [k, optValue(k)])));
    const presetTiles = [...PRESET_LIST, { key: "custom", playable: true }]
      .map((p) => {
        const name = has(`preset.${p.key}`) ? t(`preset.${p.key}`) : p.name;
        const desc = has(`preset.${p.key}.desc`) ? t(`preset.${p.key}.desc`) : "";
        if (!p.playable) {
          // a preset naming a rule the engine does not play yet: shown, not chosen
          return `<label class="preset disabled" data-preset="${esc(p.key)}" aria-disabled="true" title="${esc(p.why ?? "")}"><input type="radio" name="preset" value="${esc(p.key)}" disabled />
          <strong>${esc(name)}</strong><small>${esc(desc)}</small><small class="not-yet">${esc(t("preset.notYet"))}</small></label>`;
        }
        return `<label class="preset ${preset === p.key ? "checked" : ""}" data-preset="${esc(p.key)}"><input type="radio" name="preset" value="${esc(p.key)}" ${preset === p.key ? "checked" : ""} />
          <strong>${esc(name)}</strong><small>${esc(desc)}</small></label>`;
      })
      .join("");
    const more = MORE_OPTIONS.filter(([, v]) => v === null || v === form.variant)
      .map(([k]) => moreOptionField(k))
      .join("");
    const recentHtml = recent.length
      ? `<ul class="recent">${recent
          .map(
            (r) =>
              `<li><a href="/r/${esc(r.code)}" data-room="${esc(r.code)}"><code>${esc(r.code)}</code> · ${esc(t(`variant.${r.variant}`) ?? r.variant)}${r.name ? ` · ${esc(r.name)}` : ""}</a></li>`,
          )
          .join("")}</ul>`
      : `<p class="muted-text">${esc(t("lobby.recent.none"))}</p>`;
    const target = optValue("targetScore") ?? 500;
    const publicHtml = publicRooms?.length
      ? `<ul class="public-list">${publicRooms
          .map(
            (r) => `<li data-room="${esc(r.room)}"><span><strong>${esc(t(`variant.${r.variant}`))}</strong> · ${esc(t("public.free", { n: r.free }))} / ${r.players}
              · ${esc(t(r.status === "playing" ? "public.playing" : "public.waiting"))}${r.names?.length ? ` · ${esc(r.names.join(", "))}` : ""}
              <small class="rules-line">${esc(rulesLine(r.options))}</small></span>
              <button type="button" class="btn small" data-join-public="${esc(r.room)}">${esc(t("public.join"))}</button></li>`,
          )
          .join("")}</ul>`
      : `<p class="muted-text">${esc(t("public.none"))}</p>`;
    const historyHtml = history?.length
      ? `<ul class="history-list">${history
          .map(
            (g, i) => `<li data-room="${esc(g.room)}" data-match="${g.match}"><span><strong>${esc(t(`variant.${g.variant}`))}</strong> · ${esc(g.names.join(", "))}
              <small>${esc(t("history.round", { n: g.rounds }))} · ${g.scores.join(" / ")}</small></span>
              <span class="history-actions"><button type="button" class="btn small" data-record="${i}">${esc(t("history.download"))}</button>
              <button type="button" class="btn small" data-replay="${i}">${esc(t("history.replay"))}</button></span></li>`,
          )
          .join("")}</ul>`
      : `<p class="muted-text">${esc(t("history.none"))}</p>`;
    root.innerHTML = `
      <div class="lobby">
        <div class="lobby-hero">
          <h1>${esc(t("app.title"))}</h1>
          <p>${esc(t("app.tagline"))}</p>
          <div class="quick-start">
            <button type="button" class="btn primary big" id="quick-bots">${esc(t("quick.bots"))}</button>
            <button type="button" class="btn big" id="quick-play">${esc(t("quick.play"))}</button>
            <small class="hint">${esc(t("quick.bots.hint"))} ${esc(t("quick.play.hint"))}</small>
          </div>
          ${error ? `<p class="form-error" role="alert" id="lobby-error">${esc(error)}</p>` : ""}
        </div>
        <form class="panel create-form" id="create-form" novalidate>
          <div class="form-head"><h2>${esc(t("lobby.create"))}</h2>
            <button type="submit" class="btn primary" id="create-submit-top">${esc(t("lobby.submit"))}</button></div>
          <label class="field"><span>${esc(t("lobby.name"))}</span>
            <input name="name" id="create-name" required maxlength="24" autocomplete="nickname" placeholder="${esc(t("lobby.name.placeholder"))}" value="${esc(form.name)}" /></label>
          <fieldset class="variants"><legend>${esc(t("lobby.variant"))}</legend><div class="variant-tiles">${variantTiles}</div></fieldset>
          <fieldset><legend>${esc(t("lobby.seats"))}</legend>
            <label class="field inline"><span>${esc(t("lobby.seats.count"))}</span><select name="players" id="create-players">${playerOptions.join("")}</select></label>
            ${form.variant === "flex" ? `<p class="hint">${esc(t("lobby.flexMax"))}</p>` : ""}
            <ol class="seat-list">${seatRows}</ol>
          </fieldset>
          <fieldset class="presets"><legend>${esc(t("preset.label"))}</legend>
            <div class="preset-tiles">${presetTiles}</div>
            ${shareNote?.error ? `<p class="form-error" role="alert" id="share-error">${esc(shareNote.error)}</p>` : ""}
            ${shareNote?.ok ? `<p class="saved-note" role="status" id="share-note">${esc(shareNote.ok)}</p>` : ""}
            <details class="house" data-section="house" ${preset === "custom" ? "open" : isOpen("house")}><summary>${esc(t("lobby.house"))}</summary>
              <div class="checks house-rules">${houseFields}</div>
              <div class="share-row"><button type="button" class="btn small" id="share-rules">${esc(t("share.button"))}</button>
                <input id="share-link" readonly hidden aria-label="${esc(t("share.label"))}" /><small id="share-copied" role="status"></small></div>
            </details>
          </fieldset>
          <label class="check"><input type="checkbox" name="public" id="create-public" ${form.public ? "checked" : ""} /> ${esc(t("lobby.public"))}</label>
          <p class="form-error" id="create-error" role="alert" hidden></p>
          <div class="form-actions"><button type="submit" class="btn primary big" id="create-submit">${esc(t("lobby.submit"))}</button>
            ${fromSaved ? `<p class="saved-note" id="saved-note">${esc(t("lobby.saved"))} · <button type="button" class="btn small ghost" id="saved-reset">${esc(t("lobby.saved.reset"))}</button></p>` : ""}</div>
          <details class="more" data-section="scoring" ${isOpen("scoring")}><summary>${esc(t("lobby.moreScoring"))}</summary>
            <div class="grid2">
              <label class="field"><span>${esc(t("lobby.target"))}</span><input type="number" name="opt-targetScore" min="1" max="100000" step="50" value="${esc(target)}" /></label>
              <label class="field"><span>${esc(t("lobby.matchMode"))}</span><select name="opt-matchMode">
                ${["points", "single_round"].map((m) => `<option value="${m}" ${optValue("matchMode") === m ? "selected" : ""}>${esc(t(`matchMode.${m}`))}</option>`).join("")}</select></label>
              <label class="field wide"><span>${esc(t("lobby.scoringMode"))}</span><select name="opt-scoringMode">
                ${["highest", "lowest"].map((m) => `<option value="${m}" ${optValue("scoringMode") === m ? "selected" : ""}>${esc(t(`scoringMode.${m}`))}</option>`).join("")}</select></label>
              <label class="field"><span>${esc(t("lobby.timer"))}</span><select name="turn_timer">
                ${["", "15", "30", "60", "120"].map((s) => `<option value="${s}" ${String(form.turnTimer) === s ? "selected" : ""}>${esc(s ? t("lobby.timer.s", { n: s }) : t("lobby.timer.none"))}</option>`).join("")}</select></label>
            </div>
          </details>
          <details class="more" data-section="more" ${isOpen("more")}><summary>${esc(t("lobby.more"))}</summary><div class="grid2">${more}</div></details>
        </form>
        <div class="side-col">
          <form class="panel join-form" id="join-form">
            <h2>${esc(t("lobby.join"))}</h2>
            <label class="field"><span>${esc(t("lobby.join.code"))}</span>
              <input name="code" id="join-code" autocomplete="off" autocapitalize="none" spellcheck="false" placeholder="k7m2xq9wdt" /></label>
            <button type="submit" class="btn">${esc(t("lobby.join.go"))}</button>
          </form>
          <section class="panel" id="public-rooms"><h2>${esc(t("public.title"))}</h2>${publicHtml}</section>
          <section class="panel"><h2>${esc(t("lobby.recent"))}</h2>${recentHtml}</section>
          <section class="panel" id="history"><h2>${esc(t("history.title"))}</h2>${historyHtml}
            <label class="field file-field"><span>${esc(t("replay.open"))}</span><input type="file" id="replay-file" accept=".json,.txt,application/json,text/plain" /></label></section>
        </div>
      </div>`;
    wire();
  }

  function readForm() {
    const f = root.querySelector("#create-form");
    const data = new FormData(f);
    const options = {};
    for (const [k, v] of data.entries()) {
      if (!k.startsWith("opt-")) continue;
      const key = k.slice(4);
      const m = optMeta[key];
      if (m?.type === "int") options[key] = Number(v);
      else if (key === "targetScore") options[key] = Number(v);
      else if (key === "misplayPenalty") options[key] = "on";
      else if (m?.type === "bool" || (!m && HOUSE_BOOLS.includes(key)) || key === "flexFlexSideWD4Restricted") options[key] = true;
      else options[key] = v;
    }
    // unchecked boxes: explicit false so that a saved "true" is cleared
    for (const box of f.querySelectorAll("input[type=checkbox][name^='opt-']")) {
      const key = box.name.slice(4);
      if (!box.checked) options[key] = key === "misplayPenalty" ? "off" : false;
    }
    // only send what differs from the defaults
    for (const [k, v] of Object.entries(options)) {
      if (optMeta[k] && optMeta[k].default === v) delete options[k];
    }
    const kinds = [...f.querySelectorAll("select[data-seat]")].map((s) => s.value);
    const seats = [{ kind: "human" }, ...kinds.map((k) => (k === "human" ? { kind: "human" } : { kind: "bot", level: k.slice(4) }))];
    const timer = data.get("turn_timer");
    return {
      name: String(data.get("name") ?? "").trim(),
      variant: String(data.get("variant") ?? form.variant),
      seats,
      options,
      turn_timer: timer ? Number(timer) : null,
      kinds,
      public: Boolean(f.querySelector("#create-public")?.checked),
    };
  }

  function persist() {
    try {
      localStorage.setItem(LAST_KEY, JSON.stringify({ variant: form.variant, players: form.players, seats: form.seats, options: form.options, turnTimer: form.turnTimer, public: form.public }));
    } catch {
      /* ignore */
    }
  }

  function remember() {
    const r = readForm();
    form.variant = r.variant;
    form.seats = r.kinds;
    form.options = r.options;
    form.turnTimer = r.turn_timer ?? "";
    form.name = r.name;
    form.public = r.public;
    const p = root.querySelector("#create-players");
    if (p) form.players = Number(p.value);
    try {
      localStorage.setItem(LAST_KEY, JSON.stringify({ variant: form.variant, players: form.players, seats: form.seats, options: form.options, turnTimer: form.turnTimer, public: form.public }));
    } catch {
      /* ignore */
    }
  }

  function wire() {
    const f = root.querySelector("#create-form");
    f.querySelector("#saved-reset")?.addEventListener("click", () => {
      try {
        localStorage.removeItem(LAST_KEY);
      } catch {
        /* ignore */
      }
      Object.assign(form, { variant: "classic", players: 4, seats: null, options: {}, turnTimer: "", public: false });
      fromSaved = false;
      draw();
      root.querySelector("#create-submit")?.focus();
    });
    for (const b of f.querySelectorAll(".rule-why")) {
      b.addEventListener("click", () => {
        const ex = f.querySelector(`#example-${b.dataset.example}`);
        ex.hidden = !ex.hidden;
        b.setAttribute("aria-expanded", String(!ex.hidden));
      });
    }
    f.querySelector("#share-rules")?.addEventListener("click", async () => {
      remember();
      const input = f.querySelector("#share-link");
      input.value = shareLink(form.variant, form.options, optMeta);
      input.hidden = false;
      input.select();
      try {
        await navigator.clipboard.writeText(input.value);
        f.querySelector("#share-copied").textContent = t("share.copied");
      } catch {
        /* the link stays selected in its field */
      }
    });
    f.querySelector("#create-name").addEventListener("input", (e) => {
      form.name = e.target.value;
    });
    f.addEventListener("change", (e) => {
      const name = e.target.name;
      if (name === "preset") {
        // a preset, or Custom: the custom set this browser kept (if any)
        const rules = PRESETS[e.target.value] ?? (e.target.value === "custom" ? loadCustom() : null);
        if (rules) {
          for (const k of HOUSE_SWITCHES) delete form.options[k];
          for (const k of HOUSE_SWITCHES) if (k in rules && (!optMeta[k] || optMeta[k].default !== rules[k])) form.options[k] = rules[k];
          persist();
          if (e.target.value === "custom") openSections.add("house");
        } else {
          root.querySelector("details.house").open = true;
          return;
        }
        draw();
        root.querySelector(`[name="preset"][value="${e.target.value}"]`)?.focus();
        return;
      }
      remember();
      if (name.startsWith("opt-") && HOUSE_SWITCHES.includes(name.slice(4))) {
        // a rule changed by hand: this is the custom set to keep
        const house = Object.fromEntries(HOUSE_SWITCHES.filter((k) => k in form.options).map((k) => [k, form.options[k]]));
        if (presetOf(house) === "custom") saveCustom(house);
        draw();
        root.querySelector(`[name="${name}"]`)?.focus();
        return;
      }
      if (name === "variant" || name === "players") {
        const focusName = name;
        draw();
        root.querySelector(`[name="${focusName}"]${focusName === "variant" ? ":checked" : ""}`)?.focus();
      }
    });
    /** An option's problem, in plain words, right under its field (its section opened). */
    const fieldError = (input, text) => {
      for (const old of f.querySelectorAll(".field-error")) old.remove();
      for (const bad of f.querySelectorAll("[aria-invalid]")) bad.removeAttribute("aria-invalid");
      if (!input) return false;
      const details = input.closest("details");
      if (details) details.open = true;
      const note = document.createElement("small");
      note.className = "field-error";
      note.id = `${input.name}-error`;
      note.setAttribute("role", "alert");
      note.textContent = text;
      const label = input.closest("label");
      if (label) label.append(note);
      else input.after(note);
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", note.id);
      input.focus();
      input.scrollIntoView({ block: "center" });
      return true;
    };
    const fieldLabel = (input) => input.closest("label")?.querySelector("span")?.textContent ?? input.name;
    const checkNumbers = () => {
      for (const input of f.querySelectorAll("input[type=number]")) {
        // the range and a whole number (the step only drives the arrows)
        const n = Number(input.value);
        const inRange = (input.min === "" || n >= Number(input.min)) && (input.max === "" || n <= Number(input.max));
        if (input.value !== "" && !input.validity.badInput && Number.isInteger(n) && inRange) continue;
        const min = input.min || "…";
        const max = input.max || "…";
        return fieldError(input, t("lobby.field.range", { label: fieldLabel(input), min, max }));
      }
      return fieldError(null, "");
    };
    f.addEventListener("submit", async (e) => {
      e.preventDefault();
      if (checkNumbers()) return;
      const r = readForm();
      const err = root.querySelector("#create-error");
      if (!r.name) {
        err.hidden = false;
        err.textContent = t("lobby.name.required");
        root.querySelector("#create-name").focus();
        return;
      }
      saveName(r.name);
      remember();
      const btn = root.querySelector("#create-submit");
      btn.disabled = true;
      root.querySelector("#create-submit-top").disabled = true;
      btn.textContent = t("lobby.creating");
      try {
        await onCreate({ variant: r.variant, seats: r.seats, options: r.options, turn_timer: r.turn_timer, name: r.name }, r.public);
      } catch (ex) {
        const msg = String(ex.message ?? ex);
        // the server names the option: the words go next to its field
        const m = /option (\w+): (.*)$/.exec(msg);
        const input = m ? f.querySelector(`[name="opt-${m[1]}"]`) : null;
        if (!input || !fieldError(input, t("lobby.field.bad", { label: fieldLabel(input), why: m[2] }))) {
          err.hidden = false;
          err.textContent = msg;
        }
        btn.disabled = false;
        root.querySelector("#create-submit-top").disabled = false;
        btn.textContent = t("lobby.submit");
      }
    });
    const quick = async (btn, fn) => {
      const err = root.querySelector("#create-error");
      const name = String(root.querySelector("#create-name").value).trim() || savedName() || t("quick.defaultName");
      remember();
      btn.disabled = true;
      try {
        await fn({ name, variant: form.variant });
      } catch (ex) {
        err.hidden = false;
        err.textContent = String(ex.message ?? ex);
        btn.disabled = false;
      }
    };
    root.querySelector("#quick-bots").addEventListener("click", (e) => quick(e.currentTarget, onQuickBots));
    root.querySelector("#quick-play").addEventListener("click", (e) => quick(e.currentTarget, onQuickPlay));
    for (const b of root.querySelectorAll("[data-join-public]")) b.addEventListener("click", () => onJoinPublic?.(b.dataset.joinPublic));
    for (const b of root.querySelectorAll("[data-record]")) b.addEventListener("click", () => onRecord?.(history[Number(b.dataset.record)]));
    for (const b of root.querySelectorAll("[data-replay]")) b.addEventListener("click", () => onReplay?.(history[Number(b.dataset.replay)]));
    root.querySelector("#replay-file")?.addEventListener("change", (e) => {
      const file = e.target.files?.[0];
      if (file) onReplayFile?.(file);
    });
    root.querySelector("#join-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const raw = String(root.querySelector("#join-code").value).trim();
      const m = /(?:\/r\/)?([a-z0-9]{4,32})\/?$/i.exec(raw);
      if (m) onOpen(m[1].toLowerCase());
    });
  }

  draw();
  return {
    redraw: draw,
    update(extra) {
      if (extra.publicRooms !== undefined) publicRooms = extra.publicRooms;
      if (extra.history !== undefined) history = extra.history;
      remember();
      const focused = document.activeElement?.id;
      draw();
      if (focused) document.getElementById(focused)?.focus({ preventScroll: true });
    },
  };
}

/** The house rules of a room in one line ("Official rules" when none). */
function rulesLine(options) {
  const on = HOUSE_SWITCHES.filter((k) => ruleOn(k, options)).map((k) => t(`opt.${k}`).split(/[:(]/)[0].trim());
  return on.length ? on.join(" · ") : t("table.rules.official");
}

/**
 * The room before the game (or for someone not seated yet): seats, invite
 * link, join form, watch, start (host).
 */
export function renderRoom(root, { info, seat, host, meta, onJoin, onWatch, onStart, error }) {
  const invite = new URL(info.invite ?? `/r/${info.room}`, location.href).href;
  const seated = seat !== null && seat !== undefined;
  const free = info.seats.filter((s) => s.kind === "human" && !s.claimed);
  const seatsHtml = info.seats
    .map((s) => {
      let who;
      if (s.kind === "bot") who = `<span class="badge bot">${esc(t("room.bot"))}</span> ${esc(s.name ?? botLabel(s.level))}`;
      else if (s.claimed) who = `${esc(s.name ?? "")}${s.seat === info.host ? ` <span class="badge">${esc(t("room.host"))}</span>` : ""}${s.connected ? "" : ` <span class="badge offline">${esc(t("room.offline"))}</span>`}`;
      else who = `<em>${esc(t("room.seatOpen"))}</em>`;
      const you = seated && s.seat === seat ? ` <strong>(${esc(t("table.you"))})</strong>` : "";
      const sit = !seated && s.kind === "human" && !s.claimed && info.status === "lobby"
        ? `<button type="button" class="btn small" data-sit="${s.seat}">${esc(t("room.takeSeat"))}</button>`
        : "";
      return `<li class="seat-row ${s.claimed ? "claimed" : "open"}" data-seat="${s.seat}"><span class="seat-no">${esc(t("lobby.seat", { n: s.seat + 1 }))}</span><span class="seat-who">${who}${you}</span>${sit}</li>`;
    })
    .join("");
  const opts = Object.entries(info.options ?? {})
    .map(([k, v]) => {
      const label = has(`opt.${k}`) ? t(`opt.${k}`) : k;
      let value = typeof v === "boolean" ? (v ? "✓" : "✗") : String(v);
      for (const key of [`opt.${k}.${v}`, `${k}.${v}`]) {
        if (has(key)) {
          value = t(key);
          break;
        }
      }
      return `<li><span>${esc(label)}</span><strong>${esc(value)}</strong></li>`;
    })
    .join("");
  const joinForm = !seated && free.length && info.status === "lobby"
    ? `<form class="join-seat" id="join-seat-form">
        <label class="field"><span>${esc(t("lobby.name"))}</span>
          <input name="name" id="join-name" required maxlength="24" autocomplete="nickname" placeholder="${esc(t("lobby.name.placeholder"))}" value="${esc(savedName())}" /></label>
        <button type="submit" class="btn primary" id="join-submit">${esc(t("room.joinAs"))}</button>
      </form>`
    : "";
  const levels = ["easy", "normal", "hard"].filter((b) => (meta?.bots ?? ["easy", "normal", "hard"]).includes(b));
  const startBtn = seated && host && info.status === "lobby" && free.length
    ? `<span class="start-row"><button type="button" class="btn primary" id="room-start">${esc(t("room.fillBots"))}</button>
       <select id="room-start-level" aria-label="${esc(t("lobby.botLevel"))}">${levels
         .map((l) => `<option value="${l}" ${l === "normal" ? "selected" : ""}>${esc(botLabel(l))}</option>`)
         .join("")}</select></span>`
    : "";
  root.innerHTML = `
    <div class="room">
      <section class="panel">
        <h1>${esc(t("room.title", { code: info.room }))} <small>· ${esc(t(`variant.${info.variant}`))} · ${esc(t("room.players", { n: info.players }))}</small></h1>
        ${error ? `<p class="form-error" role="alert">${esc(error)}</p>` : ""}
        <div class="invite">
          <label class="field"><span>${esc(t("room.invite"))}</span>
          <span class="invite-row"><input id="invite-link" readonly value="${esc(invite)}" /><button type="button" class="btn" id="copy-invite">${esc(t("btn.copy"))}</button></span></label>
          <p class="hint">${esc(t("room.invite.hint"))}</p>
        </div>
        <h2>${esc(t("lobby.seats"))}</h2>
        <ol class="seat-list room-seats">${seatsHtml}</ol>
        ${info.status === "lobby" ? `<p class="hint">${esc(seated ? t("room.waiting") : t("room.notStarted"))}</p>` : ""}
        ${joinForm}
        <div class="form-actions">
          ${startBtn}
          ${!seated ? `<button type="button" class="btn ghost" id="room-watch">${esc(t("room.watch"))}</button>` : ""}
        </div>
        ${opts ? `<h2>${esc(t("room.settings"))}</h2><ul class="opts">${opts}</ul>` : ""}
      </section>
    </div>`;
  root.querySelector("#copy-invite")?.addEventListener("click", async (e) => {
    const input = root.querySelector("#invite-link");
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      document.execCommand?.("copy");
    }
    e.target.textContent = t("btn.copied");
  });
  const joinWith = (seatNo) => {
    const input = root.querySelector("#join-name");
    const name = String(input?.value ?? "").trim();
    if (!name) {
      input?.focus();
      input?.reportValidity?.();
      return;
    }
    saveName(name);
    onJoin(name, seatNo);
  };
  root.querySelector("#join-seat-form")?.addEventListener("submit", (e) => {
    e.preventDefault();
    joinWith(null);
  });
  for (const b of root.querySelectorAll("[data-sit]")) b.addEventListener("click", () => joinWith(Number(b.dataset.sit)));
  root.querySelector("#room-watch")?.addEventListener("click", () => onWatch());
  root.querySelector("#room-start")?.addEventListener("click", () => onStart(root.querySelector("#room-start-level")?.value || null));
}
