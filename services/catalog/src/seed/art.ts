/**
 * Product art for the seed catalogue, drawn as SVG in team colours: jerseys, hoodies, caps, balls…
 * Pure functions of the product's art spec, so every image loads offline and never needs a file on
 * disk or a host elsewhere. Three views per product: front, back (or a second angle), crest detail.
 */

export const ART_KINDS = [
  'jersey',
  'tee',
  'longsleeve',
  'polo',
  'hoodie',
  'jacket',
  'tank',
  'pants',
  'shorts',
  'leggings',
  'cap',
  'beanie',
  'scarf',
  'socks',
  'gloves',
  'ball',
  'helmet',
  'bag',
  'bottle',
] as const;
export type ArtKind = (typeof ART_KINDS)[number];

export const ART_VIEWS = 3;
export const VIEW_NAMES = ['front', 'back', 'team crest detail'] as const;

export interface ArtSpec {
  kind: ArtKind;
  /** Main fabric colour. */
  body: string;
  /** Stripes, collars, cuffs. */
  trim: string;
  /** Small details and outlines of text. */
  accent: string;
  /** Colour of the wordmark and number. */
  text: string;
  wordmark: string;
  abbr: string;
  number: string;
}

const SIZE = 800;
const FONT = 'font-family="\'Arial Black\', \'Helvetica Neue\', Arial, sans-serif" font-weight="900"';

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function text(
  x: number,
  y: number,
  value: string,
  size: number,
  fill: string,
  opts: { width?: number; stroke?: string; anchor?: string } = {},
): string {
  const fit = opts.width ? ` textLength="${opts.width}" lengthAdjust="spacingAndGlyphs"` : '';
  const stroke = opts.stroke
    ? ` stroke="${opts.stroke}" stroke-width="${Math.max(2, size / 28)}" paint-order="stroke"`
    : '';
  return `<text x="${x}" y="${y}" font-size="${size}" ${FONT} fill="${fill}" text-anchor="${opts.anchor ?? 'middle'}"${fit}${stroke}>${esc(value)}</text>`;
}

const shade = 'fill="#000" opacity="0.10"';

function luminance(hex: string): number {
  const n = parseInt(hex.slice(1), 16);
  const channel = (c: number) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

/** The preferred text colour on `background`, or black/white when it would not stand out. */
export function ink(background: string, preferred: string): string {
  const [a, b] = [luminance(background), luminance(preferred)];
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  if (ratio >= 2.5) return preferred;
  return a > 0.35 ? '#111111' : '#FFFFFF';
}

// ------------------------------------------------------------------ silhouettes

const TOP_SHORT =
  'M300 150 Q400 205 500 150 L610 185 L690 330 L600 370 L565 320 L565 690 Q400 712 235 690 L235 320 L200 370 L110 330 L190 185 Z';
const TOP_LONG =
  'M300 150 Q400 205 500 150 L610 185 L690 560 L610 580 L565 340 L565 690 Q400 712 235 690 L235 340 L190 580 L110 560 L190 185 Z';
const TANK =
  'M315 140 L365 140 Q400 235 435 140 L485 140 Q495 255 560 300 L560 690 Q400 712 240 690 L240 300 Q305 255 315 140 Z';

function top(s: ArtSpec, back: boolean): string {
  const fg = ink(s.body, s.text);
  const long = s.kind === 'hoodie' || s.kind === 'jacket' || s.kind === 'longsleeve';
  const outline = s.kind === 'tank' ? TANK : long ? TOP_LONG : TOP_SHORT;
  const parts = [`<path d="${outline}" fill="${s.body}" stroke="${s.trim}" stroke-width="6" stroke-linejoin="round"/>`];
  // side shading for depth
  parts.push(`<path d="M235 340 L235 690 Q260 700 290 702 L290 340 Z" ${shade}/>`);
  if (s.kind === 'jersey') {
    parts.push(`<path d="M125 305 L212 345 M138 280 L222 318" stroke="${s.trim}" stroke-width="14"/>`);
    parts.push(`<path d="M675 305 L588 345 M662 280 L578 318" stroke="${s.trim}" stroke-width="14"/>`);
  }
  if (long) {
    parts.push(`<path d="M112 548 L190 566 M688 548 L610 566" stroke="${s.trim}" stroke-width="16"/>`);
    parts.push(`<path d="M240 672 Q400 694 560 672" stroke="${s.trim}" stroke-width="18" fill="none"/>`);
  }
  if (!back) {
    if (s.kind === 'jersey')
      parts.push(`<path d="M325 152 L400 235 L475 152" fill="${s.trim}" stroke="${s.trim}" stroke-width="8"/>`);
    else if (s.kind === 'polo') {
      parts.push(`<path d="M300 150 L352 228 L400 190 L448 228 L500 150 Q400 196 300 150 Z" fill="${s.trim}"/>`);
      parts.push(`<path d="M400 190 L400 300" stroke="${s.trim}" stroke-width="6"/>`);
      for (const y of [225, 260, 292]) parts.push(`<circle cx="412" cy="${y}" r="6" fill="${s.accent}"/>`);
    } else if (s.kind === 'jacket') {
      parts.push(`<path d="M300 150 L340 120 L460 120 L500 150 Q400 190 300 150 Z" fill="${s.trim}"/>`);
      parts.push(`<path d="M400 180 L400 700" stroke="${s.accent}" stroke-width="8" stroke-dasharray="10 6"/>`);
    } else if (s.kind === 'hoodie') {
      parts.push(
        `<path d="M292 155 Q300 70 400 62 Q500 70 508 155 Q400 215 292 155 Z" fill="${s.body}" stroke="${s.trim}" stroke-width="6"/>`,
      );
      parts.push(`<path d="M330 160 Q400 120 470 160 Q400 200 330 160 Z" fill="#000" opacity="0.25"/>`);
      parts.push(
        `<path d="M370 190 L362 300 M430 190 L438 300" stroke="${s.accent}" stroke-width="6" stroke-linecap="round"/>`,
      );
      parts.push(
        `<path d="M290 520 L510 520 L550 640 L250 640 Z" fill="#000" opacity="0.12" stroke="${s.trim}" stroke-width="4"/>`,
      );
    } else if (s.kind !== 'tank') {
      parts.push(`<path d="M318 156 Q400 222 482 156" fill="none" stroke="${s.trim}" stroke-width="14"/>`);
    }
  } else {
    parts.push(`<path d="M300 150 Q400 180 500 150" fill="none" stroke="${s.trim}" stroke-width="14"/>`);
  }

  if (back) {
    parts.push(text(400, 300, s.wordmark, 52, fg, { width: Math.min(280, s.wordmark.length * 40), stroke: s.trim }));
    parts.push(text(400, 520, s.number, 200, fg, { stroke: s.trim }));
  } else if (s.kind === 'jersey') {
    parts.push(text(400, 330, s.wordmark, 50, fg, { width: Math.min(270, s.wordmark.length * 38), stroke: s.trim }));
    parts.push(text(400, 500, s.number, 150, fg, { stroke: s.trim }));
  } else if (s.kind === 'hoodie') {
    parts.push(text(400, 400, s.wordmark, 60, fg, { width: Math.min(300, s.wordmark.length * 44), stroke: s.trim }));
  } else if (s.kind === 'polo' || s.kind === 'jacket') {
    parts.push(crestMark(490, 300, 42, s));
  } else {
    parts.push(text(400, 380, s.wordmark, 62, fg, { width: Math.min(290, s.wordmark.length * 44), stroke: s.trim }));
    parts.push(text(400, 440, 'EST. FOOTBALL', 26, fg, { width: 220 }));
  }
  return parts.join('');
}

function bottoms(s: ArtSpec, back: boolean): string {
  const outline =
    s.kind === 'shorts'
      ? 'M240 200 L560 200 L605 520 L430 545 L400 390 L370 545 L195 520 Z'
      : s.kind === 'leggings'
        ? 'M280 150 L520 150 L505 705 L425 705 L400 340 L375 705 L295 705 Z'
        : 'M250 150 L550 150 L585 700 L440 705 L400 330 L360 705 L215 700 Z';
  const top = s.kind === 'shorts' ? 200 : 150;
  const left = s.kind === 'leggings' ? 280 : s.kind === 'shorts' ? 240 : 250;
  const right = 800 - left;
  const parts = [
    `<path d="${outline}" fill="${s.body}" stroke="${s.trim}" stroke-width="6" stroke-linejoin="round"/>`,
    `<rect x="${left}" y="${top}" width="${right - left}" height="42" fill="${s.trim}"/>`,
  ];
  if (!back)
    parts.push(
      `<path d="M380 ${top + 42} L372 ${top + 110} M420 ${top + 42} L428 ${top + 110}" stroke="${s.accent}" stroke-width="6" stroke-linecap="round"/>`,
    );
  // side stripes
  if (s.kind === 'shorts')
    parts.push(`<path d="M248 250 L212 505 M552 250 L588 505" stroke="${s.trim}" stroke-width="16"/>`);
  else if (s.kind === 'leggings')
    parts.push(`<path d="M290 200 L302 690 M510 200 L498 690" stroke="${s.trim}" stroke-width="12"/>`);
  else parts.push(`<path d="M258 200 L226 690 M542 200 L574 690" stroke="${s.trim}" stroke-width="16"/>`);
  parts.push(`<path d="M400 330 L400 ${top + 42}" stroke="#000" stroke-opacity="0.15" stroke-width="4"/>`);
  if (back)
    parts.push(
      `<path d="M300 ${top + 90} L360 ${top + 90} L360 ${top + 150} L300 ${top + 150} Z" fill="#000" opacity="0.12"/>`,
    );
  else
    parts.push(
      text(s.kind === 'shorts' ? 290 : 320, s.kind === 'shorts' ? 470 : 560, s.abbr, 44, ink(s.body, s.text), {
        stroke: s.trim,
      }),
    );
  return parts.join('');
}

function cap(s: ArtSpec, back: boolean): string {
  const parts = [
    `<path d="M215 480 Q215 235 400 222 Q585 235 585 480 Z" fill="${s.body}" stroke="${s.trim}" stroke-width="6"/>`,
    `<path d="M400 226 L400 480 M300 250 Q285 360 290 480 M500 250 Q515 360 510 480" stroke="#000" stroke-opacity="0.18" stroke-width="4" fill="none"/>`,
    `<circle cx="400" cy="224" r="14" fill="${s.trim}"/>`,
  ];
  if (back) {
    parts.push(`<path d="M330 480 Q400 400 470 480 Z" fill="#f2f2f2" stroke="${s.trim}" stroke-width="6"/>`);
    parts.push(`<rect x="340" y="470" width="120" height="22" rx="6" fill="${s.trim}"/>`);
    parts.push(text(400, 420, s.abbr, 44, ink(s.body, s.text), { stroke: s.trim }));
  } else {
    parts.push(
      `<path d="M190 478 Q400 440 650 505 Q560 580 390 560 Q250 545 190 478 Z" fill="${s.trim}" stroke="${s.accent}" stroke-width="4"/>`,
    );
    parts.push(text(400, 410, s.abbr, 110, ink(s.body, s.text), { stroke: s.trim }));
  }
  return parts.join('');
}

function beanie(s: ArtSpec): string {
  return [
    `<circle cx="400" cy="215" r="55" fill="${s.trim}"/>`,
    `<path d="M230 560 Q230 255 400 245 Q570 255 570 560 Z" fill="${s.body}" stroke="${s.trim}" stroke-width="6"/>`,
    ...[300, 350, 400, 450, 500].map(
      (x) => `<path d="M${x} 265 L${x} 520" stroke="#000" stroke-opacity="0.12" stroke-width="6"/>`,
    ),
    `<path d="M240 380 L560 380" stroke="${s.trim}" stroke-width="22"/>`,
    `<rect x="215" y="500" width="370" height="120" rx="28" fill="${s.trim}"/>`,
    `<rect x="215" y="540" width="370" height="20" fill="${s.body}"/>`,
    text(400, 605, s.wordmark, 34, ink(s.trim, s.text), { width: Math.min(240, s.wordmark.length * 28) }),
  ].join('');
}

function scarf(s: ArtSpec): string {
  const stripes = [0, 1, 2, 3, 4, 5, 6]
    .map((i) => `<rect x="${-260 + i * 80}" y="-55" width="36" height="110" fill="${i % 2 ? s.trim : s.accent}"/>`)
    .join('');
  const fringe = Array.from(
    { length: 9 },
    (_, i) =>
      `<path d="M-330 ${-48 + i * 12} L-370 ${-48 + i * 12} M330 ${-48 + i * 12} L370 ${-48 + i * 12}" stroke="${s.trim}" stroke-width="5"/>`,
  ).join('');
  return `<g transform="translate(400 400) rotate(-24)"><rect x="-330" y="-60" width="660" height="120" rx="10" fill="${s.body}" stroke="${s.trim}" stroke-width="5"/>${stripes}${fringe}${text(
    0,
    18,
    s.wordmark,
    46,
    ink(s.body, s.text),
    { width: Math.min(230, s.wordmark.length * 34), stroke: s.body },
  )}</g>`;
}

function socks(s: ArtSpec): string {
  const sock = (dx: number) =>
    `<g transform="translate(${dx} 0)"><path d="M300 150 L400 150 L402 520 Q404 610 330 640 L215 642 Q175 610 225 565 L300 505 Z" fill="${s.body}" stroke="${s.trim}" stroke-width="6" stroke-linejoin="round"/><rect x="300" y="150" width="100" height="40" fill="${s.trim}"/><rect x="300" y="215" width="100" height="18" fill="${s.trim}"/><rect x="300" y="250" width="100" height="18" fill="${s.accent}"/>${text(
      351,
      380,
      s.abbr,
      38,
      ink(s.body, s.text),
      { stroke: s.trim },
    )}</g>`;
  return sock(-70) + sock(140);
}

function gloves(s: ArtSpec, back: boolean): string {
  const glove = (dx: number, flip: boolean) => {
    const fingers = [0, 1, 2, 3]
      .map(
        (i) =>
          `<rect x="${292 + i * 46}" y="${150 + (i === 0 || i === 3 ? 40 : 0)}" width="40" height="${200 - (i === 0 || i === 3 ? 40 : 0)}" rx="20" fill="${s.body}" stroke="${s.trim}" stroke-width="5"/>`,
      )
      .join('');
    const palm = `<path d="M288 300 L478 300 L470 560 L300 560 Z" fill="${s.body}" stroke="${s.trim}" stroke-width="5"/><path d="M292 420 Q230 380 220 320 Q240 300 268 330 L300 380 Z" fill="${s.body}" stroke="${s.trim}" stroke-width="5"/><rect x="296" y="540" width="170" height="60" rx="10" fill="${s.trim}"/>`;
    const grip = back ? '' : `<path d="M310 330 L460 330 L455 520 L315 520 Z" fill="#000" opacity="0.18"/>`;
    return `<g transform="translate(${dx} 0)${flip ? ' translate(768 0) scale(-1 1)' : ''}">${fingers}${palm}${grip}</g>`;
  };
  // Marks are drawn outside the mirrored group, so the right glove's letters read the right way round.
  const marks = back
    ? [254, 514]
        .map(
          (x) => `<circle cx="${x}" cy="430" r="60" fill="${s.trim}"/>${text(x, 448, s.abbr, 48, ink(s.trim, s.text))}`,
        )
        .join('')
    : '';
  return glove(-130, false) + glove(130, true) + marks;
}

function ball(s: ArtSpec, back: boolean): string {
  return `<g transform="translate(400 410) rotate(${back ? 24 : -28})"><ellipse cx="0" cy="0" rx="290" ry="170" fill="${s.body}" stroke="${s.trim}" stroke-width="8"/><path d="M-215 -100 Q-190 0 -215 100 M215 -100 Q190 0 215 100" stroke="${s.accent}" stroke-width="18" fill="none"/><path d="M-95 0 L95 0" stroke="#fff" stroke-width="12"/>${[
    -75, -45, -15, 15, 45, 75,
  ]
    .map((x) => `<path d="M${x} -18 L${x} 18" stroke="#fff" stroke-width="10"/>`)
    .join(
      '',
    )}${text(0, back ? 95 : -45, back ? s.wordmark : s.abbr, back ? 44 : 48, ink(s.body, s.text), back ? { width: Math.min(260, s.wordmark.length * 32) } : {})}</g>`;
}

function helmet(s: ArtSpec, back: boolean): string {
  const flip = back ? ' transform="translate(800 0) scale(-1 1)"' : '';
  const logoX = back ? 800 - 350 : 350;
  return `<g${flip}><path d="M190 500 C170 330 270 200 430 200 C585 200 665 300 665 430 L610 470 L570 470 C548 432 505 424 478 452 L448 525 L255 525 C220 525 196 518 190 500 Z" fill="${s.body}" stroke="${s.trim}" stroke-width="8" stroke-linejoin="round"/><path d="M290 222 C420 182 570 212 650 330" stroke="${s.trim}" stroke-width="26" fill="none"/><path d="M290 222 C420 182 570 212 650 330" stroke="${s.accent}" stroke-width="8" fill="none"/><circle cx="512" cy="392" r="16" fill="#000" opacity="0.45"/><path d="M478 470 L600 568" stroke="#2b2b2b" stroke-width="10" stroke-linecap="round"/><path d="M605 425 L745 425 L745 565 L585 565 M625 475 L745 475 M600 520 L745 520 M680 425 L680 565" stroke="#9aa0a6" stroke-width="14" fill="none" stroke-linecap="round" stroke-linejoin="round"/><path d="M255 525 L270 560 L440 560 L448 525 Z" fill="${s.trim}"/></g><circle cx="${logoX}" cy="360" r="72" fill="${s.trim}"/>${text(logoX, 380, s.abbr, 54, ink(s.trim, s.text))}`;
}

function bag(s: ArtSpec, back: boolean): string {
  if (back) {
    return `<path d="M330 220 Q400 130 470 220" stroke="${s.trim}" stroke-width="22" fill="none"/><rect x="250" y="210" width="300" height="470" rx="70" fill="${s.body}" stroke="${s.trim}" stroke-width="6"/><path d="M300 240 Q280 460 310 660 M500 240 Q520 460 490 660" stroke="${s.trim}" stroke-width="34" fill="none" stroke-linecap="round"/><rect x="330" y="330" width="140" height="220" rx="30" fill="#000" opacity="0.15"/>`;
  }
  return `<path d="M330 220 Q400 130 470 220" stroke="${s.trim}" stroke-width="22" fill="none"/><rect x="250" y="210" width="300" height="470" rx="70" fill="${s.body}" stroke="${s.trim}" stroke-width="6"/><rect x="285" y="450" width="230" height="190" rx="40" fill="${s.trim}"/><path d="M300 480 L500 480" stroke="${s.accent}" stroke-width="6" stroke-dasharray="12 8"/><path d="M270 300 L530 300" stroke="${s.accent}" stroke-width="6" stroke-dasharray="12 8"/>${text(
    400,
    400,
    s.wordmark,
    44,
    ink(s.body, s.text),
    { width: Math.min(220, s.wordmark.length * 32), stroke: s.trim },
  )}${text(400, 580, s.abbr, 64, ink(s.trim, s.text))}`;
}

function bottle(s: ArtSpec, back: boolean): string {
  return `<rect x="350" y="130" width="100" height="70" rx="14" fill="${s.trim}"/><rect x="372" y="100" width="56" height="40" rx="10" fill="${s.accent}"/><path d="M330 210 Q330 190 350 190 L450 190 Q470 190 470 210 L480 690 Q480 710 460 710 L340 710 Q320 710 320 690 Z" fill="${s.body}" stroke="${s.trim}" stroke-width="6"/><rect x="322" y="360" width="156" height="220" fill="${s.trim}"/>${
    back
      ? text(400, 500, s.number, 110, ink(s.trim, s.text))
      : text(400, 490, s.abbr, 70, ink(s.trim, s.text), { width: s.abbr.length > 2 ? 130 : undefined })
  }<path d="M350 230 L350 680" stroke="#fff" stroke-opacity="0.25" stroke-width="14"/>`;
}

function crestMark(cx: number, cy: number, r: number, s: ArtSpec): string {
  const w = r;
  const h = r * 1.2;
  return `<path d="M${cx - w} ${cy - h} L${cx + w} ${cy - h} L${cx + w} ${cy} Q${cx + w} ${cy + h * 0.8} ${cx} ${cy + h * 1.2} Q${cx - w} ${cy + h * 0.8} ${cx - w} ${cy} Z" fill="${s.trim}" stroke="${s.accent}" stroke-width="${Math.max(3, r / 10)}"/>${text(
    cx,
    cy + r * 0.25,
    s.abbr,
    Math.round(r * (s.abbr.length > 2 ? 0.7 : 0.95)),
    ink(s.trim, s.text),
  )}`;
}

function item(s: ArtSpec, back: boolean): string {
  switch (s.kind) {
    case 'jersey':
    case 'tee':
    case 'longsleeve':
    case 'polo':
    case 'hoodie':
    case 'jacket':
    case 'tank':
      return top(s, back);
    case 'pants':
    case 'shorts':
    case 'leggings':
      return bottoms(s, back);
    case 'cap':
      return cap(s, back);
    case 'beanie':
      return beanie(s);
    case 'scarf':
      return scarf(s);
    case 'socks':
      return socks(s);
    case 'gloves':
      return gloves(s, back);
    case 'ball':
      return ball(s, back);
    case 'helmet':
      return helmet(s, back);
    case 'bag':
      return bag(s, back);
    case 'bottle':
      return bottle(s, back);
  }
}

/** One view (1 front, 2 back/second angle, 3 crest detail) as a complete SVG document. */
export function renderArt(s: ArtSpec, view: number): string {
  let content: string;
  let background: string;
  if (view === 3) {
    background = `<defs><pattern id="weave" width="24" height="24" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="24" height="24" fill="${s.body}"/><path d="M0 0 L0 24" stroke="#fff" stroke-opacity="0.08" stroke-width="10"/></pattern></defs><rect width="${SIZE}" height="${SIZE}" fill="url(#weave)"/>`;
    content = `${crestMark(400, 360, 190, s)}${text(400, 700, s.wordmark, 64, ink(s.body, s.text), { width: Math.min(520, s.wordmark.length * 56), stroke: s.trim })}`;
  } else {
    const top = view === 2 ? '#dde3ea' : '#f6f7f9';
    const bottom = view === 2 ? '#c4ccd6' : '#e4e7ec';
    background = `<defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient></defs><rect width="${SIZE}" height="${SIZE}" fill="url(#bg)"/><ellipse cx="400" cy="735" rx="260" ry="26" fill="#000" opacity="0.10"/>`;
    content = item(s, view === 2);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${SIZE}" width="${SIZE}" height="${SIZE}" role="img">${background}${content}</svg>`;
}
