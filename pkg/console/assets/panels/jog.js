// The jog arm panel (the drag&bot control panel): press-and-hold jogs per
// joint and Cartesian axis, joint and pose goals, step buttons, the speed
// override. The heartbeat runs only while a button is held.
import { $, el, fmt, kv, holdButton } from '../js/util.js';
import { ctx } from '../js/core.js';
import { send } from '../js/conn.js';

let jogHeld = false;
let jogMsg = null; // builds the held jog request
let jogSentAt = 0;

function jogSpeed() { return +$('jspeed').value; }

// stepTarget is the multiple of step [rad or m] next to q in direction
// dir (±1), within [lo, hi]. A joint a hair off a multiple (the arm stops
// within its goal tolerance) counts as on it.
function stepTarget(q, step, dir, lo, hi) {
  const k = q / step, slack = 0.05;
  const n = dir > 0 ? Math.floor(k + slack) + 1 : Math.ceil(k - slack) - 1;
  return Math.min(hi, Math.max(lo, n * step));
}

function flush(periodic) {
  if (periodic && jogHeld) {
    // The heartbeat, and every 500 ms the request itself again: if the
    // server stopped the move because this page was late (a busy machine),
    // holding on restarts it, as a held key does.
    if (Date.now() - jogSentAt >= 500) { send(jogMsg()); jogSentAt = Date.now(); } else send({ type: 'jog_heartbeat' });
  }
}

function release() {
  for (const b of document.querySelectorAll('#p-jog .hold.active')) b.classList.remove('active');
  if (jogHeld) { jogHeld = false; send({ type: 'jog_stop' }); }
}

function build() {
  const info = ctx.info;
  if (!info.jog_joints || !info.jog_joints.length) return;
  $('jspeed').addEventListener('input', () => { $('jspeedv').textContent = jogSpeed().toFixed(2); });
  const sel = $('jframe');
  for (const f of info.jog_frames) sel.append(el('option', { value: f }, f));
  const n = info.jog_joints.length;
  const startHold = (msg) => () => { jogMsg = msg; send(msg()); jogSentAt = Date.now(); jogHeld = true; };
  const stopHold = () => { if (jogHeld) { jogHeld = false; send({ type: 'jog_stop' }); } };
  const tb = $('jjoints').querySelector('tbody');
  info.jog_joints.forEach((name, i) => {
    const minus = el('button', { class: 'hold ctl', id: `jj-${i}-minus` }, '−'), plus = el('button', { class: 'hold ctl', id: `jj-${i}-plus` }, '+');
    const dir = (s) => () => { const v = new Array(n).fill(0); v[i] = s; return { type: 'jog_joint', delta: true, values: v, speed: jogSpeed() }; };
    holdButton(minus, startHold(dir(-1)), stopHold);
    holdButton(plus, startHold(dir(1)), stopHold);
    // joint_limits.step (drag&bot's GUI interval): the target box counts
    // in it, and the step buttons move the joint to the next multiple of
    // it, held like every jog button.
    const step = (info.jog_step || [])[i] || 0;
    const steps = el('td', {});
    if (step > 0) {
      const toward = (s) => () => {
        const st = ctx.st;
        const q = st && st.snap && st.snap.jog && st.snap.jog.joints ? st.snap.jog.joints.slice() : null;
        if (!q || q.length !== n) return; // no joint state yet: nothing to step from
        q[i] = stepTarget(q[i], step, s, info.jog_lower[i], info.jog_upper[i]);
        const m = { type: 'jog_joint', delta: false, values: q, speed: jogSpeed() };
        startHold(() => m)(); // the goal is fixed at the press; re-sends repeat it
      };
      const sm = el('button', { class: 'hold ctl', id: `js-${i}-minus`, title: `to the previous multiple of ${fmt(step, 4)}` }, '◂ ' + fmt(step, 3));
      const sp = el('button', { class: 'hold ctl', id: `js-${i}-plus`, title: `to the next multiple of ${fmt(step, 4)}` }, fmt(step, 3) + ' ▸');
      holdButton(sm, toward(-1), stopHold);
      holdButton(sp, toward(1), stopHold);
      steps.append(sm, ' ', sp);
    }
    tb.append(el('tr', {}, el('td', {}, name), el('td', { class: 'v', id: 'jq-' + i }, '–'), el('td', {}, minus, ' ', plus), steps,
      el('td', {}, el('input', { type: 'number', step: step > 0 ? step : 0.01, id: 'jg-' + i, class: 'ctl', title: `[${fmt(info.jog_lower[i], 2)}, ${fmt(info.jog_upper[i], 2)}]` }))));
  });
  holdButton($('jgoal'), startHold(() => ({ type: 'jog_joint', delta: false, values: info.jog_joints.map((_, i) => { const v = parseFloat($('jg-' + i).value); return isFinite(v) ? v : null; }), speed: jogSpeed() })), stopHold);
  const ct = $('jcart').querySelector('tbody');
  const axes = ['x', 'y', 'z', 'rz', 'ry', 'rx'];
  axes.forEach((a) => {
    const minus = el('button', { class: 'hold ctl', id: `jc-${a}-minus` }, '−'), plus = el('button', { class: 'hold ctl', id: `jc-${a}-plus` }, '+');
    const dir = (s) => () => { const p = { x: 0, y: 0, z: 0, rz: 0, ry: 0, rx: 0 }; p[a] = s; return { type: 'jog_cartesian', delta: true, pose: p, frame: sel.value, speed: jogSpeed() }; };
    holdButton(minus, startHold(dir(-1)), stopHold);
    holdButton(plus, startHold(dir(1)), stopHold);
    ct.append(el('tr', {}, el('td', {}, a + (a.startsWith('r') ? ' rad' : ' m')), el('td', { class: 'v', id: 'jt-' + a }, '–'), el('td', {}, minus, ' ', plus),
      el('td', {}, el('input', { type: 'number', step: 0.01, id: 'jp-' + a, class: 'ctl' }))));
  });
  holdButton($('jpose'), startHold(() => {
    const p = {}; for (const a of axes) { const v = parseFloat($('jp-' + a).value); p[a] = isFinite(v) ? v : null; }
    return { type: 'jog_cartesian', delta: false, pose: p, frame: sel.value, speed: jogSpeed() };
  }), stopHold);
  $('jstop').addEventListener('click', () => { jogHeld = false; send({ type: 'jog_stop' }); });
}

function render(st) {
  const j = st.snap.jog;
  if (!j) return;
  j.joints.forEach((v, i) => { const c = $('jq-' + i); if (c) c.textContent = fmt(v, 3); });
  for (const a of ['x', 'y', 'z', 'rz', 'ry', 'rx']) { const c = $('jt-' + a); if (c) c.textContent = fmt(j.tool[a], 3); }
  $('jstate').innerHTML = kv({ mode: j.mode, 'last end': j.reason || '–', targets: j.targets, heartbeat: jogHeld ? 'sending' : 'off' });
}

// The view's markup (app.js puts it in its <section> and adds its tab).
const html = `
  <div class="col">
    <div class="card">
      <h2>Joint jog <small>press and hold; the heartbeat runs only while a button is held</small></h2>
      <table class="grid" id="jjoints"><thead><tr><th>joint</th><th>value</th><th>jog</th><th>step</th><th>goal</th></tr></thead><tbody></tbody></table>
      <div class="row"><button class="hold" id="jgoal">Move to joint goal (hold)</button></div>
    </div>
  </div>
  <div class="col">
    <div class="card">
      <h2>Cartesian jog</h2>
      <div class="row">
        <label>frame <select id="jframe"></select></label>
        <label>speed <input id="jspeed" type="range" min="0.05" max="1" step="0.05" value="0.5"> <b id="jspeedv">0.50</b></label>
        <button id="jstop">Stop</button>
      </div>
      <table class="grid" id="jcart"><thead><tr><th>axis</th><th>tool</th><th>jog</th><th>goal</th></tr></thead><tbody></tbody></table>
      <div class="row"><button class="hold" id="jpose">Move to pose goal (hold)</button></div>
      <div id="jstate" class="kv"></div>
    </div>
  </div>
`;

export default {
  id: 'jog', html, label: 'Jog arm',
  available: (info) => !!(info.jog_joints && info.jog_joints.length),
  build, render, flush, release, stop: release,
};
