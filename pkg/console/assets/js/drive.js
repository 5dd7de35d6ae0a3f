// The drive screen, the default view, one per machine: the chosen camera
// large with the state overlaid (speed, heading, link quality and age,
// e-stop, the arm pose, what the operator holds), the other cameras as
// thumbnails (click to swap: the same stream, see cameraSet), a
// press-and-hold thumb stick, the pad's state and its mapping. Keys, the
// stick and the pad address the machine chosen here.
import { $, el, fmt } from './util.js';
import { ctx, held, showError } from './core.js';
import { load3d } from './pose3d.js';
import { settled } from './video.js';
import { makeStick } from './input.js';
import { BUTTONS, DEADMAN, padSpec, mapping, saveMapping, resetMapping, parseExpr } from './gamepad.js';
import { cameraSet, caption } from '../panels/cameras.js';
import { drawSide } from '../panels/schematic.js';

const STORE = 'telebridge.drive.machine';
let machines = []; // the machine panels (servosila.js, furbot.js, ...)
let cams = null;
let onSwitch = () => {};
let pose = null; // a pose view that replaces the side view: {update(st)}, see setPoseView
let loading3d = false;

/** current returns the drive screen's machine panel. */
function current() { return machines.find((m) => m.id === ctx.driveMachine); }

/**
 * setPoseView replaces the arm pose's 2-D side view by view (e.g. the 3-D
 * robot): view.mount(element) once, view.update(st) on every state.
 */
export function setPoseView(view) {
  pose = view;
  const d = $('dpose');
  d.innerHTML = '';
  d.classList.add('three');
  view.mount(d);
  performance.mark('drive:3d-mounted');
  if (ctx.st) render(ctx.st);
}

function choose(id) {
  if (id === ctx.driveMachine) return;
  onSwitch(); // let go of what is held: it was meant for the other machine
  ctx.driveMachine = id;
  try { localStorage.setItem(STORE, id); } catch { /* private mode */ }
  for (const b of document.querySelectorAll('#dmachines button')) b.classList.toggle('on', b.dataset.machine === id);
  const m = current();
  $('dkeyhelp').textContent = m ? 'hold ' + m.keyHelp + ' · Space e-stop' : '';
  $('p-drive').dataset.machine = id;
  buildMapping();
  if (ctx.st) render(ctx.st);
}

/**
 * build makes the drive screen for the machine panels ms (those the
 * server has). released() lets go of every held input (machine switch);
 * changed() is called when the thumb stick is pressed or released.
 */
function build(ms, released, changed) {
  machines = ms;
  onSwitch = released;
  const seg = $('dmachines');
  for (const m of ms) {
    const b = el('button', { 'data-machine': m.id }, m.label);
    b.addEventListener('click', () => choose(m.id));
    seg.append(b);
  }
  cams = cameraSet($('dcams'), 'dcam-', 'dcapt-', () => { if (ctx.st) render(ctx.st); });
  $('dcams').style.setProperty('--thumbs', String(Math.max(1, Math.min(4, cams.names.length - 1))));
  $('dcams').classList.toggle('nocam', !cams.names.length);
  makeStick($('dstick'), $('dknob'), changed);
  $('padsave').addEventListener('click', () => {
    const m = {};
    for (const i of document.querySelectorAll('#padmap input')) m[i.dataset.action] = i.value;
    const bad = saveMapping(ctx.driveMachine, m);
    $('padmapmsg').textContent = bad.length ? 'not saved: ' + bad.join(', ') + ' (terms like -a1, b7-b6)' : 'saved in this browser';
  });
  $('padreset').addEventListener('click', () => { resetMapping(ctx.driveMachine); buildMapping(); $('padmapmsg').textContent = 'defaults restored'; });
  let id = '';
  try { id = localStorage.getItem(STORE) || ''; } catch { id = ''; }
  choose(ms.some((m) => m.id === id) ? id : ms.length ? ms[0].id : '');
}

function buildMapping() {
  const t = $('padmap');
  t.innerHTML = '';
  const spec = padSpec(ctx.driveMachine);
  if (!spec) return;
  const m = mapping(ctx.driveMachine);
  for (const a of spec.actions) {
    const i = el('input', { type: 'text', value: m[a.name], 'data-action': a.name, id: 'pm-' + a.name, spellcheck: 'false', size: '8' });
    i.addEventListener('input', () => i.classList.toggle('bad', parseExpr(i.value) === null));
    t.append(el('label', {}, el('span', {}, a.label), i));
  }
}

/** visible starts the drive screen's camera streams while it shows, and stops them when it does not. */
function visible(on) { if (cams) cams.show(on); }

function render(st) {
  const m = current();
  const h = m && m.hud ? m.hud(st) : null;
  text('hud-speed', h ? h.speed : '');
  text('hud-heading', h ? 'heading ' + h.heading : '');
  const l = $('hud-link');
  text(l.id, h ? h.linkText : 'no machine');
  cls(l.id, 'hudbox ' + (h ? h.link : 'lost'));
  $('hud-estop').classList.toggle('hidden', !(h && h.estopped));
  const bal = $('hud-balance');
  text(bal.id, h && h.balance ? h.balance.text : '');
  cls(bal.id, 'hudbox' + (h && h.balance && h.balance.warn ? ' lost' : ''));
  const s = st.snap.servosila;
  const d = $('dpose');
  d.classList.toggle('hidden', !(m && m.id === 'servosila' && s));
  if (m && m.id === 'servosila' && s) {
    if (pose) pose.update(st); else drawSide($('dside'), s, false);
    // The 3-D robot replaces the side view once it is loaded (WebGL and
    // the robot's description permitting), the first time it is needed.
    if (!loading3d) {
      // After the first picture (video.settled): on a phone, loading it
      // delayed the first picture by seconds.
      loading3d = true;
      settled.then(() => { performance.mark('drive:3d-load'); return load3d(showError); })
        .then((v) => { if (v) setPoseView(v); }).catch((e) => console.warn('3-D view:', e));
    }
  }
  if (cams) {
    const name = cams.names[cams.selected()];
    const c = (st.snap.cameras || []).find((x) => x.name === name);
    text('hud-cam', c ? caption(c) : name || 'no camera');
  }
  showInput();
}

// text and cls change an element only when its text or class differs:
// the pad is read 50 times a second, and an unchanged write still costs
// the browser a layout.
function text(id, t) { const e = $(id); if (e.textContent !== t) e.textContent = t; }
function cls(id, c) { const e = $(id); if (e.className !== c) e.className = c; }

const ax = (v) => (v >= 0 ? '+' : '') + fmt(v, 2);

/** showInput shows what the operator holds: keys, the stick, the pad. */
function showInput() {
  if (ctx.tab !== 'drive' || !ctx.info) return;
  const parts = [];
  if (held.keys.size) parts.push('keys ' + [...held.keys].map((k) => k.replace('arrow', '').toUpperCase()).join(' '));
  if (held.stick) parts.push(`stick ${ax(held.stick.x)} ${ax(held.stick.y)}`);
  const p = held.pad;
  let pad = 'no pad (press a button on it)';
  if (p) {
    const dm = p.deadman ? (p.armed ? 'deadman held' : 'deadman: release and press again') : 'deadman (LB/RB) released';
    const vals = Object.entries(p.values).filter(([, v]) => v !== 0).map(([k, v]) => `${k} ${ax(v)}`);
    pad = `pad: ${dm}` + (vals.length ? ' · ' + vals.join(' · ') : '');
    parts.push(`pad ${p.deadman && p.armed ? '●' : '○'}` + (vals.length ? ' ' + vals.join(' ') : ''));
    text('padraw', `${p.id.slice(0, 40)} · axes ${p.axes.map((v) => fmt(v, 2)).join(' ')} · buttons ${p.pressed.join(' ') || 'none'}`);
  } else {
    text('padraw', held.other ? `"${held.other.slice(0, 40)}" is not in the standard mapping: not used` : `deadman: hold ${DEADMAN.map((i) => BUTTONS[i]).join(' or ')}`);
  }
  text('padstate', pad);
  cls('padstate', p && p.deadman && p.armed ? 'on' : '');
  text('hud-input', parts.length ? parts.join(' · ') : 'nothing held');
  cls('hud-input', parts.length ? 'hudbox' : 'hudbox idle');
}

// The view's markup (app.js puts it in its <section> and adds its tab).
const html = `
  <div class="drive">
    <div class="dmain">
      <div class="dhead"><span id="dmachines" class="seg"></span><small id="dkeyhelp"></small></div>
      <div id="dcams" class="dcams">
        <div class="hud" aria-live="off">
          <div class="hudtl"><b id="hud-speed" class="hudbox"></b><span id="hud-heading" class="hudbox"></span><span id="hud-balance" class="hudbox"></span></div>
          <div class="hudtr"><span id="hud-link" class="hudbox"></span><span id="hud-cam" class="hudbox dim"></span></div>
          <div id="hud-estop" class="hudestop hidden">E-STOP LATCHED</div>
          <div class="hudbl"><span id="hud-input" class="hudbox"></span></div>
          <!-- The arm pose: the 2-D side view until the 3-D robot (pose3d.js) takes its place. -->
          <div id="dpose" class="dpose hidden" data-hook="robot3d"><svg id="dside" viewBox="-100 -150 360 175"></svg></div>
        </div>
      </div>
    </div>
    <div class="dsidecol">
      <div class="stickwrap"><div id="dstick" class="pad stick" title="press and hold: drive"><div id="dknob" class="knob"></div></div><small>press and hold to drive</small></div>
      <div class="card padcard">
        <h2>Gamepad</h2>
        <div id="padstate"></div>
        <div id="padraw" class="dim"></div>
        <details>
          <summary>mapping (this browser)</summary>
          <div id="padmap" class="padmap"></div>
          <div class="row"><button id="padsave">Save</button><button id="padreset">Defaults</button><small id="padmapmsg"></small></div>
          <small class="dim">a<i>n</i>: axis n, b<i>n</i>: button n (standard mapping), each with its sign: <code>-a1</code>, <code>b7-b6</code>. LB or RB held: motion; Back: e-stop.</small>
        </details>
      </div>
    </div>
  </div>
`;

export default {
  id: 'drive', html, label: 'Drive',
  available: () => true,
  build, render, visible, showInput,
};
