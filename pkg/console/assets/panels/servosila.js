// The Servosila panel (the papers' GUI): hold-to-move keys, sliders with
// Accept, maximum velocities, position targets, switches, the motor table
// and link counters; and what the drive screen needs of the Servosila
// (its command from keys, thumb stick and pad, its overlay).
import { $, el, fmt, deg, clamp, kv, holdButton } from '../js/util.js';
import { ctx, held, target, showError } from '../js/core.js';
import { send } from '../js/conn.js';
import { registerPad } from '../js/gamepad.js';

const JOINTS = ['waist', 'shoulder', 'elbow', 'neck', 'flippers', 'gripper'];
const ARM = 4;
const KEYS = { w: ['lin', 1], s: ['lin', -1], a: ['ang', 1], d: ['ang', -1],
  q: [0, 1], e: [0, -1], y: [1, 1], h: [1, -1], u: [2, 1], j: [2, -1], i: [3, 1], k: [3, -1], f: [4, 1], r: [4, -1], t: [5, 1], g: [5, -1] };
const KEYLIST = 'wsadqeyhujikfrgt';

// The pad: the left stick drives, the right stick and the triggers move
// the arm (docs/console.md, "Gamepad").
registerPad('servosila', [
  { name: 'linear', label: 'drive (forward +)' }, { name: 'angular', label: 'turn (left +)' },
  { name: 'waist', label: 'waist (left +)' }, { name: 'shoulder', label: 'shoulder (up +)' },
  { name: 'elbow', label: 'elbow (up +)' }, { name: 'neck', label: 'neck (up +)' },
  { name: 'flippers', label: 'flippers (up +)' }, { name: 'gripper', label: 'gripper (open +)' },
], { linear: '-a1', angular: '-a0', waist: '-a2', shoulder: '-a3', elbow: 'b7-b6', neck: 'b12-b13', flippers: 'b15-b14', gripper: 'b3-b0' });

const acc = { linear: 0, angular: 0, joints: [0, 0, 0, 0, 0, 0] }; // accepted slider velocities
const holdJ = [0, 0, 0, 0, 0, 0]; // on-screen hold buttons (flippers, gripper)
const last = { drive: '', joints: '' };

function limits() {
  const i = ctx.info;
  return ctx.st ? ctx.st.limits : { linear: i.servosila_max_linear, angular: i.servosila_max_angular, joints: i.servosila_max_joint };
}

// chassis turns a proportional request (l forward, a left, each in
// [-1, 1]) into a twist within the operator's maxima. The robot does not
// start below its start speed: a small request is raised, curvature kept,
// until its larger part reaches the start speed, but never above a
// maximum (then the server refuses it and the page says why).
function chassis(l, a, L) {
  let lin = l * L.linear, ang = a * L.angular;
  const s0 = ctx.info.servosila_start_speed || 0;
  const big = Math.max(Math.abs(lin), Math.abs(ang)) / s0;
  if (s0 > 0 && big > 0 && big < 1) {
    const f = (1 + 1e-6) / big;
    if (Math.abs(lin * f) <= L.linear && Math.abs(ang * f) <= L.angular) { lin *= f; ang *= f; }
  }
  return [clamp(lin, L.linear), clamp(ang, L.angular)];
}

function command() {
  const L = limits();
  const mine = target() === 'servosila';
  let kl = 0, ka = 0; const kj = [0, 0, 0, 0, 0, 0];
  if (mine) {
    for (const k of held.keys) {
      const m = KEYS[k]; if (!m) continue;
      if (m[0] === 'lin') kl += m[1]; else if (m[0] === 'ang') ka += m[1]; else kj[m[0]] += m[1];
    }
  }
  let lin = kl !== 0 ? kl * L.linear : acc.linear;
  let ang = ka !== 0 ? ka * L.angular : acc.angular;
  const pad = mine && held.pad && held.pad.machine === 'servosila' ? held.pad.values : null;
  const st = mine ? held.stick : null;
  if (kl === 0 && ka === 0) {
    if (st) [lin, ang] = st.x || st.y ? chassis(st.y, -st.x, L) : [0, 0];
    else if (pad && (pad.linear || pad.angular)) [lin, ang] = chassis(pad.linear, pad.angular, L);
  }
  const joints = {};
  JOINTS.forEach((n, j) => {
    const k = kj[j] + holdJ[j];
    let v = k !== 0 ? Math.sign(k) * L.joints[j] : acc.joints[j];
    // The gripper has one speed: the pad opens or closes it at the maximum, as the keys do.
    if (k === 0 && pad && pad[n]) v = n === 'gripper' ? Math.sign(pad[n]) * L.joints[j] : pad[n] * L.joints[j];
    joints[n] = clamp(v, L.joints[j]);
  });
  return { linear: clamp(lin, L.linear), angular: clamp(ang, L.angular), joints };
}

function flush(periodic) {
  if (!ctx.info || !ctx.info.servosila) return;
  const c = command();
  const d = JSON.stringify({ type: 'servosila_drive', linear: c.linear, angular: c.angular });
  if (d !== last.drive || (periodic && (c.linear !== 0 || c.angular !== 0))) { send(JSON.parse(d)); last.drive = d; }
  const jm = JSON.stringify({ type: 'servosila_joints', joints: c.joints });
  if (jm !== last.joints || (periodic && Object.values(c.joints).some((v) => v !== 0))) { send(JSON.parse(jm)); last.joints = jm; }
  for (const k of KEYLIST) { const s = $('key-' + k); if (s) s.classList.toggle('down', held.keys.has(k) && target() === 'servosila'); }
}

function release() {
  holdJ.fill(0);
  for (const b of document.querySelectorAll('#p-servosila .hold.active')) b.classList.remove('active');
}

function stop() {
  release();
  acc.linear = 0; acc.angular = 0; acc.joints.fill(0);
  last.drive = last.joints = '';
  syncSliders();
}

function syncSliders() {
  for (const n of ['linear', 'angular', ...JOINTS]) { const s = $('sl-' + n), b = $('nb-' + n); if (s) { s.value = 0; b.value = 0; } }
}

function build() {
  const tb = $('vel').querySelector('tbody');
  const L = limits();
  const rows = [['linear', 'm/s', L.linear], ['angular', 'rad/s', L.angular], ...JOINTS.map((n, j) => [n, 'rad/s', L.joints[j]])];
  rows.forEach(([name, unit, max], i) => {
    const j = i - 2;
    const slider = el('input', { type: 'range', min: -max, max: max, step: max / 100, value: 0, id: 'sl-' + name, class: 'ctl' });
    const box = el('input', { type: 'number', step: 0.01, value: 0, id: 'nb-' + name, class: 'ctl' });
    slider.addEventListener('input', () => { box.value = (+slider.value).toFixed(2); });
    box.addEventListener('input', () => { slider.value = box.value; });
    const accept = el('button', { id: 'ac-' + name, class: 'ctl', title: 'send this velocity until Stop all' }, 'Accept');
    accept.addEventListener('click', () => {
      const v = parseFloat(box.value);
      if (!isFinite(v)) { showError(name + ': not a number'); return; }
      if (name === 'linear') acc.linear = v; else if (name === 'angular') acc.angular = v; else acc.joints[j] = v;
      flush(false);
    });
    const mx = el('input', { type: 'number', step: 0.05, min: 0, value: max.toFixed(2), id: 'mx-' + name, class: 'ctl', title: 'maximum velocity for keys and slider' });
    mx.addEventListener('change', () => send({ type: 'max_velocity', joint: name, value: parseFloat(mx.value) }));
    const tr = el('tr', {}, el('td', {}, name + ' ', el('small', {}, unit)), el('td', {}, slider), el('td', {}, box), el('td', {}, accept), el('td', {}, mx),
      el('td', { class: 'v', id: 'sent-' + name }, '–'));
    if (j >= 0 && j < ARM) {
      const tgt = el('input', { type: 'number', step: 0.01, value: 0, id: 'tg-' + name, class: 'ctl', title: 'target [rad]' });
      const ta = el('button', { id: 'ta-' + name, class: 'ctl' }, 'Accept');
      ta.addEventListener('click', () => {
        const v = parseFloat(tgt.value);
        send({ type: 'servosila_target', joint: name, value: isFinite(v) ? v : null });
      });
      tr.append(el('td', { class: 'v', id: 'pos-' + name }, '–'), el('td', {}, tgt), el('td', {}, ta), el('td', { id: 'ts-' + name }, '–'));
    } else if (j >= 0) {
      tr.append(el('td', { class: 'v', id: 'pos-' + name }, '–'), el('td', {}, el('small', {}, 'velocity only')), el('td'), el('td'));
    } else {
      tr.append(el('td'), el('td'), el('td'), el('td'));
    }
    tb.append(tr);
  });
  $('headlight').addEventListener('change', (e) => send({ type: 'headlight', on: e.target.checked }));
  $('stopall').addEventListener('click', () => { acc.linear = 0; acc.angular = 0; acc.joints.fill(0); syncSliders(); flush(false); });
  for (const b of document.querySelectorAll('#p-servosila .hold')) {
    const j = JOINTS.indexOf(b.dataset.joint), sign = +b.dataset.sign;
    holdButton(b, () => { holdJ[j] = sign; flush(false); }, () => { holdJ[j] = 0; flush(false); });
  }
  const kk = $('keys');
  for (const k of KEYLIST) kk.append(el('span', { id: 'key-' + k }, k.toUpperCase()));
}

function render(st) {
  const s = st.snap.servosila;
  if (!s) return;
  const L = st.limits;
  $('sent-linear').textContent = fmt(s.linear, 2); $('sent-angular').textContent = fmt(s.angular, 2);
  const upd = (n, max) => {
    const sl = $('sl-' + n); if (!sl) return;
    if (+sl.max !== max) { sl.min = -max; sl.max = max; sl.step = max / 100; }
    const mx = $('mx-' + n); if (document.activeElement !== mx) mx.value = max.toFixed(2);
  };
  upd('linear', L.linear); upd('angular', L.angular);
  JOINTS.forEach((n, j) => {
    upd(n, L.joints[j]);
    $('sent-' + n).textContent = fmt(s.joint_vel[j], 2);
    $('pos-' + n).textContent = s.joint_known[j] ? fmt(s.joints[j], 3) : '–';
    if (j < ARM) { const t = s.targets[j]; const c = $('ts-' + n); c.textContent = t.state === 'idle' ? 'idle' : `${t.state} → ${fmt(t.target, 3)}`; c.className = t.state === 'reached' ? 'reached' : (t.state === 'moving' || t.state === 'settling' ? 'moving' : ''); }
  });
  $('headlight').checked = s.headlight;
  $('dropped').textContent = s.dropped ? 'dropped now: ' + s.dropped : 'nothing dropped';
  $('telage').textContent = s.have_telemetry ? `tick ${s.tick}, packet age ${fmt(s.telemetry_age, 2)} s` : 'no telemetry yet';
  const tb = $('motors').querySelector('tbody');
  const rows = (s.motors || []).map((m, i) => `<tr><td>${i}</td><td>${m.id}</td><td>${m.state}</td><td>${m.mode}</td><td>${m.position}</td><td>${fmt(deg(m.angle), 1)}</td><td>${m.speed}</td><td>${m.current}</td><td>0x${m.status.toString(16).padStart(4, '0')}</td><td class="${m.fault ? 'fault' : ''}">${m.fault ? 'FAULT' : 'ok'}</td><td>${m.fault_count}</td></tr>`);
  tb.innerHTML = rows.join('');
  const l = s.link, c = st.counters;
  $('slink').innerHTML = kv({ 'packets sent': l.sent, 'send errors': l.send_errs, 'datagrams in': l.received, telemetry: l.accepted, foreign: l.foreign, malformed: l.malformed,
    'console refused': c.BadMessages, 'view-only refused': c.ViewOnly, 'role refused': c.Role, 'refused (would run faster)': c.Faster, 'rate limited': c.RateLimited, 'deadman stops': c.Expired + c.Stops, pages: st.pages });
}

// hud is the drive screen's overlay: speed, heading, the link's quality
// and packet age (telemetry comes once a second from a real robot).
function hud(st) {
  const s = st.snap.servosila;
  if (!s) return null;
  const age = s.have_telemetry ? s.telemetry_age : Infinity;
  const q = age <= 2 ? 'good' : age <= 5 ? 'weak' : 'lost';
  const l = s.link, ok = l.received ? Math.round((100 * l.accepted) / l.received) : 0;
  // The static balance, when the server computes it (state "balance").
  const b = st.balance;
  const balance = b && !b.error ? {
    warn: !!b.warn,
    text: (b.warn ? `TIP-OVER RISK: stability margin ${fmt(b.margin, 2)} m, below ${fmt(b.threshold, 2)} m` : `stability margin ${fmt(b.margin, 2)} m`) + (b.assumed ? ' (masses assumed)' : ''),
  } : null;
  return { balance,
    speed: `${fmt(s.linear, 2)} m/s · ${fmt(s.angular, 2)} rad/s`, heading: `${fmt(deg(s.yaw), 0)}° · x ${fmt(s.x, 2)} y ${fmt(s.y, 2)} m`,
    link: q, linkText: `link ${q} · telemetry ${s.have_telemetry ? fmt(age, 1) + ' s old' : 'none yet'} · ${ok} % valid`, estopped: !!s.estopped,
  };
}

// The view's markup (app.js puts it in its <section> and adds its tab).
const html = `
  <div class="col">
    <div class="card">
      <h2>Drive <small>hold keys: W/S drive · A/D turn · Q/E waist · Y/H shoulder · U/J elbow · I/K neck · F/R flippers · G/T gripper · Space e-stop</small></h2>
      <div id="keys" class="keys"></div>
      <table class="grid" id="vel">
        <thead><tr><th>axis</th><th>velocity</th><th></th><th></th><th>max</th><th>sent</th><th>position</th><th>target</th><th></th><th>state</th></tr></thead>
        <tbody></tbody>
      </table>
      <div class="row">
        <label class="chk"><input type="checkbox" id="headlight"> headlight</label>
        <span class="sw">flippers <button class="hold" data-joint="flippers" data-sign="1">up</button><button class="hold" data-joint="flippers" data-sign="-1">down</button></span>
        <span class="sw">gripper <button class="hold" data-joint="gripper" data-sign="1">open</button><button class="hold" data-joint="gripper" data-sign="-1">close</button></span>
        <button id="stopall" title="zero every slider velocity">Stop all</button>
      </div>
    </div>
    <div class="card">
      <h2>Protocol limits</h2>
      <ul class="limits">
        <li>No battery level, no headlight state (the light shows what was commanded), no gripper rotation: the robot does not report them.</li>
        <li>The waist cannot turn while the chassis moves (shared gamepad axes): <b id="dropped">–</b></li>
        <li>Flippers and gripper have no position telemetry: velocity only. Telemetry arrives about once a second from a real robot.</li>
        <li>Chassis odometry is dead reckoning from the commanded velocity.</li>
      </ul>
    </div>
  </div>
  <div class="col">
    <div class="card">
      <h2>Motors <small id="telage"></small></h2>
      <table class="grid num" id="motors">
        <thead><tr><th>#</th><th>id</th><th>state</th><th>mode</th><th>position</th><th>angle °</th><th>speed</th><th>current A</th><th>status bits</th><th>fault</th><th>faults</th></tr></thead>
        <tbody></tbody>
      </table>
    </div>
    <div class="card">
      <h2>Link</h2>
      <div id="slink" class="kv"></div>
    </div>
  </div>
`;

export default {
  id: 'servosila', html, label: 'Servosila', machine: true,
  available: (info) => !!info.servosila,
  knownKey: (k) => k in KEYS,
  keyHelp: 'W/S drive · A/D turn · Q/E waist · Y/H shoulder · U/J elbow · I/K neck · F/R flippers · T/G gripper',
  build, render, flush, release, stop, hud,
};
