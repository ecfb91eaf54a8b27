/**
 * The lobby (create a room, open one by code) and the room's waiting view
 * (seats, invite link, join form, start). Dependency-free ES module.
 *
 *   renderLobby(root, {meta, recent, onCreate, onOpen})
 *   renderRoom(root, {info, seat, host, onJoin, onWatch, onStart, joining})
 */

import { renderCard } from "./cards.js";
import { HOUSE_SWITCHES, PRESETS, presetOf } from "./howto.js";
import { has, t } from "./i18n.js";
import { esc } from "./table.js";

const NAME_KEY = "unokit.name";
const LAST_KEY = "unokit.lastCreate";

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

const HOUSE_BOOLS = ["jumpIn", "sevenZero", "drawUntilPlayable", "forcedPlay", "noBluff"];

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
    const stacking = optValue("stacking") ?? "off";
    const houseChecks = HOUSE_BOOLS.filter((k) => optMeta[k] || !meta)
      .map((k) => `<label class="check"><input type="checkbox" name="opt-${k}" ${optValue(k) ? "checked" : ""} /> <span>${esc(t(`opt.${k}`))}<small class="help-line">${esc(t(`help.${k}`))}</small></span></label>`)
      .join("");
    const preset = presetOf(Object.fromEntries(HOUSE_SWITCHES.map((k) => [k, optValue(k)])));
    const presetTiles = ["official", "party", "hard", "custom"]
      .map(
        (p) => `<label class="preset ${preset === p ? "checked" : ""}" data-preset="${p}"><input type="radio" name="preset" value="${p}" ${preset === p ? "checked" : ""} />
          <strong>${esc(t(`preset.${p}`))}</strong><small>${esc(t(`preset.${p}.desc`))}</small></label>`,
      )
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
            <details class="house" data-section="house" ${preset === "custom" ? "open" : isOpen("house")}><summary>${esc(t("lobby.house"))}</summary>
              <label class="field"><span>${esc(t("opt.stacking"))}</span><select name="opt-stacking">
                ${["off", "same_symbol", "escalate"].map((m) => `<option value="${m}" ${stacking === m ? "selected" : ""}>${esc(t(`opt.stacking.${m}`))}</option>`).join("")}</select>
                <small class="help-line">${esc(t("help.stacking"))}</small></label>
              <div class="checks">${houseChecks}</div>
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
      else if (m?.type === "bool" || HOUSE_BOOLS.includes(key) || key === "flexFlexSideWD4Restricted") options[key] = true;
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
    f.querySelector("#create-name").addEventListener("input", (e) => {
      form.name = e.target.value;
    });
    f.addEventListener("change", (e) => {
      const name = e.target.name;
      if (name === "preset") {
        const rules = PRESETS[e.target.value];
        if (rules) {
          for (const k of HOUSE_SWITCHES) form.options[k] = rules[k] ?? (k === "stacking" ? "off" : false);
          for (const k of HOUSE_SWITCHES) if (optMeta[k] && optMeta[k].default === form.options[k]) delete form.options[k];
          persist();
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
  const on = HOUSE_SWITCHES.filter((k) => options?.[k] && options[k] !== "off").map((k) => t(`opt.${k}`).split(/[:(]/)[0].trim());
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
