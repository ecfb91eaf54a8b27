/**
 * What the other players just did, made visible and audible: short toasts,
 * an ARIA live region (screen readers hear every line), card animations and
 * optional sounds synthesised with Web Audio (no audio file). Dependency-free.
 *
 *   const feed = createFeed(tableEl)
 *   feed.say(text, {kind, seat})   a toast plus a line in the live region
 *   feed.burst(el, text)           a big short-lived label over a seat ("UNO!")
 *   feed.avoid(fn)                 fn() lists the elements toasts must never cover
 *   feed.place()                   moves the toasts to a free spot (after a render)
 *   feed.sound(kind)               "play" | "draw" | "uno" | "turn" | "catch" | "react"
 *   feed.fly(fromEl, toEl, html)   a card moving from one place to another
 *   feed.muted / feed.setMuted(b)  persisted in localStorage ("unokit.muted")
 */

const MUTE_KEY = "unokit.muted";
const MAX_TOASTS = 3;
const TOAST_MS = 3500;
const BURST_MS = 1800;

export function reducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

function loadMuted() {
  try {
    return localStorage.getItem(MUTE_KEY) === "1";
  } catch {
    return false;
  }
}

const TONES = {
  play: [[520, 0.07], [660, 0.07]],
  draw: [[330, 0.09]],
  uno: [[660, 0.08], [880, 0.08], [990, 0.12]],
  turn: [[740, 0.1]],
  catch: [[300, 0.1], [220, 0.16]],
  react: [[880, 0.05]],
};

export function createFeed(host) {
  const toasts = document.createElement("div");
  toasts.className = "feed";
  toasts.id = "feed";
  toasts.setAttribute("aria-hidden", "true"); // the live region below speaks
  const live = document.createElement("div");
  live.className = "sr-only";
  live.id = "feed-live";
  live.setAttribute("role", "log");
  live.setAttribute("aria-live", "polite");
  live.setAttribute("aria-relevant", "additions");
  host.append(toasts, live);
  let audio = null;
  let muted = loadMuted();

  let avoidFn = () => [];

  function rectsOverlap(a, b) {
    return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  }

  /**
   * Puts the toasts where they cover nothing that matters: the lowest spot
   * (then the leftmost), over the table's felt, whose box meets none of
   * avoidFn()'s elements. Where
   * no spot is free, the older toasts go first; with none free at all the
   * toasts hide (the log and the live region still have every line).
   */
  function place() {
    const shown = [...toasts.children];
    if (!shown.length) return;
    toasts.hidden = false;
    for (const el of shown) el.hidden = false;
    const blocks = avoidFn()
      .filter((el) => el && el.isConnected && !el.hidden && el.getClientRects().length)
      .map((el) => el.getBoundingClientRect())
      .filter((r) => r.width > 0 && r.height > 0)
      // a little air around what the toasts avoid: no toast squeezed into a sliver
      .map((r) => ({ left: r.left - 6, right: r.right + 6, top: r.top - 6, bottom: r.bottom + 6 }));
    const vw = document.documentElement.clientWidth;
    const vh = document.documentElement.clientHeight;
    const margin = 8;
    toasts.style.left = "0px";
    toasts.style.top = "0px";
    for (let keep = shown.length; keep >= 1; keep--) {
      shown.forEach((el, i) => (el.hidden = i < shown.length - keep));
      const box = toasts.getBoundingClientRect();
      const w = box.width;
      const h = box.height;
      for (let y = vh - h - margin; y >= margin; y -= 8) {
        for (let x = margin; x + w <= vw - margin || x === margin; x += 16) {
          const r = { left: x, right: x + w, top: y, bottom: y + h };
          if (!blocks.some((b) => rectsOverlap(r, b))) {
            toasts.style.left = `${x}px`;
            toasts.style.top = `${y}px`;
            toasts.hidden = false;
            return;
          }
        }
      }
    }
    toasts.hidden = true;
  }

  function say(text, { kind = "event", seat = null } = {}) {
    if (!text) return;
    const el = document.createElement("div");
    el.className = `feed-toast feed-${kind}`;
    if (seat !== null && seat !== undefined) el.dataset.seat = String(seat);
    el.textContent = text;
    toasts.append(el);
    while (toasts.children.length > MAX_TOASTS) toasts.firstElementChild.remove();
    setTimeout(() => {
      el.remove();
      place();
    }, TOAST_MS);
    place();
    const line = document.createElement("p");
    line.textContent = text;
    live.append(line);
    while (live.children.length > 8) live.firstElementChild.remove();
  }

  function sound(kind) {
    if (muted) return;
    const tones = TONES[kind];
    if (!tones) return;
    try {
      audio ??= new (window.AudioContext || window.webkitAudioContext)();
      if (audio.state === "suspended") audio.resume().catch(() => {});
      let at = audio.currentTime;
      for (const [freq, dur] of tones) {
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        osc.type = "triangle";
        osc.frequency.value = freq;
        gain.gain.setValueAtTime(0.0001, at);
        gain.gain.exponentialRampToValueAtTime(0.12, at + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, at + dur);
        osc.connect(gain).connect(audio.destination);
        osc.start(at);
        osc.stop(at + dur + 0.02);
        at += dur;
      }
    } catch {
      /* no audio on this device */
    }
  }

  /** A copy of `html` moving from `fromEl` to `toEl` (skipped with reduced motion). */
  function fly(fromEl, toEl, html) {
    if (reducedMotion() || !fromEl || !toEl || !html) return;
    const a = fromEl.getBoundingClientRect();
    const b = toEl.getBoundingClientRect();
    if (!a.width || !b.width) return;
    const el = document.createElement("div");
    el.className = "flying-card";
    el.innerHTML = html;
    el.style.left = `${b.left + b.width / 2}px`;
    el.style.top = `${b.top + b.height / 2}px`;
    document.body.append(el);
    const dx = a.left + a.width / 2 - (b.left + b.width / 2);
    const dy = a.top + a.height / 2 - (b.top + b.height / 2);
    const anim = el.animate(
      [
        { transform: `translate(-50%, -50%) translate(${dx}px, ${dy}px) scale(0.5) rotate(-12deg)`, opacity: 0.6 },
        { transform: "translate(-50%, -50%) scale(1) rotate(0)", opacity: 1 },
      ],
      { duration: 380, easing: "cubic-bezier(.2,.7,.3,1)" },
    );
    anim.onfinish = () => el.remove();
    anim.oncancel = () => el.remove();
  }

  /** "UNO!" in big letters over a seat for a moment (still, with reduced motion). */
  function burst(el, text) {
    if (!el || !text) return;
    const r = el.getBoundingClientRect();
    if (!r.width) return;
    const b = document.createElement("div");
    b.className = "uno-burst";
    b.setAttribute("aria-hidden", "true"); // the live region says it
    b.textContent = text;
    b.style.left = `${r.left + r.width / 2}px`;
    b.style.top = `${r.top + r.height / 2}px`;
    host.append(b);
    setTimeout(() => b.remove(), BURST_MS);
  }

  /** A short pulse on an element (a hand size that grew, a flipped table). */
  function pulse(el, name = "pulse") {
    if (reducedMotion() || !el) return;
    el.classList.remove(name);
    void el.offsetWidth; // restart the animation
    el.classList.add(name);
  }

  return {
    say,
    burst,
    place,
    avoid(fn) {
      avoidFn = fn;
    },
    clear() {
      toasts.replaceChildren();
      for (const b of host.querySelectorAll(".uno-burst")) b.remove();
    },
    sound,
    fly,
    pulse,
    get muted() {
      return muted;
    },
    setMuted(value) {
      muted = Boolean(value);
      try {
        localStorage.setItem(MUTE_KEY, muted ? "1" : "0");
      } catch {
        /* ignore */
      }
    },
  };
}
