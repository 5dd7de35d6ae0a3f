// Small helpers shared by every module of the console page.

/** $ returns the element with id. */
export const $ = (id) => document.getElementById(id);

/** el makes an element: attributes (on* become listeners), then children. */
export const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v; else if (k.startsWith('on')) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
};

/** fmt formats a number with d decimals, '–' for anything else. */
export const fmt = (v, d = 3) => (typeof v === 'number' && isFinite(v) ? v.toFixed(d) : '–');

/** deg converts [rad] to [°]. */
export const deg = (r) => (r * 180) / Math.PI;

/** clamp bounds v to [-m, m]. */
export const clamp = (v, m) => Math.max(-m, Math.min(m, v));

/** kv renders an object as the page's key/value grid. */
export const kv = (o) => Object.entries(o).map(([k, v]) => `<div><span>${k}</span>${v}</div>`).join('');

/** setPill sets a status pill's text and class. */
export function setPill(e, text, cls) { e.textContent = text; e.className = 'pill ' + (cls || ''); }

/**
 * deadzone removes the centre band dz of a stick or trigger value in
 * [-1, 1] and rescales the rest to [-1, 1] (no jump at the edge).
 */
export function deadzone(v, dz) {
  const a = Math.abs(v);
  if (!(a > dz)) return 0;
  return Math.sign(v) * Math.min(1, (a - dz) / (1 - dz));
}

/**
 * holdButton calls down on press and up on release, however the press
 * ends (release, leaving the button, touch cancelled).
 */
export function holdButton(b, down, up) {
  let held = false;
  const start = (e) => { e.preventDefault(); if (held) return; held = true; b.classList.add('active'); down(); };
  const end = () => { if (!held) return; held = false; b.classList.remove('active'); up(); };
  b.addEventListener('pointerdown', start);
  b.addEventListener('pointerup', end);
  b.addEventListener('pointerleave', end);
  b.addEventListener('pointercancel', end);
}
