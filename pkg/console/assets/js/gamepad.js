// The gamepad, through the browser's Gamepad API (standard mapping only).
// Motion only while LB or RB (buttons 4, 5) is held: the deadman. Each
// machine registers its actions and default mapping (registerPad); the
// operator's own mapping is kept per browser (localStorage). The pad is
// read every POLL_MS; what it commands is sent with the page's other held
// commands at the page's cadence (core.RESEND_MS), except its start
// (deadman pressed) and its stop (deadman released, pad gone), which go at
// once.
import { held, target } from './core.js';
import { deadzone, clamp } from './util.js';

/** PAD_DEADZONE is the sticks' and triggers' centre band (removed, the rest rescaled). */
export const PAD_DEADZONE = 0.15;
/** POLL_MS is how often the pad is read [ms] (the Gamepad API has no events for its values). */
export const POLL_MS = 20;
/** DEADMAN are the buttons of which one must be held for any motion (LB, RB). */
export const DEADMAN = [4, 5];
/** ESTOP_BUTTON (Back / View) latches the e-stop like Space. */
export const ESTOP_BUTTON = 8;
/** BUTTONS names the standard mapping's buttons. */
export const BUTTONS = ['A', 'B', 'X', 'Y', 'LB', 'RB', 'LT', 'RT', 'Back', 'Start', 'LS', 'RS', 'Up', 'Down', 'Left', 'Right', 'Home'];

const specs = {}; // machine -> {actions: [{name, label}], defaults: {name: expr}}
const key = (m) => 'telebridge.pad.' + m;

/**
 * registerPad declares machine's pad actions ([{name, label}]) and their
 * default sources: an expression of terms "a<i>" (axis i) and "b<i>"
 * (button i, analog for the triggers), each with a sign: "-a1",
 * "b7-b6".
 */
export function registerPad(machine, actions, defaults) { specs[machine] = { actions, defaults }; }

/** padSpec returns machine's actions and defaults, or undefined. */
export function padSpec(machine) { return specs[machine]; }

/** parseExpr parses a source expression into terms, or null if invalid. */
export function parseExpr(s) {
  const t = String(s).replace(/\s+/g, '');
  if (t === '' || t === '0') return [];
  if (!/^([+-]?[ab]\d{1,2})+$/.test(t)) return null;
  return [...t.matchAll(/([+-]?)([ab])(\d{1,2})/g)].map((m) => ({ sign: m[1] === '-' ? -1 : 1, kind: m[2], i: +m[3] }));
}

/** mapping returns machine's mapping: the operator's saved one over the defaults. */
export function mapping(machine) {
  const d = specs[machine] ? specs[machine].defaults : {};
  let saved = {};
  try { saved = JSON.parse(localStorage.getItem(key(machine)) || '{}') || {}; } catch { saved = {}; }
  const m = { ...d };
  for (const [k, v] of Object.entries(saved)) if (k in d && parseExpr(v) !== null) m[k] = v;
  return m;
}

/** saveMapping keeps machine's mapping m in this browser; it returns the invalid action names (nothing saved then). */
export function saveMapping(machine, m) {
  const bad = Object.entries(m).filter(([, v]) => parseExpr(v) === null).map(([k]) => k);
  if (!bad.length) localStorage.setItem(key(machine), JSON.stringify(m));
  return bad;
}

/** resetMapping forgets the operator's mapping of machine. */
export function resetMapping(machine) { localStorage.removeItem(key(machine)); }

function value(terms, axes, buttons) {
  let v = 0;
  for (const t of terms) {
    if (t.kind === 'a') v += t.sign * deadzone(axes[t.i] || 0, PAD_DEADZONE);
    else { const b = buttons[t.i]; v += t.sign * (b ? deadzone(b.value || (b.pressed ? 1 : 0), PAD_DEADZONE) : 0); }
  }
  return clamp(v, 1);
}

let padIndex = -1; // the pad in use (Gamepad.index), -1: none
let armed = false; // the deadman was seen released since the pad came
let moving = false; // the pad commanded motion at the last poll
let estopWas = false;
let cbs = { moved: () => {}, stopped: () => {}, estop: () => {}, polled: () => {} };

function standardPads() {
  const all = navigator.getGamepads ? [...navigator.getGamepads()] : [];
  return all.filter((g) => g && g.connected !== false);
}

function lose() {
  const was = held.pad !== null && moving;
  padIndex = -1; armed = false; moving = false; held.pad = null;
  if (was) cbs.stopped(); else cbs.polled();
}

function poll() {
  const pads = standardPads();
  let g = pads.find((p) => p.index === padIndex);
  if (!g) {
    if (padIndex !== -1) { lose(); return; } // the pad in use is gone: stop what it drove
    g = pads.find((p) => p.mapping === 'standard');
    if (!g) { if (held.pad) lose(); held.other = pads.length ? pads[0].id : ''; cbs.polled(); return; }
    padIndex = g.index; armed = false; moving = false; held.other = '';
  }
  const buttons = g.buttons || [], axes = g.axes || [];
  const pressed = (i) => !!(buttons[i] && (buttons[i].pressed || buttons[i].value > 0.5));
  const dm = DEADMAN.some(pressed);
  if (!dm) armed = true; // a pad that arrives with the deadman held moves nothing until it is released once
  const es = pressed(ESTOP_BUTTON);
  if (es && !estopWas) cbs.estop();
  estopWas = es;
  const machine = target();
  const spec = specs[machine];
  const values = {};
  if (spec) {
    const m = mapping(machine);
    for (const a of spec.actions) values[a.name] = dm && armed ? value(parseExpr(m[a.name]) || [], axes, buttons) : 0;
  }
  // raw: the standard mapping's axes and button values, for the joystick on ROS (joy.js).
  const raw = { axes: axes.slice(0, 4).map((a) => +a || 0), buttons: BUTTONS.map((_, i) => (buttons[i] ? +(buttons[i].value || (buttons[i].pressed ? 1 : 0)) : 0)) };
  held.pad = { id: g.id, index: g.index, machine, deadman: dm, armed, values, axes: axes.slice(0, 4), pressed: BUTTONS.filter((_, i) => pressed(i)), raw };
  const now = Object.values(values).some((v) => v !== 0);
  const started = now && !moving, stopped = !now && moving;
  moving = now;
  if (stopped) cbs.stopped(); else if (started) cbs.moved(); else cbs.polled();
}

/**
 * readPad reads the pad now. The page's re-send reads it first: on a
 * starved page the 20 ms poll and the 100 ms re-send both run late, in
 * either order, and a re-send must never carry the pad as it was before
 * its deadman was released.
 */
export function readPad() { if (cbs.polled) poll(); }

/** padMoving reports whether the pad commands motion (deadman held, a value off centre). */
export function padMoving() { return moving; }

/**
 * initGamepad starts reading the pad. moved() is called when the pad
 * starts commanding motion, stopped() when it stops (deadman released,
 * sticks centred, pad disconnected), estop() on the e-stop button,
 * polled() after every other read (for the display).
 */
export function initGamepad(callbacks) {
  cbs = { ...cbs, ...callbacks };
  window.addEventListener('gamepaddisconnected', (e) => { if (e.gamepad && e.gamepad.index === padIndex) lose(); });
  setInterval(poll, POLL_MS);
}

/** forgetPad drops the pad's hold (the page is hidden or e-stopped): the deadman must be released and pressed again. */
export function forgetPad() { armed = false; moving = false; if (held.pad) { held.pad.armed = false; for (const k of Object.keys(held.pad.values)) held.pad.values[k] = 0; } }
