/**
 * The game table — renders one `state` message of the server (docs/protocol.md)
 * and turns clicks and keys into commands. Dependency-free ES module.
 *
 * Everything shown comes from the observation the server sent for this seat:
 * what is playable is read from `observation.legal`, never recomputed here.
 *
 *   const table = createTable(root, {send, nextRound, newMatch, chat});
 *   table.update(state)      // a `state` message: {info, seat, observation, last, remaining}
 *   table.key(event)         // keyboard handling; returns true when used
 *   table.chat(message, {before})  // a `chat` message from the server (before: from the waiting room)
 *   table.refresh()          // re-render (language change)
 *   table.reaction(message)  // a quick reaction (emoji) of a player
 *
 * Optional handlers: react(emoji), record() (download the match record),
 * howto() (open the how-to-play panel).
 */

import { renderBack, renderCard, renderSymbol, colorInfo, parseCard } from "./cards.js";
import { cardName, colorName, describeEvent, listText, t } from "./i18n.js";
import { createFeed } from "./feed.js";
import { dismissHint, hintDismissed, hintHtml, rulesChip } from "./howto.js";
import { pendingToText, ruleChipsHtml, seatHouseBadges, seatHouseClasses, teamScoresHtml } from "./howto.js";
import {
  canAdd,
  catchTargets,
  commandBody,
  filterChoice,
  findVerb,
  legalCommands,
  multiFirsts,
  nextChoice,
  pickedPlays,
  playsFor,
  startsMulti,
} from "./commands.js";

const LIGHT = ["R", "Y", "G", "B"];
const DARK = ["Pk", "Tl", "Or", "Pu"];
const SORT_KEY = "unokit.sort";
const SORTS = ["color", "number", "none"];
export function esc(s) {
  return String(s ?? "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** A stable hue for a player's avatar, from the seat number. */
function hue(seat) {
  return (seat * 137 + 200) % 360;
}

function initialOf(name) {
  const s = String(name ?? "?").trim();
  return esc(s ? [...s][0].toUpperCase() : "?");
}

/** Which face of `notation` is visible on `side`. */
function faceToken(notation, side) {
  const parts = String(notation).split("|");
  return parts.length === 2 ? parts[side === "dark" ? 1 : 0] : parts[0];
}

function faceInfo(notation, side) {
  try {
    const p = parseCard(notation);
    return p.faces.length === 2 ? p.faces[side === "dark" ? 1 : 0] : p.faces[0];
  } catch {
    return null;
  }
}

const KIND_ORDER = {
  number: 0,
  draw: 1,
  skip: 2,
  skip_everyone: 2,
  reverse: 3,
  flip: 4,
  flex_draw: 5,
  flex_skip: 6,
  flex_reverse: 7,
};

function sortKey(notation, side, mode) {
  const f = faceInfo(notation, side);
  if (!f) return [9, 9, 9];
  const colors = side === "dark" ? DARK : LIGHT;
  const ci = f.color ? colors.indexOf(f.color) : 9;
  const wild = f.color ? 0 : 1;
  const kind = f.kind === "number" ? 0 : 1 + (KIND_ORDER[f.kind] ?? 8);
  const num = f.number ?? 0;
  if (mode === "number") return [wild, kind, num, ci];
  return [wild, ci, kind, num];
}

/**
 * How many Played events from `i` on are one play of several cards of one
 * number (house rule multiPlay): the same seat, number cards of the same
 * number on `side`, nothing in between, no jump-in. 1 for a single card.
 */
export function playRun(h, i, side) {
  const first = h[i];
  if (first?.type !== "Played") return 1;
  const num = (c) => {
    const f = faceInfo(c, side);
    return f?.kind === "number" ? f.number : null;
  };
  const n = num(first.card);
  if (n === null || n === undefined) return 1;
  let k = 1;
  while (h[i + k]?.type === "Played" && h[i + k].seat === first.seat && !h[i + k].jump_in && num(h[i + k].card) === n) k++;
  return k;
}

function cmpKeys(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

function loadSort() {
  try {
    const s = localStorage.getItem(SORT_KEY);
    return SORTS.includes(s) ? s : "color";
  } catch {
    return "color";
  }
}

const WILD_DRAWS = new Set(["W4", "FW4", "W2", "WDC"]);
export const REACTIONS = ["👍", "😂", "😮", "😡", "🎉", "👏"];

/**
 * The colour in force just before the latest wild draw card of the round,
 * followed through the round's events (the card played on, colour choices,
 * first card, flips), or null.
 */
export function colorBeforeWild(o) {
  let color = null;
  let side = "light";
  let before = null;
  for (const ev of o.history ?? []) {
    if (ev.type === "Played") {
      const f = faceInfo(ev.card, side);
      const prev = color;
      color = ev.color ?? (ev.flex && f?.flexColor ? f.flexColor : f?.color) ?? color;
      if (WILD_DRAWS.has(faceToken(ev.card, side))) {
        // the card under the wild tells the colour when no event of the round did
        const under = o.discard?.length >= 2 ? faceInfo(o.discard[o.discard.length - 2], side) : null;
        before = prev ?? under?.color ?? null;
      }
    } else if (ev.type === "ColorChosen") {
      color = ev.color;
    } else if (ev.type === "CardTurned") {
      color = faceInfo(ev.card, "light")?.color ?? color;
    } else if (ev.type === "Flipped") {
      side = ev.side === 1 ? "dark" : "light";
      color = faceInfo(ev.top, side)?.color ?? null;
    }
  }
  return before;
}

/** Whether the page is used by touch (a tap selects, a second tap plays). */
function coarsePointer() {
  return window.matchMedia?.("(pointer: coarse)").matches ?? false;
}

/** The card a wild-draw challenge is about: base and failed-challenge penalties. */
function challengeTexts(obs, top) {
  const token = faceToken(top, obs.side);
  const pending = obs.pending_draw || 0;
  if (token === "WDC") {
    const c = colorName(obs.color);
    return {
      base: t("challenge.untilColor", { color: c }),
      fail: t("challenge.untilColorPlus", { color: c }),
    };
  }
  const amount = { W4: 4, FW4: 4, W2: 2 }[token] ?? 0;
  const base = pending > 0 ? pending : amount;
  return { base: String(base), fail: String(base + 2) };
}

export function createTable(root, handlers) {
  const ui = {
    sort: loadSort(),
    focus: null, // {card, occurrence} of the focused hand card
    picker: null, // {card, cmds, label} while choosing a card's options
    logOpen: window.matchMedia("(min-width: 1000px)").matches,
    revealDismissed: null,
    roundDismissed: null,
    scoresOpen: false,
    lastTop: null,
    lastHand: [],
    chats: [],
    unread: 0, // chat lines that came with the log closed
    logShown: false, // the log was on screen at the last render
    timer: null,
    armed: null, // a card selected by a first tap (touch screens)
    multi: null, // {picks: [{card, occ}], uno} cards picked to play together (multiPlay)
  };
  let state = null;

  root.innerHTML = `
    <div class="table" id="table">
      <div class="opponents" id="opponents" aria-label="players"></div>
      <div class="middle">
        <div class="center" id="center"></div>
        <div class="status" id="status" role="status" aria-live="polite"></div>
        <div class="reveal" id="reveal" hidden></div>
      </div>
      <div class="next-step" id="next-step" hidden></div>
      <div class="me-bar" id="me-bar"></div>
      <div class="hand-area">
        <div id="hint-slot"></div>
        <div class="hand" id="hand" role="group"></div>
      </div>
      <div class="log-wrap"><aside class="log" id="log" aria-labelledby="log-title">
        <div class="log-head"><h2 id="log-title"></h2><button type="button" class="icon-btn" id="log-close" aria-label="close">✕</button></div>
        <ol class="log-list" id="log-list"></ol>
        <form class="chat-form" id="chat-form" autocomplete="off">
          <label class="sr-only" for="chat-input" id="chat-label"></label>
          <input id="chat-input" maxlength="200" />
          <button type="submit" class="btn small" aria-label="send">➤</button>
        </form>
      </aside></div>
      <div class="decision" id="decision" hidden></div>
      <div class="round-end overlay" id="round-end" hidden></div>
      <div class="scores-overlay overlay" id="scores" hidden></div>
    </div>`;

  const $ = (id) => root.querySelector(`#${id}`);
  const els = {
    table: $("table"),
    opponents: $("opponents"),
    center: $("center"),
    status: $("status"),
    reveal: $("reveal"),
    me: $("me-bar"),
    hand: $("hand"),
    log: $("log"),
    logList: $("log-list"),
    decision: $("decision"),
    roundEnd: $("round-end"),
    scores: $("scores"),
    chatForm: $("chat-form"),
    chatInput: $("chat-input"),
    nextStep: $("next-step"),
    hintSlot: $("hint-slot"),
  };
  const feed = createFeed(els.table);
  // a replay: no Draw/UNO/Sort, chat or next-round controls (app.css)
  els.table.classList.toggle("readonly", Boolean(handlers.readonly));
  // what a toast must never cover: one's own seat and hand, every control,
  // every seat, the piles and any dialog or panel
  feed.avoid(() => [
    ...document.querySelectorAll(
      ".topbar, #me-bar .me-info, #me-bar button, #me-bar .confirm-play, #hand, #hint-slot, .opp, #center .pile, #center .pending, #center .pending-to, #rule-chips, #team-scores, #status, #next-step, #reveal, #decision .decision-card, #log, #round-end, #scores, #overlay, #help, #conn, #toast, #view-table button, #view-table input",
    ),
  ]);
  window.addEventListener("resize", () => feed.place());
  // the phone layout puts the toasts just under the opponents' row (app.css),
  // which grows and shrinks with the seats and their cards
  new ResizeObserver(() => {
    els.table.style.setProperty("--opps-bottom", `${els.opponents.offsetTop + els.opponents.offsetHeight}px`);
  }).observe(els.opponents);

  // ---- helpers bound to the current state ---------------------------------
  const obs = () => state?.observation ?? null;
  const me = () => (state ? state.seat : null);
  /** Whether anyone but me can join or watch the room: it is public, watched,
   * or another seat belongs to a person (claimed or open). A solo game against
   * bots is not. */
  const shared = () => {
    const info = state?.info;
    if (!info) return false;
    if (info.public || info.spectators > 0) return true;
    return (info.seats || []).some((x) => x.seat !== me() && x.kind === "human");
  };
  const seatInfo = (s) => state?.info?.seats?.[s] ?? null;
  const nameOf = (s) => {
    const info = seatInfo(s);
    if (info?.name) return info.name;
    return `${t("lobby.seat", { n: s + 1 })}`;
  };
  const whoText = (s) => (s === me() ? t("table.you") : nameOf(s));
  const cmds = () => legalCommands(obs());
  const side = () => obs()?.side ?? "light";

  function send(cmd) {
    const hadPicker = ui.picker !== null;
    ui.picker = null;
    ui.multi = null;
    handlers.send(commandBody(cmd.text ?? cmd));
    if (hadPicker) {
      renderDecision(obs());
      renderHand(obs());
    }
  }

  // ---- actions ----------------------------------------------------------
  function playCard(card) {
    const o = obs();
    if (!o) return;
    const options = playsFor(cmds(), card);
    if (!options.length) {
      refuse(els.hand.querySelector(`.hc[data-card="${CSS.escape(card)}"]`));
      return;
    }
    if (!nextChoice(options)) {
      send(options[0]);
      return;
    }
    ui.picker = { card, cmds: options };
    render();
  }

  // ---- several cards in one play (multiPlay) ------------------------------------
  const pickedCards = () => (ui.multi ? ui.multi.picks.map((p) => p.card) : []);
  /** Whether the picked cards leave exactly one card in the hand (UNO to call). */
  const leavesOne = (o) => Boolean(ui.multi) && o.hand.length - ui.multi.picks.length === 1;

  /** A click on a hand card (or Enter on it) while several cards may go together. */
  function pickCard(card, occ) {
    const cs = cmds();
    if (ui.multi) {
      const at = ui.multi.picks.findIndex((p) => p.card === card && p.occ === occ);
      if (at === 0 && ui.multi.picks.length === 1) {
        playPicked(); // a second click (tap) on the one card picked plays it, as a tap does
        return true;
      }
      if (at === 0) {
        ui.multi = null; // the first card taken back: nothing is left to play
      } else if (at > 0) {
        ui.multi.picks.splice(at, 1);
      } else if (canAdd(cs, pickedCards(), card)) {
        ui.multi.picks.push({ card, occ });
      } else {
        ui.multi = null; // another card: played as if nothing had been picked
        return false;
      }
      if (ui.multi && !leavesOne(obs())) ui.multi.uno = false;
      render();
      return true;
    }
    if (!startsMulti(cs, card)) return false;
    ui.armed = null;
    ui.multi = { picks: [{ card, occ }], uno: false };
    render();
    return true;
  }

  /** Play the picked cards in the order picked (asking a swap target if any). */
  function playPicked() {
    const o = obs();
    if (!o || !ui.multi) return false;
    const cards = pickedCards();
    const options = pickedPlays(cmds(), cards, ui.multi.uno && leavesOne(o));
    ui.multi = null;
    if (!options.length) {
      render();
      return false;
    }
    if (!nextChoice(options)) {
      send(options[0]);
      return true;
    }
    ui.picker = { card: cards[cards.length - 1], cmds: options, multi: cards };
    render();
    return true;
  }

  /** A card that cannot be played now: a shake and the reason, in words. */
  function refuse(el) {
    const o = obs();
    if (!o || !el || me() === null || handlers.readonly) return;
    const card = cardName(el.dataset.card, o.side);
    const firsts = multiFirsts(cmds(), el.dataset.card);
    let text;
    const restrict = o.options?.finishRestriction ?? "off";
    const face = faceInfo(el.dataset.card, o.side);
    const wild = face && !face.color;
    const lastBanned = o.hand.length === 1 && o.current === me() && o.phase === "AWAIT_TURN"
      && ((wild && restrict.includes("no_wild")) || (face && !wild && face.kind !== "number" && restrict.includes("no_action")));
    if (firsts.length) text = t("multi.notFirst", { card, first: listText(firsts.map((c) => cardName(c, o.side)), "or") });
    else if (lastBanned) text = t(wild ? "refuse.lastWild" : "refuse.lastAction", { card });
    else if (["ROUND_OVER", "MATCH_OVER"].includes(o.phase)) text = t("refuse.over");
    else if (o.current !== me()) text = t("refuse.notYourTurn", { card });
    else if (o.phase !== "AWAIT_TURN" && o.phase !== "AWAIT_DRAWN") text = t("refuse.decide");
    else if (o.phase === "AWAIT_DRAWN") text = t("refuse.drawn", { card });
    else text = t("refuse.card", { card, top: o.top ? cardName(o.top, o.side) : "—", color: o.color ? colorName(o.color) : "—" });
    feed.pulse(el, "shake");
    feed.say(text, { kind: "warn" });
  }

  function choose(key, value) {
    if (!ui.picker) return;
    const rest = filterChoice(ui.picker.cmds, key, value);
    if (!rest.length) return;
    if (!nextChoice(rest)) {
      send(rest[0]);
      return;
    }
    ui.picker = { ...ui.picker, cmds: rest };
    render();
  }

  function doVerb(verb, arg = null) {
    const c = cmds().find((x) => x.verb === verb && (arg === null || x.arg === arg));
    if (c) send(c);
    return Boolean(c);
  }

  function catchSeat(seat) {
    return doVerb("CATCH", `P${seat}`);
  }

  // ---- rendering -----------------------------------------------------------
  function render() {
    const o = obs();
    if (!o) return;
    document.body.dataset.side = o.side;
    document.body.dataset.variant = o.variant;
    els.table.classList.toggle("log-open", ui.logOpen);
    els.table.classList.toggle("over", ["ROUND_OVER", "MATCH_OVER"].includes(o.phase));
    els.table.classList.toggle("spectator", me() === null);
    // drop a picker whose commands are no longer legal
    if (ui.picker?.multi) {
      if (!pickedPlays(cmds(), ui.picker.multi).length) ui.picker = null;
    } else if (ui.picker) {
      const still = playsFor(cmds(), ui.picker.card);
      const texts = new Set(still.map((c) => c.text));
      ui.picker.cmds = ui.picker.cmds.filter((c) => texts.has(c.text));
      if (!ui.picker.cmds.length) ui.picker = null;
    }
    if (ui.armed && !playsFor(cmds(), ui.armed.card).length) ui.armed = null;
    if (ui.multi && !pickedPlays(cmds(), pickedCards()).length) ui.multi = null;
    renderOpponents(o);
    renderCenter(o);
    renderStatus(o);
    renderMe(o);
    renderHand(o);
    renderDecision(o);
    renderReveal(o);
    renderLog(o);
    renderRoundEnd(o);
    renderScores(o);
    renderTimer();
    renderHint();
    feed.place();
  }

  function renderHint() {
    // how to play a turn: not while the round is over (room for the next step)
    const over = ["ROUND_OVER", "MATCH_OVER"].includes(obs()?.phase);
    const want = me() !== null && !handlers.readonly && !hintDismissed() && !over;
    if (!want) {
      if (els.hintSlot.innerHTML) els.hintSlot.innerHTML = "";
      return;
    }
    const lang = document.documentElement.lang;
    const multi = String((obs()?.options?.multiPlay ?? "off") !== "off");
    const slot = els.hintSlot.dataset;
    if (slot.lang !== lang || slot.multi !== multi || !els.hintSlot.innerHTML) {
      els.hintSlot.innerHTML = hintHtml(multi === "true");
      slot.lang = lang;
      slot.multi = multi;
    }
  }

  /** Events new since the previous state: toasts, live region, sounds, animations. */
  function announce(prev, o) {
    const sameRound = prev && prev.round === o.round && prev.variant === o.variant;
    const h = o.history ?? [];
    const start = sameRound ? (prev.history?.length ?? 0) : h.length;
    if (start >= h.length) {
      if (prev && o.current === me() && prev.current !== me() && !["ROUND_OVER", "MATCH_OVER"].includes(o.phase)) feed.sound("turn");
      return;
    }
    let side = prev.side ?? "light";
    let powers = (prev.powers ?? []).map((p) => p === "G").join(",");
    const ctx = { me: me(), name: nameOf, scoringMode: o.options?.scoringMode ?? "highest", variant: o.variant };
    for (let i = start; i < h.length; i++) {
      let ev = h[i];
      ctx.side = side;
      const run = playRun(h, i, side);
      if (run > 1) {
        ev = { ...h[i + run - 1], cards: h.slice(i, i + run).map((e) => e.card) };
        i += run - 1;
      }
      const text = describeEvent(ev, ctx);
      const seat = ev.seat ?? null;
      const mine = seat !== null && seat === me();
      let show = !mine;
      let kind = "event";
      switch (ev.type) {
        case "Played": {
          feed.sound("play");
          if (!mine && !["ROUND_OVER", "MATCH_OVER"].includes(o.phase)) {
            const from = els.opponents.querySelector(`.opp[data-seat="${seat}"]`);
            feed.fly(from, root.querySelector("#discard"), renderCard(ev.card, { size: "md", side, label: "" }));
          }
          break;
        }
        case "Drew":
          feed.sound("draw");
          if (mine && ev.reason && ev.reason !== "draw") show = true;
          if (!mine) feed.pulse(els.opponents.querySelector(`.opp[data-seat="${seat}"] .count`));
          break;
        case "UnoCalled":
          // every call is a loud moment, one's own too: a burst over the seat,
          // a toast, the live region and a sound (unless muted)
          feed.sound("uno");
          feed.burst(mine ? els.me.querySelector(".me-info") : els.opponents.querySelector(`.opp[data-seat="${seat}"] .opp-head`), t("act.uno"));
          show = true;
          kind = "uno";
          break;
        case "Caught":
          if (ev.success) feed.sound("catch");
          show = true;
          break;
        case "Challenged":
          show = true;
          break;
        case "Flipped":
          side = ev.side === 1 ? "dark" : "light";
          feed.pulse(els.center, "flip-anim");
          show = true;
          break;
        case "PowersChanged": {
          const key = ev.powers.join(",");
          show = key !== powers && !ev.powers.every(Boolean);
          powers = key;
          break;
        }
        case "RoundStarted":
        case "CardTurned":
        case "RoundEnded":
        case "MatchEnded":
          show = false;
          break;
        default:
      }
      if (show && text) feed.say(text, { kind, seat });
    }
    if (o.current === me() && prev.current !== me() && !["ROUND_OVER", "MATCH_OVER"].includes(o.phase)) feed.sound("turn");
  }

  function seatOrder(o) {
    const n = o.players;
    // around the table as seated (shuffleSeats: the observation's seating)
    const ring = o.seating?.length === n ? o.seating : Array.from({ length: n }, (_, i) => i);
    const start = me() === null ? 0 : ring.indexOf(me()) + 1;
    const out = [];
    for (let i = 0; i < n; i++) {
      const s = ring[(start + i) % n];
      if (s !== me()) out.push(s);
    }
    return out;
  }

  function powerBadge(o, s) {
    if (o.variant !== "flex" || !o.powers?.length) return "";
    const g = o.powers[s] === "G";
    return `<span class="power ${g ? "power-g" : "power-x"}" title="${esc(t(g ? "table.power.G" : "table.power.X"))}" aria-label="${esc(t(g ? "table.power.G" : "table.power.X"))}">${g ? "✓" : "✗"}</span>`;
  }

  function unoBadge(o, s) {
    const u = o.uno?.[s];
    if (u === "safe") return `<span class="uno-badge safe">${esc(t("table.uno.safe"))}</span>`;
    if (u === "vulnerable") return `<span class="uno-badge vulnerable">${esc(t("table.uno.vulnerable"))}</span>`;
    return "";
  }

  function fan(cards, max) {
    // cards: array of svg strings; laid out with overlap computed by CSS
    const shown = cards.slice(0, max);
    const n = shown.length;
    return shown.map((svg, i) => `<span class="fan-card" style="--i:${i};--n:${n}">${svg}</span>`).join("");
  }

  function renderOpponents(o) {
    const catchable = new Set(catchTargets(cmds()));
    const order = seatOrder(o);
    const arrow = o.direction === "cw" ? "→" : "←";
    const parts = order.map((s, idx) => {
      const info = seatInfo(s);
      const n = o.hand_sizes[s];
      let cards;
      if (o.variant === "flip") {
        const backs = o.backs?.[s] ?? [];
        const other = o.side === "light" ? "dark" : "light";
        cards = backs.map((f) => renderCard(f, { size: "sm", side: other, label: cardName(f, other) }));
      } else {
        cards = Array.from({ length: n }, () => renderBack(o.variant, { size: "sm", label: "" }));
      }
      const turn = o.current === s && !["ROUND_OVER", "MATCH_OVER"].includes(o.phase);
      const classes = ["opp"];
      if (turn) classes.push("turn");
      // a bot still deciding after its delay (the server's "thinking" message)
      const thinking = ui.thinking && ui.thinking.seat === s && ui.thinking.version === state.version;
      if (thinking) classes.push("thinking");
      if (o.uno?.[s] === "vulnerable") classes.push("vulnerable");
      classes.push(...seatHouseClasses(o, s, me())); // teams, out of the match
      if (info && info.kind === "human" && !info.connected) classes.push("offline");
      const badges = [];
      if (info?.kind === "bot") badges.push(`<span class="badge bot">${esc(t("room.bot"))}</span>`);
      if (thinking) badges.push(`<span class="badge thinking">${esc(t("table.thinking"))}</span>`);
      // an open seat a bot plays until someone takes it: one badge, not two
      if (info?.kind === "human" && !info.claimed) badges.push(info.auto ? `<span class="badge open auto" data-auto="1">${esc(t("table.openBot"))}</span>` : `<span class="badge open">${esc(t("table.open"))}</span>`);
      else if (info?.kind === "human" && info.auto) badges.push(`<span class="badge bot auto" data-auto="1">${esc(t("table.botPlays"))}</span>`);
      if (info && info.kind === "human" && !info.connected && info.claimed) {
        badges.push(`<span class="badge offline">${esc(t("room.offline"))}</span>`);
      }
      if (o.dealer === s) badges.push(`<span class="badge dealer" title="dealer">D</span>`);
      const countText = n === 1 ? t("table.card") : t("table.cards", { n });
      const catchBtn = catchable.has(s)
        ? `<button type="button" class="btn catch" data-catch="${s}" title="${esc(t("act.catch.title", { who: nameOf(s) }))}">${esc(t("act.catch"))} <kbd>C</kbd></button>`
        : "";
      const label = `${nameOf(s)}, ${countText}`;
      const over = o.phase === "ROUND_OVER" || o.phase === "MATCH_OVER";
      const seatBtns = [];
      if (me() === null && info?.kind === "human" && !info.claimed && handlers.takeSeat) {
        seatBtns.push(`<button type="button" class="btn small" data-take-seat="${s}">${esc(t("seat.take"))}</button>`);
      }
      if (over && me() !== null && state.info?.host === me() && handlers.handOver) {
        if (info?.kind !== "bot") seatBtns.push(`<button type="button" class="btn small ghost" data-hand-over="${s}:bot">${esc(t("seat.toBot"))}</button>`);
        // a bot's seat is opened to a newcomer only in a room others can join:
        // public, watched, or with another person's seat; never in a solo game
        if (info?.kind === "bot" ? shared() : info?.claimed) seatBtns.push(`<button type="button" class="btn small ghost" data-hand-over="${s}:open">${esc(t("seat.open"))}</button>`);
      }
      const sep = idx < order.length - 1 ? `<span class="flow" aria-hidden="true">${arrow}</span>` : "";
      return `
        <div class="${classes.join(" ")}" data-seat="${s}" role="group" aria-label="${esc(label)}">
          <div class="opp-head">
            <span class="avatar" style="--hue:${hue(s)}">${(seatInfo(s)?.name ? initialOf(nameOf(s)) : String(s + 1))}</span>
            <span class="opp-name">${esc(nameOf(s))}</span>
            <span class="timer-slot" data-timer="${s}"></span>
          </div>
          <div class="opp-cards fan ${o.variant === "flip" ? "fan-faces" : ""}" ${o.variant === "flip" ? `aria-label="${esc(t("table.backs", { who: nameOf(s) }))}"` : 'aria-hidden="true"'}>${fan(cards, 30)}</div>
          <div class="opp-foot">
            <span class="count" data-count="${n}">${esc(countText)}</span>
            <span class="score" title="${esc(t("round.total"))}">${o.scores[s]} pts</span>
            ${powerBadge(o, s)}
            ${unoBadge(o, s)}
            ${badges.join("")}
            ${seatHouseBadges(o, s, me(), nameOf)}
          </div>
          ${catchBtn}
          ${seatBtns.length ? `<div class="seat-btns">${seatBtns.join("")}</div>` : ""}
        </div>${sep}`;
    });
    els.opponents.innerHTML = parts.join("");
    els.opponents.dataset.count = String(order.length);
  }

  function renderCenter(o) {
    const drawCmd = findVerb(cmds(), "DRAW");
    let drawCard;
    if (o.variant === "flip" && o.draw_top_back) {
      const other = o.side === "light" ? "dark" : "light";
      drawCard = renderCard(o.draw_top_back, { size: "md", side: other, label: `${t("table.drawTopBack")}: ${cardName(o.draw_top_back, other)}` });
    } else if (o.draw_size > 0) {
      drawCard = renderBack(o.variant, { size: "md", label: t("table.draw") });
    } else {
      drawCard = `<span class="empty-pile"></span>`;
    }
    const top = o.top;
    const topSvg = top
      ? renderCard(top, { size: "lg", side: o.side, label: cardName(top, o.side) })
      : `<span class="empty-pile lg"></span>`;
    const changed = top !== ui.lastTop;
    ui.lastTop = top;
    const color = o.color;
    const cInfo = color ? colorInfo[color] : null;
    const colorBadge = cInfo
      ? `<div class="color-badge" style="--c:${cInfo.css}" data-color="${color}">${renderSymbol(color, { px: 26, label: colorName(color) })}<span>${esc(colorName(color))}</span></div>`
      : "";
    const dirLabel = t(o.direction === "cw" ? "table.dir.cw" : "table.dir.ccw");
    const pending = o.pending_draw > 0 ? `<div class="pending">${esc(t("table.pending", { n: o.pending_draw }))}</div>${o.pending ? `<small class="pending-to">${esc(pendingToText(o, whoText))}</small>` : ""}` : "";
    const sideBadge =
      o.variant === "flip"
        ? `<div class="side-badge ${o.side}" data-side="${o.side}"><span aria-hidden="true">${o.side === "dark" ? "☾" : "☀"}</span> ${esc(t(`table.side.${o.side}`))}</div>`
        : "";
    els.center.innerHTML = `
      <div class="pile draw-pile ${drawCmd ? "can-draw" : ""}" id="draw-pile"
           ${drawCmd ? `role="button" tabindex="0" aria-label="${esc(t("act.draw"))} (D)"` : `aria-label="${esc(t("table.draw"))}"`}>
        <div class="pile-stack">${drawCard}</div>
        <div class="pile-label">${esc(t("table.drawCount", { n: o.draw_size }))}</div>
      </div>
      <div class="discard-wrap">
        <div class="dir-ring ${o.direction}" title="${esc(dirLabel)}" aria-label="${esc(dirLabel)}" role="img">${dirRingSvg(o.direction)}</div>
        <div class="discard ${changed ? "pop" : ""}" id="discard" aria-label="${esc(t("table.discard"))}">${topSvg}</div>
      </div>
      <div class="center-info">
        ${sideBadge}
        ${colorBadge}
        <div class="dir-text" data-direction="${o.direction}"><span aria-hidden="true">${o.direction === "cw" ? "↻" : "↺"}</span> ${esc(dirLabel)}</div>
        ${pending}
        ${o.variant === "flex" ? `<div class="power-legend" id="power-legend">${esc(t("table.powers.legend"))}</div>` : ""}
        <button type="button" class="rules-chip" id="rules-chip" title="${esc(t("howto.house"))}">${esc(rulesChip(o.options ?? state.info?.options ?? {}))}</button>
        ${ruleChipsHtml(o.options ?? state.info?.options ?? {})}
        ${teamScoresHtml(o, whoText)}
      </div>`;
  }

  function dirRingSvg(dir) {
    // a dashed ellipse around the discard pile (same proportions as its box)
    // with three arrowheads that point the way play goes
    const rx = 66;
    const ry = 77;
    const heads = [-90, 30, 150]
      .map((a) => {
        const tt = (a * Math.PI) / 180;
        const x = (70 + rx * Math.cos(tt)).toFixed(2);
        const y = (81 + ry * Math.sin(tt)).toFixed(2);
        let rot = (Math.atan2(ry * Math.cos(tt), -rx * Math.sin(tt)) * 180) / Math.PI;
        if (dir !== "cw") rot += 180;
        return `<path d="M7 0 L-5 -6.5 L-2 0 L-5 6.5 Z" transform="translate(${x} ${y}) rotate(${rot.toFixed(1)})"/>`;
      })
      .join("");
    return `<svg viewBox="0 0 140 162" aria-hidden="true"><ellipse cx="70" cy="81" rx="${rx}" ry="${ry}" fill="none" stroke="currentColor" stroke-width="1.8" stroke-dasharray="3 6"/><g fill="currentColor">${heads}</g></svg>`;
  }

  function statusText(o) {
    const my = me();
    const cur = o.current;
    if (o.phase === "ROUND_OVER" || o.phase === "MATCH_OVER") {
      if (o.winner === null || o.winner === undefined) return t("round.blocked");
      return o.winner === my ? t("round.winner.you", { points: o.round_points }) : t("round.winner", { who: nameOf(o.winner), points: o.round_points });
    }
    const mine = my !== null && cur === my && o.legal.some((c) => !/ (UNO|CATCH)/.test(c));
    if (mine) {
      if (o.phase === "AWAIT_DRAWN" && o.drawn) return t("table.yourTurn.drawn", { card: cardName(o.drawn, o.side) });
      if (o.phase === "AWAIT_COLOR") return t("table.yourTurn.color");
      if (o.phase === "AWAIT_CHALLENGE") {
        return t("table.yourTurn.challenge", { who: nameOf(o.challenge_offender), card: cardName(o.top, o.side) });
      }
      if (o.pending_draw > 0) return t("table.yourTurn.stack", { n: o.pending_draw });
      return t("table.yourTurn.play");
    }
    if (my !== null && o.legal.some((c) => / PLAY /.test(c))) return t("table.jumpIn");
    if (o.phase === "AWAIT_COLOR") return t("table.waitingColor", { who: nameOf(cur) });
    if (o.phase === "AWAIT_CHALLENGE") return t("table.waitingChallenge", { who: nameOf(cur) });
    return t("table.waitingFor", { who: nameOf(cur) });
  }

  function renderStatus(o) {
    const my = me();
    const mine = my !== null && o.current === my && !["ROUND_OVER", "MATCH_OVER"].includes(o.phase);
    els.status.classList.toggle("mine", mine);
    els.status.innerHTML = `<span class="status-text">${esc(statusText(o))}</span>`;
    renderNextStep(o);
  }

  /**
   * The ready check (docs/protocol.md `ready`): this seat's Ready is noted in
   * info.ready; the round waits for the people still listed here. The host
   * may deal without them after READY_WAIT_MS.
   */
  const READY_WAIT_MS = 20_000;
  function readyCheck(o) {
    const info = state?.info;
    if (!handlers.ready || !info || me() === null) return null;
    const ready = new Set(info.ready ?? []);
    const waiting = (info.seats ?? [])
      .filter((x) => x.kind === "human" && x.claimed && x.connected && !x.auto && !ready.has(x.seat))
      .map((x) => x.seat);
    const key = `${info.match}:${o.round}:${o.phase}`;
    if (ui.overKey !== key) {
      ui.overKey = key;
      ui.overSince = Date.now();
      clearTimeout(ui.overTimer);
      ui.overTimer = setTimeout(() => state && render(), READY_WAIT_MS + 50);
    }
    const host = info.host === me();
    return { mine: ready.has(me()), waiting, canForce: host && Date.now() - ui.overSince >= READY_WAIT_MS };
  }

  /** The Next round / New match control, or "Ready ✓ · waiting for …" once said. */
  function nextControl(o, bar) {
    const matchOver = o.phase === "MATCH_OVER";
    const rc = readyCheck(o);
    const id = `${matchOver ? "act-newmatch" : "act-next"}${bar ? "-bar" : ""}`;
    if (rc?.mine) {
      const names = listText(rc.waiting.map((x) => nameOf(x)));
      const note = `<span class="ready-note" data-ready-note>${esc(rc.waiting.length ? t("ready.waiting", { who: names }) : t("ready.done"))}</span>`;
      const force = rc.canForce
        ? ` <button type="button" class="btn ghost" id="act-deal-now${bar ? "-bar" : ""}" data-deal-now>${esc(t(matchOver ? "ready.forceMatch" : "ready.force"))}</button>`
        : "";
      return note + force;
    }
    const label = matchOver ? (rc ? t("ready.rematch") : t("act.newMatch")) : rc ? t("ready.next") : t("act.next");
    return `<button type="button" class="btn primary" id="${id}">${esc(label)} <kbd>N</kbd></button>`;
  }

  /** The next step: Ready (the ready check) or, without it, the step itself. */
  function goOn(o) {
    if (handlers.ready) return void handlers.ready();
    if (o.phase === "ROUND_OVER") handlers.nextRound();
    else if (o.phase === "MATCH_OVER") handlers.newMatch();
  }

  /** After a round or a match: the next step stays on the table when the panel is closed. */
  function renderNextStep(o) {
    const over = o.phase === "ROUND_OVER" || o.phase === "MATCH_OVER";
    if (!over) {
      els.nextStep.hidden = true;
      els.nextStep.innerHTML = "";
      return;
    }
    const matchOver = o.phase === "MATCH_OVER";
    const action = me() === null ? `<span>${esc(t("match.waitNext"))}</span>` : nextControl(o, true);
    const html = `<span>${esc(t(matchOver ? "table.nextStep.match" : "table.nextStep.round"))}</span> ${action}
      <button type="button" class="btn ghost" id="act-results">${esc(t("table.results"))}</button>
      ${matchOver && me() !== null && handlers.record ? `<button type="button" class="btn ghost" id="act-record-bar">${esc(t("round.download"))}</button>` : ""}`;
    els.nextStep.hidden = false;
    if (els.nextStep.dataset.html !== html) {
      els.nextStep.innerHTML = html;
      els.nextStep.dataset.html = html;
    }
  }

  function renderMe(o) {
    const my = me();
    const cs = cmds();
    if (my === null) {
      els.me.innerHTML = `<div class="me-info"><span class="badge">${esc(t("table.spectator"))}</span> <span>${esc(t("room.spectating"))}</span></div>`;
      return;
    }
    const drawCmd = findVerb(cs, "DRAW");
    const passCmd = findVerb(cs, "PASS");
    const unoCmd = findVerb(cs, "UNO");
    const turn = o.current === my && !["ROUND_OVER", "MATCH_OVER"].includes(o.phase);
    const urgent = unoCmd && (o.uno[my] === "vulnerable" || (turn && o.hand.length === 2));
    const sortLabel = t(`table.sort.${ui.sort}`);
    els.me.innerHTML = `
      <div class="me-info ${turn ? "turn" : ""}">
        <span class="avatar" style="--hue:${hue(my)}">${initialOf(nameOf(my))}</span>
        <span class="me-name">${esc(nameOf(my))}</span>
        <span class="score">${o.scores[my]} pts</span>
        ${powerBadge(o, my)}
        ${unoBadge(o, my)}
        ${seatHouseBadges(o, my, my, nameOf)}
        ${seatInfo(my)?.auto ? `<span class="badge bot auto" data-auto="1">${esc(t("table.botPlays"))}</span>${seatInfo(my)?.claimed && handlers.comeBack ? ` <button type="button" class="btn small primary" id="act-back">${esc(t("seat.back"))}</button>` : ""}` : ""}
        <span class="timer-slot" data-timer="${my}"></span>
      </div>
      <div class="actions">
        <button type="button" class="btn act-draw ${drawCmd && turn && !cs.some((c) => c.verb === "PLAY") ? "primary" : ""}" id="act-draw" ${drawCmd ? "" : "disabled"}>${esc(turn && o.pending_draw > 0 ? t("act.drawPending", { n: o.pending_draw }) : t("act.draw"))} <kbd>D</kbd></button>
        <button type="button" class="btn act-pass" id="act-pass" ${passCmd ? "" : "hidden"} title="${esc(t("act.pass.title"))}">${esc(t("act.pass"))} <kbd>P</kbd></button>
        <button type="button" class="btn act-uno ${urgent ? "urgent" : ""}" id="act-uno" ${unoCmd ? "" : "disabled"}>${esc(t("act.uno"))} <kbd>U</kbd></button>
        <button type="button" class="btn ghost act-sort" id="act-sort" title="${esc(t("table.sort.title"))}">⇅ ${esc(sortLabel)} <kbd>S</kbd></button>
      </div>
      ${ui.multi ? multiBar(o) : ""}
      ${ui.armed ? `<div class="confirm-play" role="group" aria-label="${esc(t("table.tapAgain"))}">
        <button type="button" class="btn primary" id="act-play">${esc(t("table.confirm", { card: cardName(ui.armed.card, o.side) }))}</button>
        <button type="button" class="btn ghost" id="act-unarm" aria-label="${esc(t("act.cancel"))}">✕</button></div>` : ""}
      <div class="extras">
        <button type="button" class="icon-btn" id="act-mute" aria-pressed="${feed.muted}" title="${esc(t(feed.muted ? "table.sound.off" : "table.sound.on"))}" aria-label="${esc(t(feed.muted ? "table.sound.off" : "table.sound.on"))}">${feed.muted ? "🔇" : "🔊"}</button>
        ${handlers.react ? `<span class="reactions" role="group" aria-label="${esc(t("table.react"))}">${REACTIONS.map((r) => `<button type="button" class="icon-btn react-btn" data-react="${r}" aria-label="${r}">${r}</button>`).join("")}</span>` : ""}
      </div>`;
  }

  /** The cards picked to go together: their order, Play, UNO with it, cancel. */
  function multiBar(o) {
    const picks = pickedCards();
    const names = picks.map((c) => cardName(c, o.side));
    const label = picks.length === 1 ? t("table.confirm", { card: names[0] }) : t("multi.play", { n: picks.length });
    const number = faceInfo(picks[0], o.side)?.number ?? "";
    const addable = o.hand.some((c, i) => canAdd(cmds(), picks, c) && o.hand.filter((x) => x === c).length > picks.filter((x) => x === c).length);
    const note = picks.length === 1 ? t("multi.more", { number }) : t("multi.order", { cards: names.join(" → ") });
    const uno = leavesOne(o)
      ? `<button type="button" class="btn act-uno multi-uno ${ui.multi.uno ? "on" : "urgent"}" id="act-multi-uno" aria-pressed="${ui.multi.uno}" title="${esc(t("multi.uno.title"))}">${esc(t("multi.uno"))} <kbd>U</kbd></button>`
      : "";
    return `<div class="confirm-play multi-bar" role="group" aria-label="${esc(t("multi.group"))}">
        <span class="multi-note" id="multi-note">${esc(picks.length === 1 && !addable ? names[0] : note)}</span>
        <button type="button" class="btn primary" id="act-play" aria-describedby="multi-note">${esc(label)} <kbd>P</kbd></button>
        ${uno}
        <button type="button" class="btn ghost" id="act-unarm" aria-label="${esc(t("act.cancel"))}">✕ <kbd>Esc</kbd></button></div>`;
  }

  function sortedHand(o) {
    const items = o.hand.map((card, i) => ({ card, i }));
    if (ui.sort !== "none") {
      items.sort((a, b) => cmpKeys(sortKey(a.card, o.side, ui.sort), sortKey(b.card, o.side, ui.sort)) || a.i - b.i);
    }
    // occurrence numbers make duplicate cards distinguishable for focus
    const seen = {};
    for (const it of items) {
      seen[it.card] = (seen[it.card] ?? 0) + 1;
      it.occ = seen[it.card];
    }
    return items;
  }

  function renderHand(o) {
    if (me() === null) {
      els.hand.innerHTML = "";
      els.hand.setAttribute("aria-label", t("table.spectator"));
      return;
    }
    const active = document.activeElement;
    const hadFocus = active && els.hand.contains(active);
    if (hadFocus) ui.focus = { card: active.dataset.card, occ: Number(active.dataset.occ) };
    const cs = cmds();
    const playable = new Set(cs.filter((c) => c.verb === "PLAY").map((c) => c.card));
    const picks = ui.multi?.picks ?? [];
    const picked = pickedCards();
    // several cards in one play: a card that can start one, or join the picked ones
    for (const c of o.hand) {
      if (picks.length ? canAdd(cs, picked, c) : startsMulti(cs, c)) playable.add(c);
    }
    const myTurn = o.current === me();
    const items = sortedHand(o);
    const prev = new Map();
    for (const c of ui.lastHand) prev.set(c, (prev.get(c) ?? 0) + 1);
    const fresh = new Map();
    els.hand.setAttribute("aria-label", `${t("table.hand")} (${o.hand.length})`);
    els.hand.style.setProperty("--n", String(items.length));
    els.hand.innerHTML = items
      .map(({ card, occ }) => {
        const can = playable.has(card);
        const drawn = o.drawn === card;
        const name = cardName(card, o.side);
        fresh.set(card, (fresh.get(card) ?? 0) + 1);
        const isNew = ui.lastHand.length > 0 && fresh.get(card) > (prev.get(card) ?? 0);
        const at = picks.findIndex((p) => p.card === card && p.occ === occ);
        const svg = renderCard(card, { size: "md", side: o.side, playable: can || at >= 0, label: name });
        const joins = at < 0 && picks.length > 0 && canAdd(cs, picked, card);
        const cls = ["hc"];
        if (can) cls.push("playable");
        // while cards are picked, the others are dimmed (a click on one still plays it alone)
        if (at < 0 && ((!can && myTurn && playable.size) || (picks.length && !joins))) cls.push("muted");
        if (drawn) cls.push("drawn");
        if (isNew) cls.push("enter");
        let sel = ui.picker && ui.picker.card === card ? " selected" : "";
        if (ui.armed && ui.armed.card === card && ui.armed.occ === occ) sel += " armed selected";
        let label = can ? t("table.playableCard", { card: name }) : name;
        let mark = "";
        if (at >= 0) {
          sel += " picked selected";
          label = t("multi.picked", { card: name, n: at + 1 });
          mark = `<span class="pick-n" aria-hidden="true">${at + 1}</span>`;
        } else if (joins) {
          sel += " joinable";
          label = t("multi.add", { card: name });
        }
        const pressed = picks.length || startsMulti(cs, card) ? ` aria-pressed="${at >= 0}"` : "";
        return `<button type="button" class="${cls.join(" ")}${sel}" data-card="${esc(card)}" data-occ="${occ}" aria-disabled="${can || at >= 0 ? "false" : "true"}"${pressed} aria-label="${esc(label)}">${svg}${mark}</button>`;
      })
      .join("");
    ui.lastHand = [...o.hand];
    if (ui.focus) {
      const btn = [...els.hand.querySelectorAll(".hc")].find((b) => b.dataset.card === ui.focus.card && Number(b.dataset.occ) === ui.focus.occ)
        ?? els.hand.querySelector(".hc.playable") ?? els.hand.querySelector(".hc");
      if (btn && hadFocus) btn.focus({ preventScroll: true });
    }
  }

  function colorButtons(colors, verbKey, values) {
    return colors
      .map((c, i) => {
        const info = colorInfo[c];
        return `<button type="button" class="btn color-btn" style="--c:${info.css}" data-choose="${verbKey}" data-value="${esc(values[i])}" data-color="${c}">
          ${renderSymbol(c, { px: 30, label: colorName(c) })}<span>${esc(colorName(c))}</span><kbd>${i + 1}</kbd></button>`;
      })
      .join("");
  }

  function renderDecision(o) {
    const cs = cmds();
    let html = "";
    let kind = "";
    if (ui.picker) {
      const choice = nextChoice(ui.picker.cmds);
      const card = ui.picker.card;
      const name = cardName(card, o.side);
      const preview = renderCard(card, { size: "md", side: o.side, label: name });
      kind = `pick-${choice.key}`;
      let body = "";
      let title = "";
      if (choice.key === "color" || choice.key === "flipcolor") {
        title = t(choice.key === "flipcolor" ? "pick.color.flip" : "pick.color");
        body = colorButtons(choice.values, choice.key, choice.values);
      } else if (choice.key === "side") {
        title = t("pick.side", { card: name });
        const f = faceInfo(card, o.side);
        const token = faceToken(card, o.side);
        let flexDesc = "";
        if (f?.kind === "number" && f.flexColor) flexDesc = t("card.flexSide.number", { flex: colorName(f.flexColor) });
        else {
          const key = token.startsWith("W") || token === "FW4" ? token : token.replace(/^(R|Y|G|B)/, "");
          flexDesc = t(`card.flexSide.${key}`);
        }
        let regularDesc;
        if (f?.kind === "number") regularDesc = t("card.regularSide.number", { color: colorName(f.color) });
        else {
          const key = token.startsWith("W") || token === "FW4" ? token : token.replace(/^(R|Y|G|B)/, "");
          regularDesc = t(`card.regularSide.${key}`);
        }
        body = choice.values
          .map((v, i) => {
            const label = v === "flex" ? t("pick.side.flex") : t("pick.side.regular");
            const desc = v === "flex" ? flexDesc : regularDesc;
            return `<button type="button" class="btn side-btn ${v === "flex" ? "flex" : ""}" data-choose="side" data-value="${esc(v)}"><strong>${esc(label)}</strong>${desc ? `<small>${esc(desc)}</small>` : ""}<kbd>${i + 1}</kbd></button>`;
          })
          .join("");
      } else {
        title = t(choice.key === "swap" ? "pick.swap" : "pick.target");
        body = choice.values
          .map((v, i) => {
            const s = Number(String(v).replace(/^P/i, ""));
            return `<button type="button" class="btn seat-btn" data-choose="${choice.key}" data-value="${esc(v)}"><span class="avatar" style="--hue:${hue(s)}">${(seatInfo(s)?.name ? initialOf(nameOf(s)) : String(s + 1))}</span>${esc(nameOf(s))} <small>${esc(t("table.cards", { n: o.hand_sizes[s] }))}</small><kbd>${i + 1}</kbd></button>`;
          })
          .join("");
      }
      html = `<div class="decision-card" role="dialog" aria-modal="false" aria-label="${esc(title)}">
        <div class="decision-preview">${preview}</div>
        <div class="decision-main"><h2>${esc(title)}</h2><div class="choices">${body}</div>
        <button type="button" class="btn ghost" data-cancel="1">${esc(t("act.cancel"))} <kbd>Esc</kbd></button></div></div>`;
    } else if (cs.some((c) => c.verb === "COLOR")) {
      kind = "color";
      const colorCmds = cs.filter((c) => c.verb === "COLOR");
      const colors = colorCmds.map((c) => c.arg);
      const title = o.color_reason === "flip_exposed_wild" ? t("pick.color.flip") : t("pick.color");
      html = `<div class="decision-card" role="dialog" aria-modal="false" aria-label="${esc(title)}">
        <div class="decision-preview">${o.top ? renderCard(o.top, { size: "md", side: o.side, label: cardName(o.top, o.side) }) : ""}</div>
        <div class="decision-main"><h2>${esc(title)}</h2><div class="choices">${colorButtons(colors, "COLOR", colors)}</div></div></div>`;
    } else if (findVerb(cs, "CHALLENGE") || (o.phase === "AWAIT_CHALLENGE" && findVerb(cs, "ACCEPT"))) {
      kind = "challenge";
      const { base, fail } = challengeTexts(o, o.top);
      const text = t("challenge.text", { who: nameOf(o.challenge_offender), card: cardName(o.top, o.side), color: colorName(o.color), base, fail });
      const was = colorBeforeWild(o);
      const before = was
        ? `<p class="challenge-before" data-color="${esc(was)}"><strong>${esc(t("challenge.before", { color: colorName(was), who: nameOf(o.challenge_offender) }))}</strong></p>`
        : "";
      html = `<div class="decision-card" role="dialog" aria-modal="false" aria-labelledby="challenge-title">
        <div class="decision-preview">${renderCard(o.top, { size: "md", side: o.side, label: cardName(o.top, o.side) })}</div>
        <div class="decision-main"><h2 id="challenge-title">${esc(t("challenge.title"))}</h2>${before}<p>${esc(text)}</p>
        <div class="choices">
          <button type="button" class="btn" id="act-accept" data-verb="ACCEPT">${esc(t("act.accept"))} <kbd>A</kbd></button>
          ${findVerb(cs, "CHALLENGE") ? `<button type="button" class="btn primary" id="act-challenge" data-verb="CHALLENGE">${esc(t("act.challenge"))} <kbd>X</kbd></button>` : ""}
        </div></div></div>`;
    }
    const fresh = Boolean(html) && (els.decision.hidden || els.decision.innerHTML !== html);
    els.decision.hidden = !html;
    els.decision.dataset.kind = kind;
    // the panel's own row of the table's grid (app.css), never over the seats
    els.table.classList.toggle("deciding", Boolean(html));
    if (els.decision.innerHTML !== html) {
      const hadFocus = els.decision.contains(document.activeElement);
      els.decision.innerHTML = html;
      if (html && (hadFocus || !els.hand.contains(document.activeElement))) {
        els.decision.querySelector("button")?.focus({ preventScroll: true });
      }
    }
    // in its row a new panel may open below the fold of a phone: bring it in view
    if (fresh) els.decision.scrollIntoView({ block: "nearest" });
  }

  /**
   * The hand shown to this seat by its last challenge: the observation's
   * `revealed` while the engine keeps it, else the Challenged event of this
   * round's history (which carries the hand for the challenger only), so
   * that the challenger can look at it until they close it.
   */
  function revealedHand(o) {
    const h = o.history ?? [];
    let played = false;
    for (let i = h.length - 1; i >= 0; i--) {
      const ev = h[i];
      if (ev.type === "Played" && ev.seat === me()) played = true;
      if (ev.type !== "Challenged") continue;
      // only the round's latest challenge, only for its challenger, and only
      // until the challenger plays a card: a bot that plays at once must not
      // take the hand away before it was seen (it then shows the hand as it
      // was at the challenge)
      if (ev.seat === me() && ev.revealed && !played) return { seat: ev.offender, hand: ev.revealed, key: `${o.round}:${i}` };
      break;
    }
    if (o.revealed) return { seat: o.revealed.seat, hand: o.revealed.hand, key: `${o.round}:r:${o.revealed.hand.join(",")}` };
    return null;
  }

  function renderReveal(o) {
    const r = revealedHand(o);
    const over = o.phase === "ROUND_OVER" || o.phase === "MATCH_OVER";
    if (!r || over || ui.revealDismissed === r.key) {
      els.reveal.hidden = true;
      els.reveal.innerHTML = "";
      return;
    }
    els.reveal.hidden = false;
    els.reveal.dataset.seat = String(r.seat);
    els.reveal.dataset.key = r.key;
    els.reveal.innerHTML = `<div class="reveal-head"><strong>${esc(t("revealed.title", { who: nameOf(r.seat) }))}</strong>
      <button type="button" class="icon-btn" data-dismiss-reveal="${esc(r.key)}" aria-label="${esc(t("btn.close"))}">✕</button></div>
      <div class="reveal-cards">${r.hand.map((c) => renderCard(c, { size: "sm", side: o.side, label: cardName(c, o.side) })).join("") || "—"}</div>`;
  }

  function logLines(o) {
    const lines = [];
    let s = "light";
    let powers = null; // the Power Cards at the start of a round are all green
    const ctx = {
      me: me(),
      name: nameOf,
      scoringMode: o.options?.scoringMode ?? "highest",
      variant: o.variant,
    };
    const h = o.history ?? [];
    for (let i = 0; i < h.length; i++) {
      let ev = h[i];
      ctx.side = s;
      const run = playRun(h, i, s);
      if (run > 1) {
        ev = { ...h[i + run - 1], cards: h.slice(i, i + run).map((e) => e.card) };
        i += run - 1;
      }
      if (ev.type === "RoundStarted") powers = null;
      if (ev.type === "PowersChanged") {
        const key = ev.powers.join(",");
        const same = powers === null ? ev.powers.every(Boolean) : key === powers;
        powers = key;
        if (same) continue;
      }
      const text = describeEvent(ev, ctx);
      if (ev.type === "Flipped") s = ev.side === 1 ? "dark" : "light";
      if (text) {
        const seat = ev.seat ?? null;
        lines.push({ text, type: ev.type, seat, success: ev.success, at: i + 1 });
      }
    }
    return lines;
  }

  /** The number of unread chat lines on the top bar's Log button. */
  function renderUnread() {
    const btn = document.getElementById("btn-log");
    if (!btn) return;
    let mark = btn.querySelector(".unread");
    if (!ui.unread) {
      mark?.remove();
      return;
    }
    if (!mark) {
      mark = document.createElement("span");
      mark.className = "unread";
      btn.append(mark);
    }
    mark.textContent = String(ui.unread);
    mark.setAttribute("aria-label", t("chat.unread", { n: ui.unread }));
  }

  function renderLog(o) {
    els.log.querySelector("#log-title").textContent = t("log.title");
    root.querySelector("#chat-label").textContent = t("chat.label");
    els.chatInput.placeholder = t("chat.placeholder");
    const lines = logLines(o);
    // chat in time order with the moves: each line sits after the events
    // that had happened when it came (this round's lines only)
    const key = `${state.info?.match ?? 1}:${o.round}`;
    const chats = ui.chats
      .filter((c) => c.key === key)
      .map((c) => ({ text: `${c.name}: ${c.text}`, type: "chat", seat: c.seat, at: c.at }));
    const all = [];
    let k = 0;
    for (const l of lines) {
      while (k < chats.length && chats[k].at < l.at) all.push(chats[k++]);
      all.push(l);
    }
    all.push(...chats.slice(k));
    const html = all.length
      ? all
          .map(
            (l) =>
              `<li class="ev ev-${esc(l.type)} ${l.seat !== null && l.seat === me() ? "mine" : ""}" data-type="${esc(l.type)}"${l.seat !== null && l.seat !== undefined ? ` data-seat="${esc(l.seat)}"` : ""}${l.success !== undefined ? ` data-success="${l.success}"` : ""}>${esc(l.text)}</li>`,
          )
          .join("")
      : `<li class="ev empty">${esc(t("log.empty"))}</li>`;
    const shown = els.log.getClientRects().length > 0;
    if (els.logList.innerHTML !== html || (shown && !ui.logShown)) {
      els.logList.innerHTML = html;
      // the newest line in view, also when the log opens (on a phone it is
      // hidden while closed, where scrolling does nothing)
      els.logList.scrollTop = els.logList.scrollHeight;
    }
    ui.logShown = shown;
  }

  function roundEndEvent(o) {
    const h = o.history ?? [];
    for (let i = h.length - 1; i >= 0; i--) if (h[i].type === "RoundEnded") return h[i];
    return null;
  }

  function renderRoundEnd(o) {
    const over = o.phase === "ROUND_OVER" || o.phase === "MATCH_OVER";
    const key = `${state.info?.match ?? 1}:${o.round}:${o.phase}`;
    if (!over || ui.roundDismissed === key) {
      els.roundEnd.hidden = true;
      if (!over) ui.roundDismissed = null;
      return;
    }
    const ended = roundEndEvent(o);
    const matchOver = o.phase === "MATCH_OVER";
    const lowest = (o.options?.scoringMode ?? "highest") === "lowest";
    let headline;
    if (o.winner === null || o.winner === undefined) headline = t("round.blocked");
    else if (o.winner === me()) headline = t("round.winner.you", { points: o.round_points });
    else headline = t("round.winner", { who: nameOf(o.winner), points: o.round_points });
    let matchLine = "";
    if (matchOver) {
      const ws = o.match_winners ?? [];
      matchLine = ws.includes(me()) && ws.length === 1 ? t("match.winner.you") : t("match.winner", { who: listText(ws.map(whoText)) });
    }
    const prevScores = {};
    for (let s = 0; s < o.players; s++) {
      let gain = 0;
      if (ended) {
        if (lowest) gain = ended.winner === s ? 0 : ended.hand_values?.[s] ?? 0;
        else gain = ended.winner === s ? ended.points : 0;
      }
      prevScores[s] = gain;
    }
    const rows = [];
    for (let s = 0; s < o.players; s++) {
      const hand = o.final_hands?.[s] ?? [];
      const value = ended?.hand_values?.[s] ?? "";
      const cards = hand.map((c) => renderCard(c, { size: "sm", side: o.side, label: cardName(c, o.side) })).join("");
      const win = o.winner === s;
      const mw = (o.match_winners ?? []).includes(s);
      rows.push(`<tr class="${win ? "winner" : ""} ${mw ? "match-winner" : ""} ${s === me() ? "me" : ""}" data-seat="${s}">
        <th scope="row"><span class="avatar" style="--hue:${hue(s)}">${(seatInfo(s)?.name ? initialOf(nameOf(s)) : String(s + 1))}</span> ${esc(whoText(s))}${win ? ' <span aria-hidden="true">★</span>' : ""}</th>
        <td class="cards-cell"><div class="mini-hand">${cards || "—"}</div></td>
        <td class="num">${esc(value)}</td>
        <td class="num gain">${prevScores[s] ? `+${prevScores[s]}` : "0"}</td>
        <td class="num total">${o.scores[s]}</td></tr>`);
    }
    const seated = me() !== null;
    const button = nextControl(o, false);
    const html = `<div class="panel round-panel" role="dialog" aria-modal="true" aria-labelledby="round-title">
      <h2 id="round-title">${esc(matchOver ? t("match.over") : t("round.over", { n: o.round }))}</h2>
      ${matchLine ? `<p class="match-line">${esc(matchLine)}</p>` : ""}
      <p class="round-line">${esc(headline)}</p>
      <div class="table-scroll"><table class="score-table">
        <thead><tr><th scope="col">${esc(t("round.player"))}</th><th scope="col">${esc(t("round.hand"))}</th><th scope="col">${esc(t("round.value"))}</th><th scope="col">+</th><th scope="col">${esc(t("round.total"))}</th></tr></thead>
        <tbody>${rows.join("")}</tbody></table></div>
      ${scoreboardHtml(o)}
      <div class="panel-actions">
        <button type="button" class="btn ghost" id="round-hide">${esc(t("btn.close"))}</button>
        ${matchOver && seated && handlers.record ? `<button type="button" class="btn ghost" id="act-record">${esc(t("round.download"))}</button>` : ""}
        ${seated ? button : `<span>${esc(t("match.waitNext"))}</span>`}
      </div></div>`;
    els.roundEnd.hidden = false;
    const rc = readyCheck(o);
    const drawn = `${key}:${me()}:${o.scores.join(",")}:${(state.info?.ready ?? []).join(",")}:${rc?.waiting.join(",")}:${rc?.canForce}`;
    if (els.roundEnd.dataset.key !== drawn || els.roundEnd.dataset.lang !== document.documentElement.lang) {
      els.roundEnd.innerHTML = html;
      els.roundEnd.dataset.key = drawn;
      els.roundEnd.dataset.lang = document.documentElement.lang;
      els.roundEnd.querySelector(".btn.primary")?.focus({ preventScroll: true });
    }
  }

  function scoreboardHtml(o) {
    const target = o.options?.targetScore ?? 500;
    const lowest = (o.options?.scoringMode ?? "highest") === "lowest";
    const single = o.options?.matchMode === "single_round";
    const order = [...Array(o.players).keys()].sort((a, b) => (lowest ? o.scores[a] - o.scores[b] : o.scores[b] - o.scores[a]));
    const bars = order
      .map((s) => {
        const pct = Math.min(100, Math.round((100 * o.scores[s]) / Math.max(1, target)));
        return `<li class="${s === me() ? "me" : ""}" data-seat="${s}"><span class="sb-name">${esc(whoText(s))}</span>
          <span class="bar" role="progressbar" aria-valuemin="0" aria-valuemax="${target}" aria-valuenow="${o.scores[s]}"><span style="width:${pct}%"></span></span>
          <span class="sb-score">${o.scores[s]}</span></li>`;
      })
      .join("");
    const caption = single ? t("matchMode.single_round") : lowest ? t("match.targetLowest", { n: target }) : t("match.target", { n: target });
    return `<section class="scoreboard" aria-label="${esc(t("match.scoreboard"))}"><h3>${esc(t("match.scoreboard"))} <small>${esc(caption)}</small></h3><ol class="sb-list">${bars}</ol></section>`;
  }

  function renderScores(o) {
    if (!ui.scoresOpen) {
      els.scores.hidden = true;
      return;
    }
    els.scores.hidden = false;
    els.scores.innerHTML = `<div class="panel" role="dialog" aria-modal="true" aria-label="${esc(t("match.scoreboard"))}">
      ${scoreboardHtml(o)}
      <div class="panel-actions"><button type="button" class="btn" id="scores-close">${esc(t("btn.close"))} <kbd>Esc</kbd></button></div></div>`;
  }

  // ---- turn timer ------------------------------------------------------------
  function renderTimer() {
    if (ui.timer) clearInterval(ui.timer);
    ui.timer = null;
    const o = obs();
    for (const el of root.querySelectorAll(".timer-slot")) el.textContent = "";
    if (!o || state.remaining === null || state.remaining === undefined) return;
    const endAt = performance.now() + state.remaining * 1000;
    const total = Math.max(state.info?.turn_timer ?? state.remaining, state.remaining, 1);
    const slot = root.querySelector(`.timer-slot[data-timer="${o.current}"]`);
    if (!slot) return;
    const tick = () => {
      const ms = Math.max(0, endAt - performance.now());
      const left = Math.ceil(ms / 1000);
      // a countdown ring: the share of the turn's time still left
      const pct = Math.round((100 * ms) / (total * 1000));
      const ring = `<svg class="timer-ring" viewBox="0 0 20 20" aria-hidden="true"><circle class="ring-bg" cx="10" cy="10" r="8"/><circle class="ring-fg" cx="10" cy="10" r="8" pathLength="100" stroke-dasharray="100" stroke-dashoffset="${100 - pct}" transform="rotate(-90 10 10)"/></svg>`;
      slot.innerHTML = `${ring}${left}s`;
      slot.dataset.left = String(pct);
      slot.classList.toggle("low", left <= 5);
      if (left <= 0 && ui.timer) {
        clearInterval(ui.timer);
        ui.timer = null;
      }
    };
    tick();
    ui.timer = setInterval(tick, 250);
  }

  // ---- events ------------------------------------------------------------------
  root.addEventListener("click", (e) => {
    const el = e.target.closest("button, [role=button]");
    if (!el || !root.contains(el)) return;
    if (el.classList.contains("hc")) {
      if (el.getAttribute("aria-disabled") === "true") {
        refuse(el);
        return;
      }
      if (pickCard(el.dataset.card, Number(el.dataset.occ))) return;
      if (coarsePointer()) {
        // touch: the first tap selects, a second tap (or Play) plays
        const occ = Number(el.dataset.occ);
        if (ui.armed && ui.armed.card === el.dataset.card && ui.armed.occ === occ) {
          ui.armed = null;
          playCard(el.dataset.card);
        } else {
          ui.armed = { card: el.dataset.card, occ };
          render();
        }
        return;
      }
      playCard(el.dataset.card);
      return;
    }
    if (el.dataset.react) {
      handlers.react?.(el.dataset.react);
      return;
    }
    if (el.dataset.takeSeat !== undefined) return void handlers.takeSeat?.(Number(el.dataset.takeSeat));
    if (el.dataset.handOver) {
      const [seat, to] = el.dataset.handOver.split(":");
      return void handlers.handOver?.(Number(seat), to);
    }
    if (el.id === "act-back") return void handlers.comeBack?.();
    if (el.dataset.catch !== undefined) return void catchSeat(Number(el.dataset.catch));
    if (el.dataset.choose !== undefined) {
      const key = el.dataset.choose;
      if (key === "COLOR") return void doVerb("COLOR", el.dataset.value);
      return void choose(key, el.dataset.value);
    }
    if (el.dataset.verb) return void doVerb(el.dataset.verb);
    if (el.dataset.cancel) {
      ui.picker = null;
      render();
      els.hand.querySelector(".hc.playable")?.focus();
      return;
    }
    if (el.dataset.dismissReveal) {
      ui.revealDismissed = el.dataset.dismissReveal;
      render();
      return;
    }
    switch (el.id) {
      case "draw-pile":
      case "act-draw":
        return void doVerb("DRAW");
      case "act-pass":
        return void doVerb("PASS");
      case "act-uno":
        return void doVerb("UNO");
      case "act-sort":
        return void cycleSort();
      case "act-next":
      case "act-next-bar":
      case "act-newmatch":
      case "act-newmatch-bar":
        return void goOn(obs());
      case "act-deal-now":
      case "act-deal-now-bar":
        // the host goes on without the people not ready yet
        return void (obs().phase === "MATCH_OVER" ? handlers.newMatch() : handlers.nextRound());
      case "act-results":
        ui.roundDismissed = null;
        els.roundEnd.dataset.key = "";
        render();
        return;
      case "act-record":
      case "act-record-bar":
        return void handlers.record?.();
      case "act-play": {
        if (ui.multi) return void playPicked();
        const a = ui.armed;
        ui.armed = null;
        if (a) playCard(a.card);
        return;
      }
      case "act-multi-uno":
        ui.multi.uno = !ui.multi.uno;
        render();
        root.querySelector("#act-multi-uno")?.focus();
        return;
      case "act-unarm":
        ui.multi = null;
        ui.armed = null;
        render();
        return;
      case "act-mute":
        feed.setMuted(!feed.muted);
        render();
        root.querySelector("#act-mute")?.focus();
        return;
      case "rules-chip":
        return void handlers.howto?.();
      case "hint-dismiss":
        dismissHint();
        render();
        return;
      case "round-hide":
        hideRoundEnd();
        return;
      case "scores-close":
        ui.scoresOpen = false;
        render();
        return;
      case "log-close":
        ui.logOpen = false;
        render();
        return;
      default:
    }
  });

  els.chatForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = els.chatInput.value.trim();
    if (!text) return;
    handlers.chat(text.slice(0, 200));
    els.chatInput.value = "";
  });

  /** Close the round-over panel; the focus goes to the next step left on the table. */
  function hideRoundEnd() {
    const o = obs();
    ui.roundDismissed = `${state.info?.match ?? 1}:${o.round}:${o.phase}`;
    render();
    els.nextStep.querySelector(".btn.primary, .btn")?.focus({ preventScroll: true });
  }

  function cycleSort() {
    ui.sort = SORTS[(SORTS.indexOf(ui.sort) + 1) % SORTS.length];
    try {
      localStorage.setItem(SORT_KEY, ui.sort);
    } catch {
      /* ignore */
    }
    render();
  }

  function moveFocus(delta, absolute = null) {
    const btns = [...els.hand.querySelectorAll(".hc")];
    if (!btns.length) return;
    let i = btns.indexOf(document.activeElement);
    if (absolute !== null) i = absolute < 0 ? btns.length - 1 : absolute;
    else if (i < 0) i = Math.max(0, btns.findIndex((b) => b.classList.contains("playable")));
    else i = (i + delta + btns.length) % btns.length;
    btns[i].focus();
  }

  function choiceButtons() {
    return [...els.decision.querySelectorAll("[data-choose]")];
  }

  /** Keyboard: returns true when the key was used. */
  function key(e) {
    const o = obs();
    if (!o) return false;
    if (e.target.closest?.("input, textarea, select")) return false;
    if (e.ctrlKey || e.metaKey || e.altKey) return false;
    const k = e.key;
    const lower = k.length === 1 ? k.toLowerCase() : k;
    if ((k === "Enter" || k === " ") && e.target.id === "draw-pile") return doVerb("DRAW");
    // decisions first: number keys and colour initials
    if (!els.decision.hidden) {
      const btns = choiceButtons();
      if (/^[1-9]$/.test(k) && btns[Number(k) - 1]) {
        btns[Number(k) - 1].click();
        return true;
      }
      const byInitial = btns.find((b) => b.dataset.color && colorKey(b.dataset.color) === lower);
      if (byInitial) {
        byInitial.click();
        return true;
      }
      if (k === "Escape" && ui.picker) {
        ui.picker = null;
        render();
        moveFocus(0);
        return true;
      }
      if (lower === "a" && findVerb(cmds(), "ACCEPT")) return doVerb("ACCEPT");
      if (lower === "x" && findVerb(cmds(), "CHALLENGE")) return doVerb("CHALLENGE");
    }
    if (k === "Escape") {
      if (ui.scoresOpen) {
        ui.scoresOpen = false;
        render();
        return true;
      }
      if (!els.roundEnd.hidden) {
        hideRoundEnd();
        return true;
      }
      if (ui.armed || ui.multi) {
        ui.armed = null;
        ui.multi = null;
        render();
        if (!els.hand.contains(document.activeElement)) moveFocus(0);
        return true;
      }
      if (!els.reveal.hidden) {
        els.reveal.querySelector("[data-dismiss-reveal]")?.click();
        return true;
      }
      return false;
    }
    const inHand = els.hand.contains(document.activeElement);
    switch (lower) {
      case "ArrowRight":
      case "ArrowDown":
        if (!inHand && !els.decision.hidden) return false;
        moveFocus(1);
        return true;
      case "ArrowLeft":
      case "ArrowUp":
        if (!inHand && !els.decision.hidden) return false;
        moveFocus(-1);
        return true;
      case "Home":
        moveFocus(0, 0);
        return true;
      case "End":
        moveFocus(0, -1);
        return true;
      case "d":
        return doVerb("DRAW");
      case "p":
        // Pass (only after a draw, when nothing can be picked) or play the picked cards
        if (findVerb(cmds(), "PASS")) return doVerb("PASS");
        return playPicked();
      case "u":
        if (ui.multi && leavesOne(o)) {
          ui.multi.uno = !ui.multi.uno;
          render();
          return true;
        }
        return doVerb("UNO");
      case "c": {
        const targets = catchTargets(cmds());
        if (targets.length) return catchSeat(targets[0]);
        return false;
      }
      case "a":
        return doVerb("ACCEPT");
      case "x":
        return doVerb("CHALLENGE");
      case "s":
        cycleSort();
        return true;
      case "l":
        ui.logOpen = !ui.logOpen;
        if (ui.logOpen) ui.unread = 0;
        renderUnread();
        render();
        return true;
      case "n":
        if (me() === null || !["ROUND_OVER", "MATCH_OVER"].includes(o.phase) || readyCheck(o)?.mine) return false;
        goOn(o);
        return true;
      default:
        return false;
    }
  }

  function colorKey(code) {
    return { R: "r", Y: "y", G: "g", B: "b", Pk: "k", Tl: "t", Or: "o", Pu: "v" }[code];
  }

  return {
    update(next) {
      const prev = state?.observation ?? null;
      const prevRound = prev?.round;
      state = next;
      if (obs() && prevRound !== undefined && prevRound !== obs().round) {
        ui.revealDismissed = null;
        ui.lastHand = [];
      }
      render();
      if (prev && obs()) announce(prev, obs());
    },
    thinking(msg) {
      ui.thinking = { seat: msg.seat, version: msg.version };
      if (state && state.version === msg.version) render();
    },
    reaction(msg) {
      const who = msg.seat === me() ? t("table.you") : (msg.name ?? nameOf(msg.seat));
      feed.say(t("react.from", { who, emoji: msg.emoji }), { kind: "react", seat: msg.seat });
      feed.sound("react");
      const box = els.opponents.querySelector(`.opp[data-seat="${msg.seat}"]`) ?? els.me.querySelector(".me-info");
      if (box) {
        const bubble = document.createElement("span");
        bubble.className = "react-bubble";
        bubble.textContent = msg.emoji;
        box.append(bubble);
        setTimeout(() => bubble.remove(), 2500);
      }
    },
    refresh() {
      if (state) {
        els.roundEnd.dataset.key = "";
        render();
      }
    },
    key,
    chat(msg, { before = false } = {}) {
      // before: said in the waiting room, before the deal (already seen there)
      const o = obs();
      const at = before ? 0 : o?.history?.length ?? 0;
      ui.chats.push({ ...msg, at, key: `${state?.info?.match ?? 1}:${o?.round ?? 0}` });
      if (ui.chats.length > 50) ui.chats.shift();
      if (state) renderLog(o);
      if (before) return;
      // with the log closed (or on a phone, where it covers the table) a line
      // from someone else is a toast and an unread mark on the Log button
      const open = ui.logOpen && els.log.getClientRects().length > 0;
      if (msg.seat !== me() && !open) {
        feed.say(t("chat.from", { who: msg.name, text: msg.text }), { kind: "chat", seat: msg.seat });
        ui.unread += 1;
        renderUnread();
      }
    },
    toggleLog() {
      ui.logOpen = !ui.logOpen;
      if (ui.logOpen) ui.unread = 0;
      render();
      renderUnread();
    },
    openScores() {
      ui.scoresOpen = true;
      render();
      els.scores.querySelector("button")?.focus();
    },
    clearFeed() {
      feed.clear();
    },
    focusHand() {
      moveFocus(0);
    },
  };
}
