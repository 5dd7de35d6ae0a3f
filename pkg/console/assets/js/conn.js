// The page's one WebSocket: connect, reconnect a second after it drops,
// and hand every server message to the handlers of its type.

import { stateReader } from './patch.js';

const handlers = new Map(); // type -> [fn]
const statusFns = [];
const gapFns = [];
let ws = null;

/** BEAT_MS is how often the page's script tells the server it runs (console.BeatPeriod). */
export const BEAT_MS = 250;
/** GAP_MS: a beat this late means the page was frozen (its browser stopped, a debugger paused, the machine asleep); a hidden page's timers are slowed, and it holds nothing. */
export const GAP_MS = 2000;

/** onGap registers fn(ms) for when the page's own timers ran ms late: it was frozen. */
export function onGap(fn) { gapFns.push(fn); }

// The beat: a WebSocket pong comes from the browser's network process
// even when this page no longer runs, so the server judges the page by
// these messages of its script (console.MsgBeat); and a beat that comes
// late tells the page it was frozen, so that it lets go of what it held
// before (the operator's hands may have moved meanwhile).
let lastBeat = performance.now();

/** checkGap calls the onGap handlers when the beat's timer has not run for GAP_MS (the page was frozen); other timers call it before they act on held input, since after a freeze the browser runs late timers in any order. */
export function checkGap() {
  const now = performance.now();
  const late = now - lastBeat;
  if (late <= GAP_MS) return;
  lastBeat = now;
  freezes.push(Math.round(late));
  for (const fn of gapFns) fn(late);
}

setInterval(() => {
  checkGap();
  lastBeat = performance.now();
  sendBeat();
}, BEAT_MS);

// A hidden page's beat says so: its timers are slowed (once a second, or
// a minute), and the server then does not judge it by its beat.
function sendBeat() { if (ws && ws.readyState === 1) ws.send(document.hidden ? '{"type":"beat","hidden":true}' : '{"type":"beat"}'); }
document.addEventListener('visibilitychange', () => { lastBeat = performance.now(); sendBeat(); });

/** on registers fn for server messages of type ("hello", "state", ...). */
export function on(type, fn) {
  if (!handlers.has(type)) handlers.set(type, []);
  handlers.get(type).push(fn);
}

/** onStatus registers fn(open bool) for the socket's open and close. */
export function onStatus(fn) { statusFns.push(fn); }

// The WebRTC command channel (js/video.js), unordered and without
// retransmissions: a held command is re-sent every 100 ms anyway, and a
// lost one must not wait behind TCP's retransmissions. Commands that are
// not re-sent go on the WebSocket, which delivers them; an e-stop and a
// held command's return to zero go on both (the server's path is the same
// for both transports, and an e-stop or a zero twice is harmless).
let dc = null;
const HELD = new Set(['servosila_drive', 'servosila_joints', 'furbot_drive', 'jog_heartbeat']);
const isZero = (m) => Object.entries(m).every(([k, v]) => k === 'type' || k === 'seq' || (typeof v === 'number' ? v === 0 : Array.isArray(v) ? v.every((x) => x === 0) : typeof v !== 'object' || v === null || isZero(v)));

/** setChannel sets the open command channel (null: none). */
export function setChannel(c) { dc = c; }

/** channel reports the transport of held commands now: 'webrtc' or 'websocket'. */
export function channel() { return dc && dc.readyState === 'open' ? 'webrtc' : 'websocket'; }

// The longest time between two non-zero held commands this page sent
// [ms] (gaps over 2 s are a new hold): a page the browser starves sends
// late, and the server's deadman rightly stops the robot; tests read it
// to tell that from a transport that lost commands.
// A re-send later than SLOW_MS (half the deadman's 300 ms) is late: the
// bar shows LINK SLOW (bar.js renderLink).
const SLOW_MS = 150;
const gaps = { last: 0, max: 0, late: -Infinity };
let opens = 0; // sockets opened (tests wait for a reconnection)
const freezes = []; // how late the page's timers ran each time it found itself frozen [ms]
window.__conn = {
  maxHeldGap: () => gaps.max, resetHeldGap: () => { gaps.max = 0; gaps.last = 0; },
  lateAgo: () => performance.now() - gaps.late, // [ms] since this page last sent a held command late
  opens: () => opens, freezes: () => freezes.slice(),
};

// seq numbers the held commands across both transports: the command
// channel is unordered, and a zero goes on the socket too, so an older
// "drive" can arrive after the zero; the server drops a held command older
// than the newest it took of that type (console.messageType).
let seq = 0;

/** send sends message m (an object): held commands on the command channel when it is open, the rest on the socket if open; else drops it. */
export function send(m) {
  if (HELD.has(m.type)) m = { ...m, seq: ++seq };
  const b = JSON.stringify(m);
  if (HELD.has(m.type) && !isZero(m)) {
    const now = performance.now();
    if (gaps.last && now - gaps.last < 2000) {
      gaps.max = Math.max(gaps.max, now - gaps.last);
      if (now - gaps.last > SLOW_MS) gaps.late = now;
    }
    gaps.last = now;
  }
  const onDC = dc && dc.readyState === 'open' && (HELD.has(m.type) || m.type === 'estop');
  if (onDC) {
    try { dc.send(b); } catch { /* closing: the socket below */ }
    if (m.type !== 'estop' && !isZero(m)) return;
  }
  if (ws && ws.readyState === 1) ws.send(b);
}

/** connect opens the socket (again after every close). */
export function connect() {
  ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws?beat=1');
  const readState = stateReader(); // a new socket starts with a whole state
  ws.onmessage = (ev) => {
    let m;
    try { m = JSON.parse(ev.data); } catch { return; }
    m = readState(m);
    if (!m) return;
    for (const fn of handlers.get(m.type) || []) fn(m);
  };
  ws.onopen = () => {
    if (!performance.getEntriesByName('conn:open').length) performance.mark('conn:open');
    opens++;
    sendBeat();
    for (const fn of statusFns) fn(true);
  };
  ws.onclose = () => {
    for (const fn of statusFns) fn(false);
    setTimeout(connect, 1000);
  };
}
