// The page's shared state: what the server said (hello, state), which
// view shows, and what the operator holds (keys, thumb stick, gamepad).
// Panels read it; app.js writes it.
import { $ } from './util.js';

/** RESEND_MS is the page's command cadence [ms]: a held command is re-sent this often (the server's deadman needs it). */
export const RESEND_MS = 100;

export const ctx = {
  info: null, // hello's info: machines, limits, cameras
  st: null, // the last state message
  me: 0, // this page's id (0: not connected)
  control: false, // this page holds the lease
  who: { operator: '', roles: '' },
  tab: 'drive', // the view that shows
  driveMachine: '', // the machine the drive screen shows
};

/**
 * held is what the operator holds now: keys (lower case), the thumb stick
 * {x, y} in [-1, 1] (x right, y up; null when not pressed) and the pad
 * (gamepad.js: {machine, deadman, values}; null without one); other
 * names a connected pad that is not in the standard mapping (ignored).
 */
export const held = { keys: new Set(), stick: null, pad: null, other: '' };

/**
 * target is the machine the keyboard, the thumb stick and the pad address:
 * the drive screen's machine, the Furbot on its panel, nothing on the jog
 * panel, else the Servosila.
 */
export function target() {
  if (ctx.tab === 'drive') return ctx.driveMachine;
  if (ctx.tab === 'furbot') return 'furbot';
  if (ctx.tab === 'jog') return '';
  return 'servosila';
}

let errTimer = 0;
/** showError shows t under the bar for 4 s. */
export function showError(t) {
  $('msg').textContent = t;
  clearTimeout(errTimer);
  errTimer = setTimeout(() => { $('msg').textContent = ''; }, 4000);
}
