// The Furbot panel: drive with keys, the on-screen pad (a thumb stick)
// or a gamepad (a Twist bounded by the max speed and yaw-rate settings);
// speed, steering, throttle and brake, the battery, the subsystems.
import { $, fmt, deg, clamp, kv } from '../js/util.js';
import { ctx, held, target } from '../js/core.js';
import { send } from '../js/conn.js';
import { registerPad } from '../js/gamepad.js';
import { makeStick } from '../js/input.js';

const KEYS = { w: ['v', 1], arrowup: ['v', 1], s: ['v', -1], arrowdown: ['v', -1], a: ['w', 1], arrowleft: ['w', 1], d: ['w', -1], arrowright: ['w', -1] };

// The pad: the left stick drives (forward and yaw rate), as on the
// Servosila; the Furbot has no arm.
registerPad('furbot', [{ name: 'v', label: 'speed (forward +)' }, { name: 'w', label: 'yaw rate (left +)' }], { v: '-a1', w: '-a0' });

let last = '';

function command() {
  const info = ctx.info;
  const vmax = Math.min(+$('fmax').value || 0, info.furbot_max_speed);
  const wmax = Math.min(+$('fmaxw').value || 0, info.furbot_max_yaw_rate);
  let v = 0, w = 0;
  if (target() !== 'furbot') return { v: 0, w: 0 };
  for (const k of held.keys) { const m = KEYS[k]; if (m) { if (m[0] === 'v') v += m[1]; else w += m[1]; } }
  if (v === 0 && w === 0) {
    if (held.stick) { v = held.stick.y; w = -held.stick.x; } else if (held.pad && held.pad.machine === 'furbot') { v = held.pad.values.v; w = held.pad.values.w; }
  }
  return { v: clamp(v * vmax, vmax), w: clamp(w * wmax, wmax) };
}

function flush(periodic) {
  if (!ctx.info || !ctx.info.furbot) return;
  const c = command();
  const f = JSON.stringify({ type: 'furbot_drive', v: c.v, w: c.w });
  if (f !== last || (periodic && (c.v !== 0 || c.w !== 0))) { send(JSON.parse(f)); last = f; }
  $('fcmd').innerHTML = `<div><span>commanded v</span>${fmt(c.v, 2)} m/s</div><div><span>commanded ω</span>${fmt(c.w, 2)} rad/s</div>`;
}

function build(changed) {
  $('fmax').value = Math.min(1, ctx.info.furbot_max_speed || 1);
  makeStick($('pad'), $('padknob'), changed);
}

function render(st) {
  const f = st.snap.furbot;
  if (!f) return;
  $('fspeed').textContent = fmt(f.speed, 2) + ' m/s';
  $('fsteer').textContent = fmt(deg(f.steer), 1) + '°';
  $('fthr').value = f.throttle; $('fbrk').value = f.brake;
  $('fbms').innerHTML = kv({ ready: f.ready ? 'yes' : 'NO', charge: fmt(f.charge, 0) + ' %', voltage: fmt(f.voltage, 1) + ' V', current: fmt(f.current, 1) + ' A',
    'cell temp': `${f.temp_lo}…${f.temp_hi} °C`, reverse: f.reverse ? 'yes' : 'no', odometry: `${fmt(f.x, 2)}, ${fmt(f.y, 2)} m · ${fmt(deg(f.yaw), 0)}°`, 'status age': fmt(f.age * 1000, 0) + ' ms', frames: f.frames, invalid: f.invalid });
  const names = ['cold', 'init', 'running', 'halted'];
  $('fsubs').innerHTML = f.subsystems.map((x) => `<div class="${x.working ? 'ok' : 'bad'}">${x.name}<small>${x.present ? (names[x.state] || 'state ' + x.state) : 'absent'}</small></div>`).join('');
}

// hud is the drive screen's overlay (the vehicle reports its status many
// times a second: a status older than 0.5 s is a weak link).
function hud(st) {
  const f = st.snap.furbot;
  if (!f) return null;
  const q = f.age <= 0.5 ? 'good' : f.age <= 2 ? 'weak' : 'lost';
  const all = f.frames + f.invalid, ok = all ? Math.round((100 * f.frames) / all) : 0;
  return {
    speed: `${fmt(f.speed, 2)} m/s · steering ${fmt(deg(f.steer), 0)}° · battery ${fmt(f.charge, 0)} %`, heading: `${fmt(deg(f.yaw), 0)}° · x ${fmt(f.x, 2)} y ${fmt(f.y, 2)} m`,
    link: q, linkText: `link ${q} · status ${fmt(f.age * 1000, 0)} ms old · ${ok} % valid`, estopped: !!f.estopped,
  };
}

// The view's markup (app.js puts it in its <section> and adds its tab).
const html = `
  <div class="col">
    <div class="card">
      <h2>Furbot drive <small>hold W/S/A/D or arrow keys, or press on the pad</small></h2>
      <div class="row">
        <label>max speed <input id="fmax" type="number" step="0.1" min="0.1" value="1.0"> m/s</label>
        <label>max yaw rate <input id="fmaxw" type="number" step="0.05" min="0.05" value="0.5"> rad/s</label>
      </div>
      <div class="padwrap"><div id="pad" class="pad"><div id="padknob" class="knob"></div></div></div>
      <div id="fcmd" class="kv"></div>
    </div>
  </div>
  <div class="col">
    <div class="card">
      <h2>Vehicle <small><a href="robot3d.html?machine=furbot" target="_blank">3-D view</a></small></h2>
      <div class="gauges">
        <div><span>speed</span><b id="fspeed">–</b></div>
        <div><span>steering</span><b id="fsteer">–</b></div>
        <div><span>throttle</span><meter id="fthr" min="0" max="1"></meter></div>
        <div><span>brake</span><meter id="fbrk" min="0" max="1"></meter></div>
      </div>
      <div id="fbms" class="kv"></div>
    </div>
    <div class="card">
      <h2>Subsystems</h2>
      <div id="fsubs" class="subs"></div>
    </div>
  </div>
`;

export default {
  id: 'furbot', html, label: 'Furbot', machine: true,
  available: (info) => !!info.furbot,
  knownKey: (k) => k in KEYS,
  keyHelp: 'W/S or ↑/↓ speed · A/D or ←/→ yaw rate',
  build, render, flush, release: () => {}, stop: () => { last = ''; }, hud,
};
