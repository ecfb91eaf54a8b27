/**
 * unokit card artwork — dependency-free ES module.
 *
 * Every card is drawn as an inline SVG string from geometric primitives:
 * no images, no web fonts, no emoji (digits and letters are stroked paths),
 * so cards render identically on any machine, offline.
 *
 * Colour-blind symbols (drawn as SVG paths, shown in the corners of every
 * coloured face and on each quadrant of wild cards):
 *
 *   code  colour   symbol
 *   R     red      ▲ triangle
 *   Y     yellow   ✱ sunburst (8-ray star)
 *   G     green    ❦ leaf (pointed, tilted oval)
 *   B     blue     ● drop (teardrop)
 *   Pk    pink     ♥ heart        (UNO Flip dark side)
 *   Tl    teal     ≈ waves        (UNO Flip dark side)
 *   Or    orange   ■ square       (UNO Flip dark side)
 *   Pu    purple   ☾ crescent     (UNO Flip dark side)
 *
 * Public API:
 *   renderCard(notation, opts) -> SVG markup string
 *   renderBack(variant, opts)  -> SVG markup string
 *   parseCard(notation)        -> {variant_hint, variants, faces: [...]}
 *   colorInfo                  -> {code: {name, css, symbol, ...}}
 *
 * Notation (see the project brief): classic R0..R9 RS RR RD2 W W4;
 * Flip light R1..R9 RD1 RS RR RF W W2, dark Pk1..Pk9 PkD5 PkSE PkR PkF DW WDC,
 * physical Flip card "light|dark" (e.g. "R3|WDC");
 * Flex R1..R8, R4* (flip icon), R5~G (flex colour), RS RR RD2, RFS RFR RFD2,
 * WAF WAD WTD FW4.
 */

// ---------------------------------------------------------------------------
// Colours and colour-blind symbols
// ---------------------------------------------------------------------------

const SYMBOL_PATHS = {
  // all drawn in a ±10 unit frame, centred on 0,0
  triangle: { d: "M0 -9.2 L9.6 7.6 H-9.6 Z" },
  sunburst: { d: starPath(8, 10.4, 4.3) },
  leaf: { d: "M-8 8 C-9.2 -2.2 -2.2 -9.2 8 -8 C9.2 2.2 2.2 9.2 -8 8 Z" },
  drop: { d: "M0 -10 C3.2 -5.2 7.6 -1.4 7.6 3.2 A7.6 7.6 0 0 1 -7.6 3.2 C-7.6 -1.4 -3.2 -5.2 0 -10 Z" },
  heart: {
    d:
      "M0 9.2 C-4.2 5.8 -10 1.8 -10 -3.4 C-10 -7 -7.4 -9.2 -4.8 -9.2 " +
      "C-2.6 -9.2 -0.9 -7.9 0 -6 C0.9 -7.9 2.6 -9.2 4.8 -9.2 C7.4 -9.2 10 -7 10 -3.4 " +
      "C10 1.8 4.2 5.8 0 9.2 Z",
  },
  waves: {
    d: "M-9 -3.6 C-6.6 -7.6 -3.6 -7.6 -1.2 -3.6 S4.2 0.4 6.6 -3.6 L9 -3.6 M-9 4.6 C-6.6 0.6 -3.6 0.6 -1.2 4.6 S4.2 8.6 6.6 4.6 L9 4.6",
    stroke: true,
  },
  square: { d: "M-7.6 -7.6 H7.6 V7.6 H-7.6 Z" },
  crescent: { d: "M1.14 -9.43 A9.5 9.5 0 1 0 8.98 3.11 A7.5 7.5 0 1 1 1.14 -9.43 Z" },
};

/** colour code -> {name, css, symbol, side, dark (border/shade), bright (glyph tint)} */
export const colorInfo = Object.freeze({
  R: Object.freeze({ name: "Red", css: "#e2231a", symbol: "triangle", side: "light", glyph: "#e2231a" }),
  Y: Object.freeze({ name: "Yellow", css: "#f6c700", symbol: "sunburst", side: "light", glyph: "#f2c200" }),
  G: Object.freeze({ name: "Green", css: "#2f9e44", symbol: "leaf", side: "light", glyph: "#2f9e44" }),
  B: Object.freeze({ name: "Blue", css: "#1565c0", symbol: "drop", side: "light", glyph: "#1565c0" }),
  Pk: Object.freeze({ name: "Pink", css: "#c2185b", symbol: "heart", side: "dark", glyph: "#ff5fa8" }),
  Tl: Object.freeze({ name: "Teal", css: "#00796b", symbol: "waves", side: "dark", glyph: "#2ad4c4" }),
  Or: Object.freeze({ name: "Orange", css: "#d9480f", symbol: "square", side: "dark", glyph: "#ff8c42" }),
  Pu: Object.freeze({ name: "Purple", css: "#5e2a8c", symbol: "crescent", side: "dark", glyph: "#b57cf0" }),
});

const LIGHT_COLORS = ["R", "Y", "G", "B"];
const DARK_COLORS = ["Pk", "Tl", "Or", "Pu"];

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------

function r2(n) {
  return Math.round(n * 100) / 100;
}

function starPath(points, outer, inner) {
  const pts = [];
  for (let i = 0; i < points * 2; i++) {
    const a = (Math.PI * i) / points - Math.PI / 2;
    const rad = i % 2 === 0 ? outer : inner;
    pts.push(`${r2(rad * Math.cos(a))} ${r2(rad * Math.sin(a))}`);
  }
  return `M${pts.join(" L")} Z`;
}

function esc(s) {
  return String(s)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

let uidCounter = 0;
function uid() {
  uidCounter += 1;
  return `uk${uidCounter.toString(36)}`;
}

// ---------------------------------------------------------------------------
// Stroke font: digits, "+" and the few capitals we need, on a 16-unit-high
// em box (y = 0 top, y = 16 baseline).  Rendered as thick round strokes.
// ---------------------------------------------------------------------------

const GLYPHS = {
  0: { w: 10, d: "M5 0 C1.6 0 0 3.6 0 8 C0 12.4 1.6 16 5 16 C8.4 16 10 12.4 10 8 C10 3.6 8.4 0 5 0 Z" },
  1: { w: 5, d: "M0 3.8 L4.8 0 V16" },
  2: { w: 10, d: "M0.4 3.6 C1 1.2 2.8 0 5 0 C7.8 0 9.6 1.8 9.6 4.4 C9.6 7 7.8 8.6 5.6 10.4 L0.3 16 H10" },
  3: {
    w: 10,
    d: "M0.6 2.2 C1.8 0.7 3.3 0 5 0 C7.8 0 9.4 1.6 9.4 4 C9.4 6.3 7.6 7.6 4.6 7.6 C7.9 7.6 10 9.2 10 11.8 C10 14.5 7.9 16 5 16 C3.1 16 1.4 15.3 0.2 13.8",
  },
  4: { w: 10, d: "M7.4 16 V0 L0 11.2 H10" },
  5: {
    w: 10,
    d: "M9.2 0 H1.6 L0.9 7.4 C2.1 6.4 3.5 6 5 6 C8.1 6 10 8.1 10 11 C10 14 7.9 16 4.9 16 C3 16 1.3 15.3 0.2 14",
  },
  6: {
    w: 10,
    d: "M8.8 1.2 C7.8 0.4 6.6 0 5.4 0 C2 0 0.1 3.4 0.1 8.8 C0.1 13.6 2 16 5 16 C8.1 16 10 13.9 10 11 C10 8 8.1 6.1 5.2 6.1 C2.8 6.1 0.9 7.4 0.2 9.4",
  },
  7: { w: 10, d: "M0 0 H10 L3.6 16" },
  8: {
    w: 10,
    d: "M5 7.4 C2.5 7.4 0.8 5.9 0.8 3.7 C0.8 1.4 2.6 0 5 0 C7.4 0 9.2 1.4 9.2 3.7 C9.2 5.9 7.5 7.4 5 7.4 C2.2 7.4 0.1 9 0.1 11.7 C0.1 14.4 2.3 16 5 16 C7.7 16 9.9 14.4 9.9 11.7 C9.9 9 7.8 7.4 5 7.4 Z",
  },
  9: {
    w: 10,
    d: "M1.2 14.8 C2.2 15.6 3.4 16 4.6 16 C8 16 9.9 12.6 9.9 7.2 C9.9 2.4 8 0 5 0 C1.9 0 0 2.1 0 5 C0 8 1.9 9.9 4.8 9.9 C7.2 9.9 9.1 8.6 9.8 6.6",
  },
  "+": { w: 8, d: "M4 3.6 V12.4 M0 8 H8" },
  A: { w: 9, d: "M0 16 L4.5 0 L9 16 M1.9 10.6 H7.1" },
  E: { w: 8, d: "M8 0 H0 V16 H8 M0 7.8 H6.4" },
  F: { w: 8, d: "M8 0 H0 V16 M0 7.8 H6.4" },
  L: { w: 8, d: "M0 0 V16 H8" },
  N: { w: 10, d: "M0 16 V0 L10 16 V0" },
  O: { w: 11, d: "M5.5 0 C2 0 0 3.6 0 8 C0 12.4 2 16 5.5 16 C9 16 11 12.4 11 8 C11 3.6 9 0 5.5 0 Z" },
  U: { w: 10, d: "M0 0 V10.6 C0 14 2 16 5 16 C8 16 10 14 10 10.6 V0" },
  X: { w: 9, d: "M0 0 L9 16 M9 0 L0 16" },
};

/**
 * Lay out `str` in glyph units. Returns {inner, width} where inner is markup of
 * <path> elements positioned from x = 0 (left) and y = 0 (top of the em box).
 */
function glyphRun(str, sw, { underline = false, tracking = 0 } = {}) {
  const gap = sw * 0.85 + 0.9 + tracking;
  let x = 0;
  const parts = [];
  for (const ch of String(str)) {
    const g = GLYPHS[ch];
    if (!g) throw new Error(`no glyph for ${JSON.stringify(ch)}`);
    parts.push(`<path transform="translate(${r2(x)} 0)" d="${g.d}"/>`);
    x += g.w + gap;
  }
  const width = x - gap;
  if (underline) parts.push(`<path d="M${r2(width * 0.18)} ${r2(16 + sw + 1.5)} H${r2(width * 0.82)}"/>`);
  return { inner: parts.join(""), width };
}

/**
 * Three-layer stroke art: soft shadow, outline, then the fill colour.
 * `inner` uses stroke=currentColor (inherited) and fill="currentColor" on
 * solid parts, so each layer recolours everything at once.
 */
function layered(inner, { sw, ow = 0, fill, outline = "#111", shadow = null }) {
  const out = [];
  const base = 'fill="none" stroke="currentColor" stroke-linecap="round" stroke-linejoin="round"';
  if (shadow) {
    out.push(
      `<g ${base} color="${shadow.color || "#000"}" opacity="${shadow.opacity ?? 0.45}" ` +
        `stroke-width="${r2(sw + 2 * ow)}" transform="translate(${shadow.dx} ${shadow.dy})">${inner}</g>`,
    );
  }
  if (ow > 0) out.push(`<g ${base} color="${outline}" stroke-width="${r2(sw + 2 * ow)}">${inner}</g>`);
  out.push(`<g ${base} color="${fill}" stroke-width="${sw}">${inner}</g>`);
  return out.join("");
}

/**
 * Stroked text. anchor: "middle" centres on (x, y); "start" puts the left edge
 * of the ink at x with the em box vertically centred on y.
 */
function strokeText(str, x, y, h, style) {
  const sw = style.sw ?? 3.4;
  const run = glyphRun(str, sw, { underline: style.underline, tracking: style.tracking });
  const s = h / 16;
  const pad = (sw / 2 + (style.ow ?? 0)) * s; // ink extends beyond the skeleton
  const left = style.anchor === "start" ? x + pad : x - (run.width * s) / 2;
  const top = y - 8 * s;
  return `<g transform="translate(${r2(left)} ${r2(top)}) scale(${r2(s)})">${layered(run.inner, { ...style, sw })}</g>`;
}

/** Width in px of stroked text of height h (ink included). */
function strokeTextWidth(str, h, sw = 3.4, ow = 0) {
  const run = glyphRun(str, sw);
  return (run.width + sw + 2 * ow) * (h / 16);
}

// ---------------------------------------------------------------------------
// Icons (stroke art on a ±10 unit frame)
// ---------------------------------------------------------------------------

function pt(r, deg) {
  const a = (deg * Math.PI) / 180;
  return [r * Math.cos(a), r * Math.sin(a)];
}

/** Circular arc from a0 to a1 degrees (clockwise on screen) ending in an arrow head. */
function arcArrow(r, a0, a1, head = 4.4, hw = 3.6, cx = 0, cy = 0) {
  const [x0, y0] = pt(r, a0);
  const [x1, y1] = pt(r, a1);
  const large = a1 - a0 > 180 ? 1 : 0;
  const a = (a1 * Math.PI) / 180;
  const tx = -Math.sin(a);
  const ty = Math.cos(a);
  const [bx1, by1] = pt(r + hw, a1);
  const [bx2, by2] = pt(r - hw, a1);
  const tipx = x1 + tx * head;
  const tipy = y1 + ty * head;
  const f = (x, y) => `${r2(x + cx)} ${r2(y + cy)}`;
  return (
    `<path d="M${f(x0, y0)} A${r} ${r} 0 ${large} 1 ${f(x1, y1)}"/>` +
    `<path fill="currentColor" d="M${f(bx1, by1)} L${f(tipx, tipy)} L${f(bx2, by2)} Z"/>`
  );
}

/** Straight arrow from (x0,y0) to tip (x1,y1). */
function arrow(x0, y0, x1, y1, head = 5, hw = 4) {
  const L = Math.hypot(x1 - x0, y1 - y0);
  const ux = (x1 - x0) / L;
  const uy = (y1 - y0) / L;
  const px = -uy;
  const py = ux;
  const bx = x1 - ux * head;
  const by = y1 - uy * head;
  return (
    `<path d="M${r2(x0)} ${r2(y0)} L${r2(bx + ux)} ${r2(by + uy)}"/>` +
    `<path fill="currentColor" d="M${r2(x1)} ${r2(y1)} L${r2(bx + px * hw)} ${r2(by + py * hw)} L${r2(bx - px * hw)} ${r2(by - py * hw)} Z"/>`
  );
}

const REVERSE = arrow(-9, 1.6, 1.6, -9, 5, 3.7) + arrow(9, -1.6, -1.6, 9, 5, 3.7);

const ICONS = {
  skip: { sw: 3.2, inner: '<circle r="7.6"/><path d="M-5.4 5.4 L5.4 -5.4"/>' },
  // two opposed diagonal arrows, like the printed Reverse
  reverse: { sw: 2.8, inner: REVERSE },
  // two chasing circular arrows
  flip: { sw: 2.9, inner: arcArrow(7, 195, 325, 4.6, 3.8) + arcArrow(7, 15, 145, 4.6, 3.8) },
  // skip sign ringed by two circular arrows
  skip_everyone: {
    sw: 2.3,
    inner:
      '<circle r="4.4"/><path d="M-3.1 3.1 L3.1 -3.1"/>' +
      arcArrow(9.2, 200, 320, 3.6, 3.2) +
      arcArrow(9.2, 20, 140, 3.6, 3.2),
  },
  target: {
    sw: 2.4,
    inner:
      '<circle r="6.6"/><circle r="1.6" fill="currentColor"/>' +
      '<path d="M0 -10 V-7 M0 10 V7 M-10 0 H-7 M10 0 H7"/>',
  },
  // reverse followed by skip, for the Flex Reverse's flex side
  reverse_skip: {
    sw: 2.2,
    inner:
      `<g transform="translate(-5.6 0) scale(0.62)">${REVERSE}</g>` +
      '<g transform="translate(6 0) scale(0.62)"><circle r="7.6"/><path d="M-5.4 5.4 L5.4 -5.4"/></g>',
  },
};

/** Render an icon centred at (x, y) with overall height h. */
function icon(name, x, y, h, style) {
  const ic = ICONS[name];
  const s = h / 20;
  return `<g transform="translate(${r2(x)} ${r2(y)}) scale(${r2(s)})">${layered(ic.inner, { ...style, sw: style.sw ?? ic.sw })}</g>`;
}

/** Colour-blind symbol centred at (x, y), radius ~ size/2. */
function symbol(code, x, y, size, { fill = "#fff", outline = "#111", ow = 1.8, rotate = 0 } = {}) {
  const info = colorInfo[code];
  const sp = SYMBOL_PATHS[info.symbol];
  const s = size / 20;
  const tr = `translate(${r2(x)} ${r2(y)})${rotate ? ` rotate(${rotate})` : ""} scale(${r2(s)})`;
  if (sp.stroke) {
    return (
      `<g transform="${tr}" fill="none" stroke-linecap="round" stroke-linejoin="round">` +
      `<path d="${sp.d}" stroke="${outline}" stroke-width="${r2(3.4 + 2 * ow)}"/>` +
      `<path d="${sp.d}" stroke="${fill}" stroke-width="3.4"/></g>`
    );
  }
  return (
    `<g transform="${tr}"><path d="${sp.d}" fill="${fill}" stroke="${outline}" ` +
    `stroke-width="${r2(2 * ow)}" stroke-linejoin="round" paint-order="stroke"/></g>`
  );
}

// ---------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------

const NUMBER_WORDS = ["Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine"];

/** Wild tokens: kind, number (for draws), side, variants, label, flex-side text. */
const WILD_TOKENS = {
  W: { kind: "wild", side: "light", variants: ["classic", "flip"], label: "Wild" },
  W4: { kind: "wild_draw", number: 4, side: "light", variants: ["classic"], label: "Wild Draw Four" },
  W2: { kind: "wild_draw", number: 2, side: "light", variants: ["flip"], label: "Wild Draw Two" },
  DW: { kind: "wild", side: "dark", variants: ["flip"], label: "Dark Wild" },
  WDC: { kind: "wild_draw_color", side: "dark", variants: ["flip"], label: "Wild Draw Color" },
  WAF: { kind: "wild_all_flip", side: "light", variants: ["flex"], label: "Wild All Flip", flex: false },
  WAD: {
    kind: "flex_wild_all_draw",
    number: 2,
    side: "light",
    variants: ["flex"],
    label: "Flex Wild All Draw",
    flexText: "flex side: every other player draws 2",
  },
  WTD: {
    kind: "flex_wild_target_draw",
    number: 2,
    side: "light",
    variants: ["flex"],
    label: "Flex Wild Target Draw 2",
    flexText: "flex side: a chosen player draws 2",
  },
  FW4: {
    kind: "flex_wild_draw",
    number: 4,
    side: "light",
    variants: ["flex"],
    label: "Flex Wild Draw Four",
    flexText: "flex side: a chosen player draws 4",
  },
};

/** Coloured action bodies. */
const ACTION_BODIES = {
  S: { kind: "skip", side: "light", variants: ["classic", "flip", "flex"], label: "Skip" },
  R: { kind: "reverse", side: "both", variants: ["classic", "flip", "flex"], label: "Reverse" },
  D2: { kind: "draw", number: 2, side: "light", variants: ["classic", "flex"], label: "Draw Two" },
  D1: { kind: "draw", number: 1, side: "light", variants: ["flip"], label: "Draw One" },
  D5: { kind: "draw", number: 5, side: "dark", variants: ["flip"], label: "Draw Five" },
  F: { kind: "flip", side: "both", variants: ["flip"], label: "Flip" },
  SE: { kind: "skip_everyone", side: "dark", variants: ["flip"], label: "Skip Everyone" },
  FS: {
    kind: "flex_skip",
    side: "light",
    variants: ["flex"],
    label: "Flex Skip",
    flexText: "flex side: Skip All",
  },
  FR: {
    kind: "flex_reverse",
    side: "light",
    variants: ["flex"],
    label: "Flex Reverse",
    flexText: "flex side: Reverse then Skip",
  },
  FD2: {
    kind: "flex_draw",
    number: 2,
    side: "light",
    variants: ["flex"],
    label: "Flex Draw Two",
    flexText: "flex side: every other player draws 1",
  },
};

const COLOR_RE = /^(Pk|Tl|Or|Pu|R|Y|G|B)(.*)$/;
const NUMBER_RE = /^([0-9])(\*)?(?:~(Pk|Tl|Or|Pu|R|Y|G|B))?$/;
const FLEX_ACTION_RE = /^(S|R|D2|FS|FR|FD2)~(R|Y|G|B)$/;

function parseFace(token) {
  const t = token.trim();
  if (!t) throw new Error("empty card notation");
  if (Object.hasOwn(WILD_TOKENS, t)) {
    const w = WILD_TOKENS[t];
    return {
      code: t,
      color: null,
      kind: w.kind,
      number: w.number ?? null,
      flexColor: null,
      flipIcon: false,
      side: w.side,
      variants: [...w.variants],
      isFlex: w.variants[0] === "flex" && w.flex !== false,
    };
  }
  const m = COLOR_RE.exec(t);
  if (!m) throw new Error(`unknown card notation ${JSON.stringify(token)}`);
  const [, color, body] = m;
  const side = colorInfo[color].side;
  const num = NUMBER_RE.exec(body);
  if (num) {
    const n = Number(num[1]);
    const flipIcon = Boolean(num[2]);
    const flexColor = num[3] ?? null;
    let variants;
    if (side === "dark") {
      if (flipIcon || flexColor) throw new Error(`dark-side cards have no Flex marks: ${JSON.stringify(token)}`);
      if (n < 1) throw new Error(`no dark-side 0 card: ${JSON.stringify(token)}`);
      variants = ["flip"];
    } else if (flipIcon || flexColor) {
      if (n < 1 || n > 8) throw new Error(`Flex numbers are 1-8: ${JSON.stringify(token)}`);
      if (flexColor && colorInfo[flexColor].side !== "light") {
        throw new Error(`flex colour must be R, Y, G or B: ${JSON.stringify(token)}`);
      }
      if (flexColor === color) throw new Error(`flex colour equals main colour: ${JSON.stringify(token)}`);
      variants = ["flex"];
    } else {
      variants = ["classic"];
      if (n >= 1) variants.push("flip");
      if (n >= 1 && n <= 8) variants.push("flex");
    }
    return { code: t, color, kind: "number", number: n, flexColor, flipIcon, side, variants, isFlex: variants[0] === "flex" && variants.length === 1 };
  }
  // action, possibly with a flex colour (tolerated for Flex cards)
  let actionBody = body;
  let flexColor = null;
  const fa = FLEX_ACTION_RE.exec(body);
  if (fa && side === "light") {
    actionBody = fa[1];
    flexColor = fa[2];
    if (flexColor === color) throw new Error(`flex colour equals main colour: ${JSON.stringify(token)}`);
  }
  if (!Object.hasOwn(ACTION_BODIES, actionBody)) throw new Error(`unknown card notation ${JSON.stringify(token)}`);
  const a = ACTION_BODIES[actionBody];
  if (a.side !== "both" && a.side !== side) {
    throw new Error(`${a.label} does not exist in ${colorInfo[color].name}: ${JSON.stringify(token)}`);
  }
  let variants = side === "dark" ? ["flip"] : [...a.variants];
  if (flexColor) variants = variants.filter((v) => v === "flex");
  if (!variants.length) throw new Error(`unknown card notation ${JSON.stringify(token)}`);
  return {
    code: t,
    color,
    kind: a.kind,
    number: a.number ?? null,
    flexColor,
    flipIcon: false,
    side,
    variants,
    isFlex: a.kind.startsWith("flex_") || Boolean(flexColor),
  };
}

/**
 * Parse a card notation.
 * Returns {variant_hint, variants, faces}. variant_hint is "classic", "flip" or
 * "flex" when the notation belongs to exactly one variant, otherwise null
 * (e.g. "R5" exists in all three); `variants` lists every compatible variant.
 * Each face: {code, color, kind, number, flexColor, flipIcon, side}.
 */
export function parseCard(notation) {
  if (typeof notation !== "string") throw new Error("card notation must be a string");
  const parts = notation.split("|");
  let faces;
  let variants;
  if (parts.length === 2) {
    const light = parseFace(parts[0]);
    const dark = parseFace(parts[1]);
    if (light.side !== "light" || !light.variants.includes("flip")) {
      throw new Error(`left of "|" must be a Flip light face: ${JSON.stringify(notation)}`);
    }
    if (dark.side !== "dark") throw new Error(`right of "|" must be a Flip dark face: ${JSON.stringify(notation)}`);
    faces = [light, dark];
    variants = ["flip"];
  } else if (parts.length === 1) {
    faces = [parseFace(parts[0])];
    variants = faces[0].variants;
  } else {
    throw new Error(`too many "|" in ${JSON.stringify(notation)}`);
  }
  return {
    variant_hint: variants.length === 1 ? variants[0] : null,
    variants: [...variants],
    faces: faces.map(({ code, color, kind, number, flexColor, flipIcon, side }) => ({
      code,
      color,
      kind,
      number,
      flexColor,
      flipIcon,
      side,
    })),
  };
}

// ---------------------------------------------------------------------------
// Labels
// ---------------------------------------------------------------------------

function faceLabel(face) {
  if (face.color === null) return WILD_TOKENS[face.code].label;
  const cname = colorInfo[face.color].name;
  let text;
  if (face.kind === "number") {
    text = `${cname} ${face.number}`;
    if (face.flipIcon) text += ", flip icon";
  } else {
    const body = face.code.slice(face.color.length).split("~")[0];
    text = `${cname} ${ACTION_BODIES[body].label}`;
  }
  if (face.flexColor) text += `, flex colour ${colorInfo[face.flexColor].name}`;
  return text;
}

function faceDescription(face) {
  const bits = [];
  if (face.color === null) {
    const w = WILD_TOKENS[face.code];
    if (w.flexText) bits.push(w.flexText);
  } else if (face.kind !== "number") {
    const body = face.code.slice(face.color.length).split("~")[0];
    if (ACTION_BODIES[body].flexText) bits.push(ACTION_BODIES[body].flexText);
  }
  if (face.flipIcon) bits.push("playing it flips your power card");
  if (face.color) bits.push(`colour symbol: ${colorInfo[face.color].symbol}`);
  if (face.flexColor) bits.push(`flex colour symbol: ${colorInfo[face.flexColor].symbol}`);
  return bits.join("; ");
}

// ---------------------------------------------------------------------------
// Card geometry (viewBox 0 0 120 180)
// ---------------------------------------------------------------------------

const W = 120;
const H = 180;
const CX = 60;
const CY = 90;
const INSET = 6;
const OVAL = { rx: 38, ry: 70, rot: 30 };

const SIZES = {
  sm: [56, 84],
  md: [90, 135],
  lg: [150, 225],
};

function svgOpen({ label, desc, size, classes, data }) {
  const [w, h] = SIZES[size] || SIZES.md;
  const cls = ["card", `card--${SIZES[size] ? size : "md"}`, ...classes].join(" ");
  const dataAttrs = Object.entries(data)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => ` data-${k}="${esc(v)}"`)
    .join("");
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="${cls}" viewBox="0 0 ${W} ${H}" ` +
    `width="${w}" height="${h}" role="img" aria-label="${esc(label)}"${dataAttrs}>` +
    `<title>${esc(desc ? `${label} — ${desc}` : label)}</title>`
  );
}

function frame({ border, inner, innerStroke = null, clipId }) {
  const borderStroke = border === "#fff" ? "#b9b9b9" : "#4a4a4a";
  return (
    `<defs><clipPath id="${clipId}"><rect x="${INSET}" y="${INSET}" width="${W - 2 * INSET}" height="${H - 2 * INSET}" rx="8"/></clipPath></defs>` +
    `<rect class="card-border" x="0.6" y="0.6" width="${W - 1.2}" height="${H - 1.2}" rx="11" fill="${border}" stroke="${borderStroke}" stroke-width="1.2"/>` +
    `<rect x="${INSET}" y="${INSET}" width="${W - 2 * INSET}" height="${H - 2 * INSET}" rx="8" fill="${inner}"` +
    (innerStroke ? ` stroke="${innerStroke}" stroke-width="1"` : "") +
    "/>"
  );
}

const OVAL_T = `translate(${CX} ${CY}) rotate(${OVAL.rot})`;

function plainOval(fill, rim = null) {
  return (
    `<ellipse transform="${OVAL_T}" rx="${OVAL.rx}" ry="${OVAL.ry}" fill="${fill}"` +
    (rim ? ` stroke="${rim}" stroke-width="2.2"` : "") +
    "/>"
  );
}

/** Four-colour oval with the colour-blind symbol on each quadrant. */
function fourColourOval(side, withSymbols = true) {
  const cols = side === "dark" ? DARK_COLORS : LIGHT_COLORS;
  // quadrant order in the oval's own frame: top-left, top-right, bottom-right, bottom-left
  const [c1, c2, c3, c4] = [cols[0], cols[3], cols[2], cols[1]];
  const id = uid();
  const quad = (x, y, c) =>
    `<rect x="${x}" y="${y}" width="50" height="80" fill="${colorInfo[c].css}"/>`;
  let out =
    `<defs><clipPath id="${id}"><ellipse rx="${OVAL.rx}" ry="${OVAL.ry}"/></clipPath></defs>` +
    `<g transform="${OVAL_T}"><g clip-path="url(#${id})">` +
    quad(-50, -80, c1) +
    quad(0, -80, c2) +
    quad(0, 0, c3) +
    quad(-50, 0, c4) +
    `<path d="M0 -80 V80 M-50 0 H50" stroke="#fff" stroke-width="1.6" opacity="0.85"/></g>` +
    `<ellipse rx="${OVAL.rx}" ry="${OVAL.ry}" fill="none" stroke="#fff" stroke-width="2.6"/>`;
  if (withSymbols) {
    const pos = [
      [-19, -42, c1],
      [19, -42, c2],
      [19, 42, c3],
      [-19, 42, c4],
    ];
    for (const [x, y, c] of pos) out += symbol(c, x, y, 15, { rotate: -OVAL.rot, ow: 1.6 });
  }
  return `${out}</g>`;
}

/** Small four-colour oval for corner indices of wild cards. */
function miniWild(x, y, h, side) {
  const cols = side === "dark" ? DARK_COLORS : LIGHT_COLORS;
  const [c1, c2, c3, c4] = [cols[0], cols[3], cols[2], cols[1]];
  const s = h / 20;
  const id = uid();
  const q = (qx, qy, c) => `<rect x="${qx}" y="${qy}" width="7" height="11" fill="${colorInfo[c].css}"/>`;
  return (
    `<g transform="translate(${r2(x)} ${r2(y)}) scale(${r2(s)}) rotate(${OVAL.rot})">` +
    `<defs><clipPath id="${id}"><ellipse rx="5.8" ry="9.6"/></clipPath></defs>` +
    `<ellipse rx="5.8" ry="9.6" fill="#fff" stroke="#fff" stroke-width="3.4"/>` +
    `<g clip-path="url(#${id})">${q(-7, -11, c1)}${q(0, -11, c2)}${q(0, 0, c3)}${q(-7, 0, c4)}</g></g>`
  );
}

/** Small upright card split into the four dark colours (Wild Draw Color mark). */
function miniColourCard(x, y, h) {
  const w = h * 0.68;
  const id = uid();
  const [a, b, c, d] = DARK_COLORS.map((k) => colorInfo[k].css);
  const x0 = r2(x - w / 2);
  const y0 = r2(y - h / 2);
  const hw = r2(w / 2);
  const hh = r2(h / 2);
  const rx = r2(h * 0.14);
  return (
    `<defs><clipPath id="${id}"><rect x="${x0}" y="${y0}" width="${r2(w)}" height="${r2(h)}" rx="${rx}"/></clipPath></defs>` +
    `<rect x="${x0}" y="${y0}" width="${r2(w)}" height="${r2(h)}" rx="${rx}" fill="#fff" stroke="#fff" stroke-width="${r2(h * 0.16)}"/>` +
    `<g clip-path="url(#${id})">` +
    `<rect x="${x0}" y="${y0}" width="${hw}" height="${hh}" fill="${a}"/>` +
    `<rect x="${r2(x)}" y="${y0}" width="${hw}" height="${hh}" fill="${d}"/>` +
    `<rect x="${r2(x)}" y="${r2(y)}" width="${hw}" height="${hh}" fill="${c}"/>` +
    `<rect x="${x0}" y="${r2(y)}" width="${hw}" height="${hh}" fill="${b}"/></g>`
  );
}

/** Flex colour: two corner triangles (top-right, bottom-left) with its symbol. */
function flexCorners(flexColor, clipId) {
  const css = colorInfo[flexColor].css;
  const s = 46;
  const r = W - INSET;
  const b = H - INSET;
  return (
    `<g clip-path="url(#${clipId})">` +
    `<path d="M${r - s} ${INSET} H${r} V${INSET + s} Z" fill="${css}"/>` +
    `<path d="M${INSET} ${b - s} V${b} H${INSET + s} Z" fill="${css}"/>` +
    `<path d="M${r - s} ${INSET} L${r} ${INSET + s} M${INSET} ${b - s} L${INSET + s} ${b}" stroke="#fff" stroke-width="2.2"/>` +
    `</g>` +
    symbol(flexColor, r - 10.5, INSET + 10.5, 12.5) +
    symbol(flexColor, INSET + 10.5, b - 10.5, 12.5, { rotate: 180 })
  );
}

/** Diagonal "FLEX" sash across the top-right corner. */
function flexRibbon(clipId) {
  return (
    `<g clip-path="url(#${clipId})"><g transform="translate(${W - 24} 24) rotate(45)">` +
    `<rect x="-40" y="-7.4" width="80" height="14.8" fill="#111" stroke="#fff" stroke-width="1.4"/>` +
    strokeText("FLEX", 0, 0, 8.4, { sw: 2.8, fill: "#ffd400", tracking: 1.2 }) +
    `</g></g>`
  );
}

/** White pill at the bottom-left showing the flex-side action of a Flex card. */
function flexPill(face) {
  const x = 29;
  const y = H - 20;
  const pill = (w) =>
    `<rect x="${r2(x - w / 2)}" y="${y - 9}" width="${r2(w)}" height="18" rx="9" fill="#fff" stroke="#111" stroke-width="1.4"/>`;
  const st = { fill: "#111" };
  switch (face.kind) {
    case "flex_skip":
      return pill(24) + icon("skip_everyone", x, y, 15, st);
    case "flex_reverse":
      return pill(30) + icon("reverse_skip", x, y, 18, st);
    case "flex_draw":
    case "flex_wild_all_draw": {
      const n = face.kind === "flex_draw" ? "1" : "2";
      return pill(40) + strokeText("ALL", x - 7.5, y, 6.6, { sw: 2.6, ...st }) + strokeText(`+${n}`, x + 10, y, 8.6, { sw: 3, ...st });
    }
    case "flex_wild_target_draw":
    case "flex_wild_draw": {
      const n = face.kind === "flex_wild_draw" ? "4" : "2";
      return pill(38) + icon("target", x - 7.5, y, 13, st) + strokeText(`+${n}`, x + 8.5, y, 8.6, { sw: 3, ...st });
    }
    default:
      return "";
  }
}

/** Top-right white badge with the flip icon (Flex numbers marked "*"). */
function flipBadge() {
  const x = W - 20;
  const y = 21;
  return (
    `<circle cx="${x}" cy="${y}" r="11" fill="#fff" stroke="#111" stroke-width="1.4"/>` +
    icon("flip", x, y, 17, { fill: "#111" })
  );
}

// ---------------------------------------------------------------------------
// Face rendering
// ---------------------------------------------------------------------------

const ICON_KIND = {
  skip: "skip",
  reverse: "reverse",
  flip: "flip",
  skip_everyone: "skip_everyone",
  flex_skip: "skip",
  flex_reverse: "reverse",
  wild_all_flip: "flip",
};

function isWildKind(kind) {
  return (
    kind === "wild" ||
    kind === "wild_draw" ||
    kind === "wild_draw_color" ||
    kind === "wild_all_flip" ||
    kind.startsWith("flex_wild")
  );
}

/** Corner index content (top-left; the bottom-right copy is rotated 180°). */
function cornerIndex(face, dark) {
  const x = 12;
  const y = 25;
  const st = { sw: 3.6, ow: 1.3, fill: "#fff", outline: "#111" };
  let out = "";
  const k = face.kind;
  if (k === "number") {
    out += strokeText(String(face.number), x, y, 19, { ...st, anchor: "start", underline: face.number === 6 || face.number === 9 });
  } else if (k === "draw" || k === "flex_draw" || k === "wild_draw" || k === "flex_wild_draw") {
    out += strokeText(`+${face.number}`, x - 1, y, 16, { ...st, sw: 3.6, anchor: "start" });
  } else if (k === "wild_draw_color") {
    out += strokeText("+", x - 1.5, y, 15, { ...st, anchor: "start" }) + miniColourCard(x + 19.5, y, 15);
  } else if (ICON_KIND[k]) {
    out += icon(ICON_KIND[k], x + 9, y, 21, { ...st, sw: undefined, ow: 1.5 });
  } else if (isWildKind(k)) {
    out += miniWild(x + 8, y, 24, dark ? "dark" : "light");
  }
  if (face.color) out += symbol(face.color, x + 8.5, y + 27, 16);
  return out;
}

function centre(face, dark) {
  const c = face.color ? colorInfo[face.color] : null;
  const big = dark
    ? { fill: c ? c.glyph : "#fff", outline: "#fff", ow: 1.1 }
    : { fill: c ? c.glyph : "#fff", outline: "#111", ow: 1.1, shadow: { dx: 1.2, dy: 1.2, opacity: 0.35 } };
  const k = face.kind;
  switch (k) {
    case "number": {
      const n = face.number;
      return strokeText(String(n), CX, CY - (n === 6 || n === 9 ? 3 : 0), 54, {
        ...big,
        sw: 3.5,
        underline: n === 6 || n === 9,
      });
    }
    case "draw":
    case "flex_draw":
      return strokeText(`+${face.number}`, CX, CY, 40, { ...big, sw: 3.7 });
    case "skip":
    case "reverse":
    case "flip":
    case "skip_everyone":
    case "flex_skip":
    case "flex_reverse":
      return icon(ICON_KIND[k], CX, CY, k === "skip_everyone" ? 60 : 54, { ...big, ow: big.ow * 0.9 });
    case "wild":
    case "flex_wild_all_draw":
    case "flex_wild_target_draw":
      return "";
    case "wild_draw":
    case "flex_wild_draw":
      return strokeText(`+${face.number}`, CX, CY, 36, { sw: 3.8, fill: "#fff", outline: "#111", ow: 1.3, shadow: { dx: 1, dy: 1, opacity: 0.5 } });
    case "wild_draw_color":
      return (
        `<circle cx="${CX}" cy="${CY}" r="23" fill="#111" stroke="#fff" stroke-width="2.4"/>` +
        strokeText("+", CX - 8, CY, 20, { sw: 3.6, fill: "#fff" }) +
        miniColourCard(CX + 8.5, CY, 20)
      );
    case "wild_all_flip":
      return (
        `<circle cx="${CX}" cy="${CY}" r="19" fill="#111" stroke="#fff" stroke-width="2.4"/>` +
        icon("flip", CX, CY, 30, { fill: "#fff" })
      );
    default:
      return "";
  }
}

function renderFace(face, opts) {
  const dark = face.side === "dark";
  const wild = isWildKind(face.kind);
  const clipId = uid();
  const border = dark ? "#0d0d0d" : "#fff";
  const bg = wild ? (dark ? "#262626" : "#111") : colorInfo[face.color].css;
  let out = frame({ border, inner: bg, innerStroke: dark ? "#555" : null, clipId });
  if (face.flexColor) out += flexCorners(face.flexColor, clipId);
  if (wild) out += fourColourOval(face.side);
  else out += plainOval(dark ? "#141414" : "#fff", dark ? colorInfo[face.color].glyph : null);
  out += centre(face, dark);
  let idx = cornerIndex(face, dark);
  // Small cards are mostly seen fanned in a hand: enlarge the corner index.
  if (opts.size === "sm") idx = `<g transform="translate(${INSET} ${INSET}) scale(1.22) translate(${-INSET} ${-INSET})">${idx}</g>`;
  out += `<g class="card-index">${idx}</g><g class="card-index" transform="rotate(180 ${CX} ${CY})">${idx}</g>`;
  const variantIsFlex = face.variants ? face.isFlex : false;
  if (variantIsFlex && face.kind !== "number" && !face.flexColor) out += flexRibbon(clipId);
  if (face.flipIcon) out += flipBadge();
  out += flexPill(face);
  return out;
}

function stateClasses(opts) {
  const c = [];
  if (opts.playable) c.push("playable");
  if (opts.selected) c.push("selected");
  return c;
}

/**
 * Render one card (or one face of a Flip card) as an SVG string.
 *
 * opts.side     "light" | "dark"  — which face of a "light|dark" Flip card to show
 * opts.back     true → draw the face-down back (Classic/Flex only; ignored for
 *               a two-sided Flip card, whose "back" is simply its other face)
 * opts.size     "sm" | "md" | "lg"
 * opts.playable / opts.selected  — state classes (styled by cards.css)
 * opts.label    aria-label override
 */
export function renderCard(notation, opts = {}) {
  const parsed = parseCard(notation);
  const faceIdx = parsed.faces.length === 2 && opts.side === "dark" ? 1 : 0;
  if (opts.back && parsed.faces.length === 1) {
    const variant = parsed.variant_hint === "flex" ? "flex" : parsed.variant_hint === "flip" ? "flip" : "classic";
    return renderBack(variant, opts);
  }
  const rawFaces = (notation.includes("|") ? notation.split("|") : [notation]).map((p) => parseFace(p));
  const face = rawFaces[faceIdx];
  const label = opts.label ?? faceLabel(face);
  const classes = [...stateClasses(opts), face.side === "dark" ? "card--dark" : "card--light"];
  if (face.color === null) classes.push("card--wild");
  return (
    svgOpen({
      label,
      desc: faceDescription(face),
      size: opts.size,
      classes,
      data: { card: notation.trim(), face: face.code, side: face.side, variant: parsed.variant_hint ?? undefined },
    }) +
    renderFace(face, opts) +
    "</svg>"
  );
}

/**
 * Face-down back.  variant "classic" / "flex": black back with a tilted red
 * oval and the game name; "flip": a neutral split light/dark back (a Flip
 * card never actually needs one — its back is its other face).
 */
export function renderBack(variant = "classic", opts = {}) {
  const v = variant === "flip" ? "flip" : variant === "flex" ? "flex" : "classic";
  const label = opts.label ?? (v === "flip" ? "Face-down UNO Flip card" : "Face-down card");
  const clipId = uid();
  let out = svgOpen({ label, desc: "", size: opts.size, classes: [...stateClasses(opts), "card--back"], data: { back: v } });
  if (v === "flip") {
    out +=
      frame({ border: "#7a7a7a", inner: "#f4f1ea", clipId }) +
      `<g clip-path="url(#${clipId})"><path d="M${W} 0 V${H} H0 Z" fill="#161616"/></g>` +
      `<defs><clipPath id="${clipId}o"><ellipse rx="${OVAL.rx}" ry="${OVAL.ry}"/></clipPath></defs>` +
      `<g transform="${OVAL_T}"><ellipse rx="${OVAL.rx}" ry="${OVAL.ry}" fill="#fff"/>` +
      `<rect x="0" y="-80" width="50" height="160" fill="#111" clip-path="url(#${clipId}o)"/></g>` +
      `<ellipse transform="${OVAL_T}" rx="${OVAL.rx}" ry="${OVAL.ry}" fill="none" stroke="#888" stroke-width="2.4"/>` +
      `<circle cx="${CX}" cy="${CY}" r="22" fill="#e2231a" stroke="#fff" stroke-width="2.4"/>` +
      icon("flip", CX, CY, 34, { fill: "#fff" });
  } else {
    out +=
      frame({ border: "#fff", inner: "#111", clipId }) +
      plainOval("#e2231a", null) +
      `<g transform="translate(${CX} ${CY}) rotate(-22)">` +
      strokeText("UNO", 0, 0, 26, { sw: 4, fill: "#f6c700", outline: "#111", ow: 1.4, shadow: { dx: 1.6, dy: 1.6, opacity: 0.6 }, tracking: 0.8 }) +
      `</g>`;
    if (v === "flex") {
      out += `<g transform="translate(${CX} ${CY + 52})">${strokeText("FLEX", 0, 0, 9, { sw: 2.8, fill: "#fff", tracking: 1.4 })}</g>`;
    }
  }
  return `${out}</svg>`;
}

/**
 * Standalone colour swatch with its colour-blind symbol (for legends / colour
 * pickers).  Returns an SVG string with role="img" and the colour name.
 */
export function renderSymbol(code, opts = {}) {
  const info = colorInfo[code];
  if (!info) throw new Error(`unknown colour ${JSON.stringify(code)}`);
  const px = opts.px ?? 22;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="card-symbol" viewBox="0 0 24 24" width="${px}" height="${px}" ` +
    `role="img" aria-label="${esc(opts.label ?? info.name)}">` +
    `<rect x="1" y="1" width="22" height="22" rx="5" fill="${info.css}" stroke="#fff" stroke-width="1.2"/>` +
    symbol(code, 12, 12, 15, { ow: 1.4 }) +
    "</svg>"
  );
}
