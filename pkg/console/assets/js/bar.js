// The top bar, on every view: the connection, the page's role, Take /
// Release control, the e-stop state, Release e-stop (two steps: the
// server asks back) and the E-STOP, which stays in the viewport at every
// width from 320 px.
import { $, setPill } from './util.js';
import { ctx } from './core.js';
import { send, on, onStatus } from './conn.js';

let confirmNonce = '', confirmTimer = 0;

function endConfirm() { confirmNonce = ''; $('releaseconfirm').classList.add('hidden'); }

function askRelease(nonce, ms) {
  confirmNonce = nonce;
  $('releaseconfirm').classList.remove('hidden');
  clearTimeout(confirmTimer);
  confirmTimer = setTimeout(endConfirm, ms || 10000);
}

/** renderRole shows whether this page controls, and what it may do. */
export function renderRole() {
  const r = $('role');
  if (!ctx.me) { r.textContent = 'offline'; r.className = 'pill'; return; }
  r.textContent = ctx.control ? 'IN CONTROL' : (ctx.st && ctx.st.holder ? 'VIEW ONLY: another page controls' : 'VIEW ONLY: nobody controls');
  r.className = 'pill ' + (ctx.control ? 'control' : 'view');
  r.title = ctx.who.operator ? 'operator ' + ctx.who.operator + ', roles ' + ctx.who.roles : '';
  const moves = /drive|arm|admin/.test(ctx.who.roles);
  $('take').classList.toggle('hidden', ctx.control || !moves);
  $('leave').classList.toggle('hidden', !ctx.control);
  $('release').disabled = !ctx.control || !/drive|admin/.test(ctx.who.roles);
  if (!ctx.control) endConfirm();
  document.body.classList.toggle('view', !ctx.control);
}

let linkOpen = false;

/**
 * renderLink shows the command link in the bar's link pill: LINK SLOW
 * while held commands arrive late at the console (st.link, measured by
 * the server: a re-send later than slow_ms, half the deadman's timeout,
 * or one that expired, within the last 2 s) or this page's own re-sends
 * were late (its timer starved): before the deadman stops the robot, the
 * operator sees why it may stutter.
 */
export function renderLink(st) {
  if (!linkOpen) return;
  const l = st.link || {}, own = window.__conn.lateAgo();
  const slow = !!l.slow || own < 2000;
  if (slow) {
    setPill($('link'), 'LINK SLOW', 'warn');
    $('link').title = 'commands arrive late: the last late one after ' + Math.round(l.late_gap_ms || 0) + ' ms (late over ' + Math.round(l.slow_ms || 0) +
      ' ms, ' + (l.late || 0) + ' so far); the robot stops when one is ' + (2 * (l.slow_ms || 0)) + ' ms late';
  } else {
    setPill($('link'), 'connected', 'ok');
    $('link').title = '';
  }
  document.body.classList.toggle('linkslow', slow);
}

/** renderEStop shows the e-stop latch of any machine. */
export function renderEStop(st) {
  const s = st.snap.servosila, f = st.snap.furbot;
  const es = (s && s.estopped) || (f && f.estopped);
  const e = $('estate');
  e.textContent = es ? 'E-STOP LATCHED' : 'e-stop: clear';
  e.className = 'pill ' + (es ? 'latched' : 'ok');
  $('banner').classList.toggle('hidden', !es);
  // Release e-stop shows only while there is one to release (a narrow
  // bar keeps its room for the E-STOP).
  $('release').classList.toggle('hidden', !es);
  document.body.classList.toggle('estopped', !!es);
}

/**
 * initBar wires the bar: estop() latches the e-stop and forgets what is
 * held, stopHeld() stops what this page drives (before it lets go of
 * control or after losing it).
 */
export function initBar(estop, stopHeld) {
  // The E-STOP acts on the press, not on the click: a finger on it while
  // another holds the thumb stick is a two-finger gesture, for which the
  // browser may make no click at all. Keyboard activation still clicks.
  let pressed = 0;
  $('estop').addEventListener('pointerdown', (e) => { e.preventDefault(); pressed = Date.now(); estop(); });
  $('estop').addEventListener('click', () => { if (Date.now() - pressed > 1000) estop(); });
  // Releasing the e-stop takes two steps: the server asks back, this page
  // confirms with the server's nonce (the machines may move again).
  $('release').addEventListener('click', () => send({ type: 'release' }));
  $('releaseconfirm').addEventListener('click', () => {
    if (confirmNonce) send({ type: 'release_confirm', nonce: confirmNonce });
    endConfirm();
  });
  on('confirm_release', (m) => askRelease(m.nonce, m.timeout_ms));
  // Another page took control: say so until dismissed.
  on('lost_control', (m) => {
    stopHeld();
    endConfirm();
    const n = $('notice');
    n.textContent = 'You lost control: ' + (m.operator || 'another operator') + ' (page ' + m.page + ') took it over.' +
      (m.estop_latched ? ' The e-stop stays latched.' : '');
    n.classList.remove('hidden');
  });
  $('notice').addEventListener('click', () => $('notice').classList.add('hidden'));
  $('take').addEventListener('click', () => send({ type: 'take_control' }));
  $('leave').addEventListener('click', () => { stopHeld(); send({ type: 'release_control' }); });
  onStatus((open) => {
    linkOpen = open;
    if (open) setPill($('link'), 'connected', 'ok');
    else { setPill($('link'), 'disconnected: reconnecting', 'bad'); ctx.me = 0; ctx.control = false; renderRole(); }
  });
}
