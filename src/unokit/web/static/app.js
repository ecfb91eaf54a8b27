/**
 * unokit web app — entry point (ES module, no build step).
 *
 * Routes: "/" the lobby; "/r/<code>" a room (join form, waiting room, table).
 * Talks to the server as docs/protocol.md describes: REST to create and join
 * rooms, one WebSocket per room for everything else. The seat token of each
 * room is kept in localStorage ("unokit.room.<code>"), so a refresh or a
 * reconnect returns the same seat.
 */

import { LANGS, lang, onLangChange, setLang, t, translatePage } from "./i18n.js";
import { howToHtml, useRegistry } from "./howto.js";
import { renderLobby, renderRoom } from "./lobby.js";
import { openReplay } from "./replay.js";
import { createTable, esc } from "./table.js";

const ROOM_KEY = (code) => `unokit.room.${code}`;
const ROOMS_INDEX = "unokit.rooms";

// ---- storage -------------------------------------------------------------------
function storeGet(key) {
  try {
    return JSON.parse(localStorage.getItem(key) ?? "null");
  } catch {
    return null;
  }
}
function storeSet(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* storage disabled: the seat lasts as long as the page */
  }
}
function rememberRoom(code, data) {
  storeSet(ROOM_KEY(code), data);
  const idx = (storeGet(ROOMS_INDEX) ?? []).filter((r) => r.code !== code);
  idx.unshift({ code, variant: data.variant, name: data.name, at: Date.now() });
  storeSet(ROOMS_INDEX, idx.slice(0, 8));
}
function forgetRoom(code) {
  storeSet(ROOM_KEY(code), null);
  storeSet(ROOMS_INDEX, (storeGet(ROOMS_INDEX) ?? []).filter((r) => r.code !== code));
}

// ---- REST --------------------------------------------------------------------------
async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body ? { "content-type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    let msg = data?.detail ?? res.statusText;
    if (Array.isArray(msg)) msg = msg.map((d) => d.msg ?? JSON.stringify(d)).join("; ");
    const err = new Error(String(msg));
    err.status = res.status;
    throw err;
  }
  return data;
}

// ---- page state ----------------------------------------------------------------------
const views = {
  lobby: document.getElementById("view-lobby"),
  room: document.getElementById("view-room"),
  table: document.getElementById("view-table"),
  replay: document.getElementById("view-replay"),
};
const conn = document.getElementById("conn");
const toastEl = document.getElementById("toast");
const helpEl = document.getElementById("help");
const app = {
  meta: null,
  code: null,
  socket: null,
  seat: null,
  host: false,
  spectator: false,
  wantSpectate: false,
  state: null,
  info: null,
  retry: 0,
  reqId: 0,
  // commands sent but not yet answered (id -> message): resent after a reconnect.
  // Each names the version it was decided on, so the server applies it once.
  pending: new Map(),
  resent: new Set(),
  resyncing: false,
  closed: false,
  error: null,
  lobbyRedraw: null,
  // chat lines said in the waiting room, before the first deal: shown there,
  // then at the top of the table's log (in time order with the moves)
  roomChats: [],
};
let table = null;

function show(view) {
  const changed = document.body.dataset.view !== view;
  document.body.dataset.view = view;
  for (const [k, el] of Object.entries(views)) el.hidden = k !== view;
  document.getElementById("btn-log").hidden = view !== "table";
  document.getElementById("btn-scores").hidden = view !== "table";
  if (changed) moveFocus(view);
}

/** A new view: the focus goes to its main control (not left on a hidden element). */
function moveFocus(view) {
  requestAnimationFrame(() => {
    const active = document.activeElement;
    if (active && active !== document.body && !active.closest("[hidden]") && views[view]?.contains(active)) return;
    const target =
      view === "table"
        ? views.table.querySelector("#hand .hc.playable, #decision button, #next-step .btn.primary, #hand .hc")
        : view === "lobby"
          ? views.lobby.querySelector("#quick-bots")
          : views[view]?.querySelector("input:not([readonly]), .btn.primary, h1");
    (target ?? document.getElementById("main"))?.focus({ preventScroll: true });
  });
}

let toastTimer = null;
function toast(msg, kind = "error") {
  toastEl.textContent = msg;
  toastEl.dataset.kind = kind;
  toastEl.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    toastEl.hidden = true;
  }, 4500);
}

function setConn(status) {
  document.body.dataset.conn = status;
  if (status === "ok") {
    conn.hidden = true;
    return;
  }
  conn.hidden = false;
  conn.textContent = t(status === "lost" ? "conn.lost" : "conn.connecting");
}

// ---- routing ---------------------------------------------------------------------------
function roomFromPath() {
  const m = /^\/r\/([a-z0-9]{4,32})\/?$/i.exec(location.pathname);
  return m ? m[1].toLowerCase() : null;
}

async function route() {
  closeSocket();
  const code = roomFromPath();
  if (code !== app.code) {
    table = null; // another room: no toasts from the last one's events
    app.roomChats = [];
  }
  app.code = code;
  app.state = null;
  app.info = null;
  app.seat = null;
  app.error = null;
  app.wantSpectate = false;
  app.pending.clear();
  app.resent.clear();
  if (!app.code) {
    // a link to a room whose code cannot be one (/r/NOPE!): say so
    const bad = /^\/r\/(.+)$/.exec(location.pathname);
    return showLobby(bad ? t("error.noRoom", { code: decodeURIComponent(bad[1]).slice(0, 40) }) : null);
  }
  loadMeta(); // the rules registry, for the table's rule chips (not awaited)
  return openRoom(app.code);
}

function navigate(path) {
  history.pushState(null, "", path);
  route();
}

window.addEventListener("popstate", () => route());

async function loadMeta() {
  if (app.meta) return app.meta;
  try {
    app.meta = await api("GET", "/api/meta");
    useRegistry(app.meta); // the house rules and presets the server plays
  } catch {
    app.meta = null;
  }
  return app.meta;
}

async function showLobby(error = null) {
  if (location.pathname !== "/") history.replaceState(null, "", "/");
  app.code = null;
  show("lobby");
  document.title = "unokit";
  updateTopbar();
  const meta = await loadMeta();
  const recent = (storeGet(ROOMS_INDEX) ?? []).filter((r) => storeGet(ROOM_KEY(r.code)));
  const seated = (res, variant, name) => {
    rememberRoom(res.room, { token: res.token, seat: res.seat, variant, name });
    navigate(`/r/${res.room}`);
  };
  const lobby = renderLobby(views.lobby, {
    meta,
    recent,
    error,
    onCreate: async (body, isPublic) => {
      const res = await api("POST", "/api/rooms", body);
      if (isPublic) await api("POST", `/api/rooms/${res.room}/public`, { token: res.token, public: true });
      seated(res, body.variant, body.name);
    },
    onOpen: (code) => navigate(`/r/${code}`),
    // one click: you and three bots, dealt at once
    onQuickBots: async ({ name, variant }) => {
      const seats = [{ kind: "human" }, ...Array.from({ length: 3 }, () => ({ kind: "bot", level: "normal" }))];
      const res = await api("POST", "/api/rooms", { variant, seats, name });
      seated(res, variant, name);
    },
    onQuickPlay: async ({ name, variant }) => {
      const res = await api("POST", "/api/quickplay", { name, variant });
      seated(res, res.info.variant, name);
    },
    onJoinPublic: (code) => navigate(`/r/${code}`),
    onRecord: (g) => downloadRecord(g.room, g.match),
    onReplay: async (g) => {
      const text = await fetchRecord(g.room, g.match);
      if (text !== null) startReplay(text, g.seat);
    },
    onReplayFile: async (file) => startReplay(await file.text(), 0),
  });
  app.lobbyRedraw = lobby.redraw;
  // public rooms and this browser's finished games arrive after the first paint
  const held = (storeGet(ROOMS_INDEX) ?? [])
    .map((r) => ({ room: r.code, token: storeGet(ROOM_KEY(r.code))?.token }))
    .filter((r) => r.token)
    .slice(0, 20);
  Promise.all([
    api("GET", "/api/public").catch(() => ({ rooms: [] })),
    held.length ? api("POST", "/api/history", { rooms: held }).catch(() => ({ games: [] })) : { games: [] },
  ]).then(([pub, hist]) => {
    if (document.body.dataset.view === "lobby" && !app.code) lobby.update({ publicRooms: pub.rooms, history: hist.games });
  });
}

// ---- game records ------------------------------------------------------------------------
async function fetchRecord(code, match) {
  const token = storeGet(ROOM_KEY(code))?.token;
  if (!token) return null;
  const res = await fetch(`/api/rooms/${code}/record`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token, match }),
  });
  if (!res.ok) {
    toast(t("error.generic", { msg: res.statusText }));
    return null;
  }
  return res.text();
}

async function downloadRecord(code, match) {
  const text = await fetchRecord(code, match);
  if (text === null) return;
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  a.download = `unokit-${code}-${match}.json`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

async function startReplay(text, seat) {
  let data;
  try {
    data = await api("POST", "/api/replay", { record: text, seat });
  } catch (e) {
    toast(t("replay.bad", { msg: e.message }));
    return;
  }
  closeSocket();
  app.code = null;
  table = null;
  show("replay");
  openReplay(views.replay, data, seat, { exit: () => navigate("/") });
}

async function openRoom(code) {
  document.title = `unokit · ${code}`;
  await loadMeta();
  const saved = storeGet(ROOM_KEY(code));
  if (saved?.token) {
    connect(code);
    return;
  }
  // not seated here: show the room and a join form
  try {
    app.info = await api("GET", `/api/rooms/${code}`);
  } catch (e) {
    if (e.status === 404) return showLobby(t("error.noRoom", { code }));
    toast(t("error.generic", { msg: e.message }));
    return showLobby();
  }
  showRoom();
}

function showRoom() {
  show("room");
  updateTopbar();
  // the room is drawn again at every state: keep a chat line being typed
  const typing = views.room.querySelector("#room-chat-input");
  const draft = typing ? { value: typing.value, focus: document.activeElement === typing } : null;
  renderRoom(views.room, {
    info: app.info,
    seat: app.seat,
    host: app.host,
    meta: app.meta,
    error: app.error,
    onJoin: async (name, seat) => {
      try {
        const res = await api("POST", `/api/rooms/${app.code}/join`, { name, seat });
        rememberRoom(app.code, { token: res.token, seat: res.seat, variant: app.info.variant, name });
        app.info = res.info;
        connect(app.code);
      } catch (e) {
        app.error = e.message;
        try {
          app.info = await api("GET", `/api/rooms/${app.code}`);
        } catch {
          /* keep the old info */
        }
        showRoom();
      }
    },
    onWatch: () => {
      app.wantSpectate = true;
      connect(app.code);
    },
    onStart: (level) => sendMessage(level ? { type: "start", level } : { type: "start" }),
  });
  renderRoomChat();
  const input = views.room.querySelector("#room-chat-input");
  if (draft && input) {
    input.value = draft.value;
    if (draft.focus) input.focus();
  }
}

/** The waiting room's chat (for those connected to the room: seated people,
 * and spectators when the host lets them chat): its lines, oldest first, and
 * a box to write one. Redrawn without losing what is being typed. */
function renderRoomChat() {
  const panel = views.room.querySelector(".room");
  if (!panel) return;
  let box = panel.querySelector("#room-chat");
  const connected = app.socket && app.socket.readyState === WebSocket.OPEN && (app.seat !== null || app.spectator);
  if (!connected) {
    box?.remove();
    return;
  }
  if (!box) {
    box = document.createElement("section");
    box.className = "panel room-chat";
    box.id = "room-chat";
    box.innerHTML = `<h2 id="room-chat-title"></h2>
      <ol class="room-chat-list" id="room-chat-list" aria-live="polite" aria-labelledby="room-chat-title"></ol>
      <form class="chat-form" id="room-chat-form" autocomplete="off">
        <label class="sr-only" for="room-chat-input" id="room-chat-label"></label>
        <input id="room-chat-input" maxlength="200" />
        <button type="submit" class="btn" id="room-chat-send"></button>
      </form>`;
    panel.append(box);
    box.querySelector("#room-chat-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const input = box.querySelector("#room-chat-input");
      const text = input.value.trim();
      if (!text) return;
      sendMessage({ type: "chat", text: text.slice(0, 200) });
      input.value = "";
    });
  }
  box.querySelector("#room-chat-title").textContent = t("chat.title");
  box.querySelector("#room-chat-label").textContent = t("chat.label");
  box.querySelector("#room-chat-input").placeholder = t("chat.placeholder");
  box.querySelector("#room-chat-send").textContent = t("chat.send");
  const list = box.querySelector("#room-chat-list");
  list.innerHTML = app.roomChats.length
    ? app.roomChats
        .map((c) => `<li class="ev ev-chat${c.seat !== null && c.seat === app.seat ? " mine" : ""}" data-type="chat">${esc(`${c.name}: ${c.text}`)}</li>`)
        .join("")
    : `<li class="ev empty">${esc(t("chat.none"))}</li>`;
  list.scrollTop = list.scrollHeight;
}

// ---- the table's REST extras ---------------------------------------------------------------
function seatToken() {
  return storeGet(ROOM_KEY(app.code))?.token ?? null;
}

async function tableCall(path, body) {
  const token = seatToken();
  if (!token || !app.code) return null;
  try {
    return await api("POST", `/api/rooms/${app.code}${path}`, { token, ...body });
  } catch (e) {
    toast(e.message);
    return null;
  }
}

async function takeSeat(seat) {
  const name = (() => {
    try {
      return localStorage.getItem("unokit.name") || t("quick.defaultName");
    } catch {
      return t("quick.defaultName");
    }
  })();
  try {
    const res = await api("POST", `/api/rooms/${app.code}/join`, { name, seat });
    rememberRoom(app.code, { token: res.token, seat: res.seat, variant: res.info.variant, name });
    app.wantSpectate = false;
    toast(t("seat.taken"), "info");
    connect(app.code);
  } catch (e) {
    toast(e.message);
  }
}

function openHowTo(variant = null) {
  const o = app.state?.observation;
  const v = variant ?? o?.variant ?? app.info?.variant ?? "classic";
  const options = document.body.dataset.view === "table" || document.body.dataset.view === "room" ? app.info?.options ?? null : null;
  helpReturn = helpReturn ?? document.activeElement;
  helpEl.innerHTML = howToHtml(v, options);
  helpEl.setAttribute("aria-labelledby", "howto-title");
  helpEl.hidden = false;
  helpEl.querySelector("#howto-close").addEventListener("click", closeHelp);
  for (const b of helpEl.querySelectorAll("[data-howto]")) b.addEventListener("click", () => openHowTo(b.dataset.howto));
  (helpEl.querySelector(`[data-howto="${v}"]`) ?? helpEl.querySelector("#howto-close")).focus();
}

// ---- WebSocket --------------------------------------------------------------------------
function closeSocket() {
  app.closed = true;
  if (app.socket) {
    try {
      app.socket.close(1000);
    } catch {
      /* already closed */
    }
  }
  app.socket = null;
}

function connect(code) {
  closeSocket();
  app.closed = false;
  setConn(app.retry ? "lost" : "connecting");
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${code}`);
  app.socket = ws;
  ws.addEventListener("open", () => {
    const saved = storeGet(ROOM_KEY(code));
    // deltas: after one snapshot, the server sends only what changed (applyDelta)
    app.resyncing = false;
    if (saved?.token && !app.wantSpectate)
      ws.send(JSON.stringify({ type: "hello", token: saved.token, deltas: true, id: ++app.reqId }));
    else ws.send(JSON.stringify({ type: "hello", spectate: true, deltas: true, id: ++app.reqId }));
  });
  ws.addEventListener("message", (e) => {
    if (ws !== app.socket) return;
    let msg;
    try {
      msg = JSON.parse(e.data);
    } catch {
      return;
    }
    onMessage(msg);
  });
  ws.addEventListener("close", (e) => {
    if (ws !== app.socket) return;
    app.socket = null;
    if (e.code === 4404) {
      forgetRoom(code);
      showLobby(t("error.noRoom", { code }));
      return;
    }
    if (app.closed) return;
    app.retry += 1;
    setConn("lost");
    const delay = Math.min(5000, 300 * 2 ** Math.min(app.retry, 5));
    setTimeout(() => {
      if (!app.closed && app.code === code && !app.socket) connect(code);
    }, delay);
  });
}

const COMMANDS = new Set(["command", "next_round", "new_match", "start"]);

function sendMessage(msg) {
  const open = app.socket && app.socket.readyState === WebSocket.OPEN;
  const out = { ...msg, id: ++app.reqId };
  if (COMMANDS.has(msg.type)) {
    // decided on the version shown; kept until answered and resent after a reconnect
    out.version = app.state?.version ?? 0;
    app.pending.set(out.id, out);
  } else if (!open) {
    toast(t("conn.lost"));
    return;
  }
  if (open) app.socket.send(JSON.stringify(out));
}

/** After a reconnect: send again every command that got no answer. A command
 * that was applied gets its original ack again; one that was not is applied
 * now, or refused as stale if the table changed meanwhile. */
function resendPending() {
  for (const [id, out] of app.pending) {
    app.resent.add(id);
    app.socket.send(JSON.stringify(out));
  }
}

function answered(id) {
  const resent = app.resent.has(id);
  app.pending.delete(id);
  app.resent.delete(id);
  return resent;
}

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      app.retry = 0;
      setConn("ok");
      app.seat = msg.seat;
      app.host = Boolean(msg.host);
      app.spectator = Boolean(msg.spectator);
      document.body.dataset.seat = msg.seat === null ? "" : String(msg.seat);
      resendPending();
      return;
    case "state":
      app.resyncing = false;
      onState(msg);
      return;
    case "delta":
      // our command's ack comes inside the delta of its version
      if (msg.ack !== undefined && msg.ack !== null) answered(msg.ack);
      onDelta(msg);
      return;
    case "error":
      if (answered(msg.id) && msg.code === "stale") return; // decided before the reconnect
      onError(msg);
      return;
    case "chat":
      if (table) table.chat(msg);
      else {
        app.roomChats.push(msg);
        if (app.roomChats.length > 50) app.roomChats.shift();
        if (document.body.dataset.view === "room") renderRoomChat();
      }
      return;
    case "reaction":
      table?.reaction(msg);
      return;
    case "thinking":
      table?.thinking(msg);
      return;
    case "ack":
      answered(msg.id);
      return;
    case "pong":
    default:
  }
}

function onError(msg) {
  if (msg.code === "bad_token") {
    // the stored seat is not valid here (room recreated?): forget it, show the join form
    forgetRoom(app.code);
    closeSocket();
    openRoom(app.code);
    return;
  }
  if (msg.code === "no_room") return; // the close (4404) follows
  if (msg.code === "rate_limited") return;
  toast(msg.message || msg.code);
}

/** A delta applies to the version it names ("from"); after a gap, ask for a
 * full snapshot and ignore deltas until it comes. */
function onDelta(msg) {
  if (app.resyncing) return;
  const next = applyDelta(app.state, msg);
  if (!next) {
    app.resyncing = true;
    app.socket?.send(JSON.stringify({ type: "resync", id: ++app.reqId }));
    return;
  }
  onState(next);
}

/** The state a delta leads to (the same object shape as a "state" message),
 * or null if it does not apply to ``state``. See docs/protocol.md. */
function applyDelta(state, d) {
  if (!state || d.from !== state.version) return null;
  const next = { ...state, version: d.version, info: { ...(d.info ?? state.info), version: d.version } };
  for (const key of ["last", "deadline", "remaining"]) if (key in d) next[key] = d[key];
  if (d.set) {
    if (!state.observation) return null;
    const obs = { ...state.observation, ...d.set };
    obs.history = state.observation.history.slice(0, d.history_from).concat(d.history);
    next.observation = obs;
  }
  return next;
}

function onState(msg) {
  app.state = msg;
  app.info = msg.info;
  app.seat = msg.seat;
  document.body.dataset.version = String(msg.version);
  const o = msg.observation;
  if (!o) {
    // room in its lobby: waiting view
    showRoom();
    return;
  }
  if (!table) {
    table = createTable(views.table, {
      send: (text) => sendMessage({ type: "command", text }),
      nextRound: () => sendMessage({ type: "next_round" }),
      ready: () => sendMessage({ type: "ready" }),
      newMatch: () => sendMessage({ type: "new_match" }),
      chat: (text) => sendMessage({ type: "chat", text }),
      react: (emoji) => tableCall("/react", { emoji }),
      record: () => downloadRecord(app.code, app.info?.match ?? 1),
      howto: () => openHowTo(),
      takeSeat: (seat) => takeSeat(seat),
      comeBack: () => tableCall("/back", {}),
      handOver: (seat, to) => tableCall(`/seats/${seat}`, { to }),
    });
  }
  if (document.body.dataset.view !== "table") show("table");
  document.body.dataset.phase = o.phase;
  document.body.dataset.current = String(o.current);
  document.body.dataset.round = String(o.round);
  table.update(msg);
  // the waiting room's chat opens the first round's log, before the deal
  for (const c of app.roomChats.splice(0)) table.chat(c, { before: true });
  updateTopbar();
  updateTitle();
}

// ---- top bar -------------------------------------------------------------------------------
function updateTopbar() {
  const info = document.getElementById("topbar-info");
  const s = app.state;
  if (document.body.dataset.view === "table" && s?.observation) {
    const o = s.observation;
    const target = o.options?.matchMode === "single_round" ? "" : ` · ${t("table.target", { n: o.options?.targetScore ?? 500 })}`;
    info.innerHTML = `<span class="tb-variant">${esc(t(`variant.${o.variant}`))}</span>
      <span class="tb-round">${esc(t("table.round", { n: o.round }))}${esc(target)}</span>
      <button type="button" class="tb-code" title="${esc(t("room.invite.copy"))}" id="tb-invite"><code>${esc(app.code)}</code></button>`;
    info.querySelector("#tb-invite").addEventListener("click", copyInvite);
  } else if (app.code) {
    info.innerHTML = `<span class="tb-code"><code>${esc(app.code)}</code></span>`;
  } else {
    info.innerHTML = "";
  }
}

async function copyInvite() {
  const link = new URL(app.info?.invite ?? `/r/${app.code}`, location.href).href;
  try {
    await navigator.clipboard.writeText(link);
    toast(t("room.invite.copied", { link }), "info");
  } catch {
    toast(link, "info");
  }
}

/** "● Your turn" in the tab title while it is this seat's move. */
function updateTitle() {
  const o = app.state?.observation;
  const base = app.code ? `unokit · ${app.code}` : "unokit";
  const mine =
    o && app.seat !== null && o.current === app.seat && o.legal.some((c) => !/ (UNO|CATCH)( |$)/.test(c));
  document.title = mine ? `● ${t("table.yourTurn")} — ${base}` : base;
}

// ---- help overlay -------------------------------------------------------------------------
const HELP_KEYS = [
  ["← → ↑ ↓ / Tab", "help.arrows"],
  ["Home / End", "help.home"],
  ["Enter / Space", "help.enter"],
  ["D", "help.draw"],
  ["P", "help.pass"],
  ["U", "help.uno"],
  ["C", "help.catch"],
  ["1–4 · R Y G B · K T O V", "help.colors"],
  ["A / X", "help.challenge"],
  ["S", "help.sort"],
  ["L", "help.log"],
  ["N", "help.next"],
  ["Esc", "help.escape"],
  ["?", "help.help"],
];

let helpReturn = null;
function openHelp() {
  helpReturn = document.activeElement;
  helpEl.innerHTML = `<div class="panel help-panel">
    <h2 id="help-title">${esc(t("help.title"))}</h2>
    <dl class="keys">${HELP_KEYS.map(([k, key]) => `<dt><kbd>${esc(k)}</kbd></dt><dd>${esc(t(key))}</dd>`).join("")}</dl>
    <div class="panel-actions"><button type="button" class="btn" id="help-close">${esc(t("btn.close"))} <kbd>Esc</kbd></button></div></div>`;
  helpEl.hidden = false;
  helpEl.querySelector("#help-close").addEventListener("click", closeHelp);
  helpEl.querySelector("#help-close").focus();
}
function closeHelp() {
  helpEl.hidden = true;
  helpEl.setAttribute("aria-labelledby", "help-title");
  helpReturn?.focus?.();
  helpReturn = null;
}
helpEl.addEventListener("click", (e) => {
  if (e.target === helpEl) closeHelp();
});

// ---- global keys and buttons -----------------------------------------------------------
document.addEventListener("keydown", (e) => {
  if (!helpEl.hidden) {
    if (e.key === "Escape" || e.key === "?") {
      e.preventDefault();
      closeHelp();
    }
    return;
  }
  if (e.key === "?" && !e.target.closest?.("input, textarea, select")) {
    e.preventDefault();
    openHelp();
    return;
  }
  if (document.body.dataset.view === "table" && table && table.key(e)) e.preventDefault();
});

document.getElementById("btn-help").addEventListener("click", openHelp);
document.getElementById("btn-howto").addEventListener("click", () => openHowTo());
document.getElementById("btn-log").addEventListener("click", () => table?.toggleLog());
document.getElementById("btn-scores").addEventListener("click", () => table?.openScores());
document.getElementById("btn-lang").addEventListener("click", () => {
  setLang(LANGS[(LANGS.indexOf(lang()) + 1) % LANGS.length]);
});
document.querySelector(".brand").addEventListener("click", (e) => {
  e.preventDefault();
  navigate("/");
});

onLangChange(() => {
  translatePage();
  updateTopbar();
  if (document.body.dataset.view === "lobby") app.lobbyRedraw?.();
  else if (document.body.dataset.view === "room") showRoom();
  else table?.refresh();
  if (!helpEl.hidden) (helpEl.querySelector(".howto-panel") ? openHowTo(helpEl.querySelector(".howto-panel").dataset.variant) : openHelp());
});

// keep the socket alive through proxies
setInterval(() => {
  if (app.socket?.readyState === WebSocket.OPEN) app.socket.send(JSON.stringify({ type: "ping", id: ++app.reqId }));
}, 25000);

// Read-only view of what this client holds (its own observation), for
// debugging in the console and for the browser tests.
window.unokit = Object.freeze({
  get state() {
    return app.state;
  },
  get seat() {
    return app.seat;
  },
});

translatePage();
route();
