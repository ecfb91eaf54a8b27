/**
 * The replay view: a game record stepped through in the browser, shown with
 * the real table (read-only) as one seat saw it. The steps come from
 * POST /api/replay (the engine replays the record on the server).
 *
 *   openReplay(root, data, seat, {exit})   data: {variant, players, names, options, steps}
 *
 * Read-only: no Draw/UNO/Sort, chat or next-round buttons; Exit goes back to
 * the lobby; a jump (Start, End, Back) clears the toasts of other steps.
 */

import { describeEvent, t } from "./i18n.js";
import { createTable, esc } from "./table.js";

export function openReplay(root, data, seat, { exit } = {}) {
  root.innerHTML = `<div class="replay">
    <div class="replay-bar panel" role="toolbar" aria-label="${esc(t("replay.title"))}">
      <strong>${esc(t("replay.title"))}</strong>
      <button type="button" class="btn small" id="replay-first">⏮ ${esc(t("replay.first"))}</button>
      <button type="button" class="btn small" id="replay-prev">◀ ${esc(t("replay.prev"))}</button>
      <span id="replay-step" aria-live="polite"></span>
      <button type="button" class="btn small primary" id="replay-next">${esc(t("replay.next"))} ▶</button>
      <button type="button" class="btn small" id="replay-last">${esc(t("replay.last"))} ⏭</button>
      <span id="replay-command" class="replay-command"></span>
      <button type="button" class="btn small ghost replay-exit" id="replay-exit">✕ ${esc(t("replay.exit"))}</button>
    </div>
    <div id="replay-table"></div></div>`;
  const table = createTable(root.querySelector("#replay-table"), {
    send: () => {},
    nextRound: () => {},
    newMatch: () => {},
    chat: () => {},
    readonly: true,
  });
  const names = data.names ?? Array.from({ length: data.players }, (_, i) => `P${i}`);
  const info = {
    room: "replay",
    invite: "",
    variant: data.variant,
    players: data.players,
    options: data.options,
    turn_timer: null,
    status: "playing",
    host: 0,
    match: 1,
    version: 0,
    spectators: 0,
    seats: names.map((name, s) => ({ seat: s, kind: "human", level: null, name, claimed: true, connected: true })),
  };
  // the history of each step: the round's events so far
  const histories = [];
  let round = -1;
  let acc = [];
  for (const step of data.steps) {
    if (step.observation.round !== round) {
      acc = [];
      round = step.observation.round;
    }
    acc = acc.concat(step.events);
    histories.push(acc);
  }
  let at = 0;
  function go(i) {
    const to = Math.max(0, Math.min(data.steps.length - 1, i));
    const jump = to !== at + 1;
    at = to;
    const step = data.steps[at];
    const observation = { ...step.observation, history: histories[at], legal: [] };
    table.update({ type: "state", version: at, seat, info: { ...info, version: at }, observation, last: null, deadline: null, remaining: null });
    if (jump) table.clearFeed(); // a jump: no toasts of the steps skipped over
    root.querySelector("#replay-step").textContent = t("replay.step", { n: at, total: data.steps.length - 1 });
    // the step in words (the record's notation is for machines)
    const ctx = { me: seat, name: (s) => names[s] ?? `P${s}`, scoringMode: data.options?.scoringMode ?? "highest", variant: data.variant, side: step.observation.side };
    const said = (step.events ?? []).map((ev) => describeEvent(ev, ctx)).filter(Boolean);
    root.querySelector("#replay-command").textContent = said.join(" ");
    document.body.dataset.replayStep = String(at);
  }
  root.querySelector("#replay-first").addEventListener("click", () => go(0));
  root.querySelector("#replay-prev").addEventListener("click", () => go(at - 1));
  root.querySelector("#replay-next").addEventListener("click", () => go(at + 1));
  root.querySelector("#replay-last").addEventListener("click", () => go(data.steps.length - 1));
  root.querySelector("#replay-exit").addEventListener("click", () => {
    table.clearFeed();
    exit?.();
  });
  root.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") go(at + 1);
    else if (e.key === "ArrowLeft") go(at - 1);
  });
  go(0);
  root.querySelector("#replay-next").focus();
}
