// The operator's hands: held keys (several at once; a key-up stops that
// axis at once) and the press-and-hold thumb stick (pointer events, one
// finger owns it until it lifts). The gamepad is in gamepad.js.
import { held } from './core.js';
import { deadzone } from './util.js';

/** STICK_DEADZONE is the thumb stick's centre band (fraction of its radius). */
export const STICK_DEADZONE = 0.15;

function typing(e) {
  const t = e.target;
  return t && ((t.tagName === 'INPUT' && t.type !== 'checkbox' && t.type !== 'range') || t.tagName === 'SELECT');
}

/**
 * initKeyboard tracks the held keys for which known(k) is true, calls
 * changed() when the set changes and estop() on Space (from any view,
 * also while typing).
 */
export function initKeyboard(known, changed, estop) {
  document.addEventListener('keydown', (e) => {
    const k = e.key.toLowerCase();
    if (k === ' ' || e.code === 'Space') { e.preventDefault(); estop(); return; }
    if (typing(e) || e.ctrlKey || e.metaKey || e.altKey) return;
    if (known(k)) {
      e.preventDefault();
      // When the page saw the last new press (wall clock [ms]): diagnostics
      // and the latency measurement of the tests.
      // An auto-repeat is not a press: a key held across a freeze or a
      // lost connection must be pressed afresh to move again.
      if (!held.keys.has(k) && !e.repeat) { document.body.dataset.keydown = String(Date.now()); held.keys.add(k); changed(); }
    }
  });
  document.addEventListener('keyup', (e) => {
    const k = e.key.toLowerCase();
    // When the page saw the last release (wall clock [ms]), for diagnostics
    // and the browser tests' stop-time measurement.
    document.body.dataset.keyup = String(Date.now());
    if (held.keys.delete(k)) changed();
  });
}

const sticks = [];

/**
 * makeStick turns area (a round element, touch-action none) with knob
 * inside into a press-and-hold thumb stick: while pressed, held.stick is
 * the deflection {x, y} (x right, y up, within the unit circle, centre
 * band removed); on release it is null. The first pointer owns the stick:
 * a second finger, on the stick or anywhere else, does not move it, and
 * only the owner's lift or cancel releases it. moved() is called when
 * the stick is pressed and when it is released (the command then goes at
 * once); what it does in between goes at the page's cadence (RESEND_MS),
 * however fast the finger moves.
 */
export function makeStick(area, knob, moved) {
  let owner = null; // pointerId
  const place = (x, y) => { knob.style.left = 50 + x * 50 + '%'; knob.style.top = 50 - y * 50 + '%'; };
  const move = (e) => {
    const r = area.getBoundingClientRect();
    let x = ((e.clientX - r.left) / r.width) * 2 - 1, y = 1 - ((e.clientY - r.top) / r.height) * 2;
    const n = Math.hypot(x, y);
    if (n > 1) { x /= n; y /= n; }
    place(x, y);
    // Direction kept, magnitude without the centre band, rescaled.
    const m = Math.min(1, n), d = deadzone(m, STICK_DEADZONE);
    held.stick = d > 0 ? { x: (x / m) * d, y: (y / m) * d } : { x: 0, y: 0 };
  };
  const end = (e) => {
    if (e && e.pointerId !== owner) return;
    owner = null;
    area.classList.remove('active');
    place(0, 0);
    held.stick = null;
    moved();
  };
  area.addEventListener('pointerdown', (e) => {
    e.preventDefault();
    if (owner !== null) return; // another finger owns the stick
    owner = e.pointerId;
    try { area.setPointerCapture(e.pointerId); } catch { /* a synthetic pointer cannot be captured */ }
    area.classList.add('active');
    move(e);
    moved();
  });
  area.addEventListener('pointermove', (e) => { if (e.pointerId === owner) move(e); });
  area.addEventListener('pointerup', end);
  area.addEventListener('pointercancel', end);
  area.addEventListener('lostpointercapture', end);
  const s = { reset: () => { if (owner !== null) { owner = null; area.classList.remove('active'); } place(0, 0); } };
  sticks.push(s);
  place(0, 0);
  return s;
}

/** resetSticks centres every stick and forgets its finger (held.stick is cleared by the caller). */
export function resetSticks() { for (const s of sticks) s.reset(); }
