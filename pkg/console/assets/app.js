// telebridge operator console: the page's entry module. One WebSocket
// (js/conn.js); the server is the deadman: held commands are re-sent every
// RESEND_MS and expire on the server when they stop coming. Leaving the
// page, hiding it or blurring the window stops everything this page
// drives.
//
// A view is a module with {id, label, html (its section's markup),
// available(info), build(), render(st), and optionally flush(periodic),
// release(), stop(), visible(on)}; a machine's panel also has
// {machine: true, knownKey(k), keyHelp, hud(st)}
// and registers its gamepad actions (js/gamepad.js). Adding a machine is
// its panel module, its Go panel, and one line in each registry (here and
// in panel.go).
import { $, el } from './js/util.js';
import { ctx, held, showError, RESEND_MS } from './js/core.js';
import { connect, send, on, onGap, onStatus, checkGap } from './js/conn.js';
import { initKeyboard, resetSticks } from './js/input.js';
import { initGamepad, forgetPad, readPad } from './js/gamepad.js';
import { flushJoy } from './js/joy.js';
import { initBar, renderRole, renderEStop, renderLink } from './js/bar.js';
import drive from './js/drive.js';
import servosila from './panels/servosila.js';
import schematic from './panels/schematic.js';
import furbot from './panels/furbot.js';
import jog from './panels/jog.js';
import cameras from './panels/cameras.js';

// The panels, in tab order: one registration line each.
const panels = [servosila, schematic, furbot, jog, cameras];
const views = [drive, ...panels];
const machines = () => panels.filter((p) => p.machine && ctx.info && p.available(ctx.info));

function flush(periodic) {
  if (!ctx.info) return;
  if (periodic) checkGap(); // frozen: let go first (stopHeld), then send
  for (const p of panels) if (p.flush && p.available(ctx.info)) p.flush(periodic);
  flushJoy(periodic);
  drive.showInput();
}
// The pad is read before each re-send (gamepad.js readPad): never a stale value.
setInterval(() => { readPad(); flush(true); }, RESEND_MS);

// releaseHeld lets go of every key, stick and hold button (another view
// is shown): those axes go to zero; accepted slider velocities and
// position targets go on.
function releaseHeld() {
  held.keys.clear(); held.stick = null; resetSticks(); forgetPad();
  for (const p of panels) if (p.release) p.release();
  flush(false);
}

// stopHeld forgets everything held and tells the server to stop what this
// page drives, position targets included (the page is hidden or left).
function stopHeld() {
  held.keys.clear(); held.stick = null; resetSticks(); forgetPad();
  for (const p of panels) { if (p.release) p.release(); if (p.stop) p.stop(); }
  send({ type: 'stop' });
  flush(false);
}
document.addEventListener('visibilitychange', () => {
  if (document.hidden) stopHeld();
  // Nobody watches a hidden page: its camera streams stop until it shows.
  for (const v of views) if (v.visible && ctx.info) v.visible(!document.hidden && v.id === ctx.tab);
});
window.addEventListener('blur', stopHeld);
window.addEventListener('pagehide', stopHeld);

function estop() {
  send({ type: 'estop' });
  // Held keys do not come back after a release: they must be pressed
  // again, and the pad's deadman released and pressed again.
  held.keys.clear(); held.stick = null; resetSticks(); forgetPad();
  for (const p of panels) { if (p.release) p.release(); if (p.stop) p.stop(); }
  flush(false);
}

// A page that was frozen, or whose socket closed, lets go of what it
// held: after it comes back (and maybe takes the lease again), motion
// needs a fresh press, never the input held before.
onGap(stopHeld);
onStatus((open) => { if (!open) { held.keys.clear(); held.stick = null; resetSticks(); forgetPad(); } });

initBar(estop, stopHeld);
initKeyboard((k) => panels.some((p) => p.knownKey && p.knownKey(k)), () => flush(false), estop);
initGamepad({ moved: () => flush(false), stopped: () => flush(false), estop, polled: () => drive.showInput() });

// ---- views (tabs) ----
// Each view brings its markup: its tab and its section are made here.
for (const v of views) {
  $('tabs').append(el('button', { 'data-tab': v.id, class: v.id === ctx.tab ? 'on' : '' }, v.label));
  const sec = el('section', { id: 'p-' + v.id, class: 'panel' + (v.id === ctx.tab ? ' on' : '') });
  sec.innerHTML = v.html;
  document.querySelector('main').append(sec);
}

function selectTab(t) {
  if (t !== ctx.tab) releaseHeld();
  ctx.tab = t;
  for (const b of document.querySelectorAll('#tabs button')) b.classList.toggle('on', b.dataset.tab === t);
  for (const p of document.querySelectorAll('.panel')) p.classList.toggle('on', p.id === 'p-' + t);
  for (const v of views) if (v.visible) v.visible(v.id === t);
  if (ctx.st) render();
}
for (const b of document.querySelectorAll('#tabs button')) b.addEventListener('click', () => selectTab(b.dataset.tab));

// ---- server messages ----
let built = false;
on('hello', (m) => {
  // A new socket is a new page to the server: nothing held carries over.
  held.keys.clear(); held.stick = null; resetSticks(); forgetPad();
  ctx.me = m.page; ctx.info = m.info; ctx.who = { operator: m.operator || '', roles: m.roles || '' };
  // A loopback console without tokens has no sessions: nothing to log out of.
  document.getElementById('logout').classList.toggle('hidden', !ctx.who.operator || ctx.who.operator === 'local');
  if (built) return;
  built = true;
  for (const v of views) {
    const ok = v.available(ctx.info);
    for (const b of document.querySelectorAll(`#tabs [data-tab="${v.id}"]`)) b.classList.toggle('hidden', !ok);
    if (ok && v !== drive) v.build(() => flush(false));
  }
  drive.build(machines(), releaseHeld, () => flush(false));
  selectTab(ctx.tab);
});
on('state', (m) => { ctx.st = m; render(); });
on('error', (m) => showError(m.error));

function render() {
  const st = ctx.st;
  ctx.control = st.holder === ctx.me && ctx.me !== 0;
  renderRole();
  renderEStop(st);
  renderLink(st);
  if (st.error) showError(st.error);
  for (const v of views) if (v.available(ctx.info) && (v === drive ? ctx.tab === 'drive' : true)) v.render(st);
}

connect();
