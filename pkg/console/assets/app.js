// telebridge operator console. One WebSocket; the server is the deadman:
// held commands are re-sent every 100 ms and expire on the server when
// they stop coming. Leaving the page, hiding it or blurring the window
// stops everything this page drives.
const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v; else if (k.startsWith('on')) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
};
const fmt = (v, d = 3) => (typeof v === 'number' && isFinite(v) ? v.toFixed(d) : '–');
const deg = (r) => (r * 180) / Math.PI;
const JOINTS = ['waist', 'shoulder', 'elbow', 'neck', 'flippers', 'gripper'];
const ARM = 4;
const RESEND_MS = 100;

let ws = null, me = 0, info = null, st = null, control = false;
let who = { operator: '', roles: '' }; // this page's operator and roles (from hello)
let tab = 'servosila';

// ---- connection ----
function connect() {
  ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws');
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === 'hello') { me = m.page; info = m.info; who = { operator: m.operator || '', roles: m.roles || '' }; build(); }
    else if (m.type === 'state') { st = m; render(); }
    else if (m.type === 'error') { showError(m.error); }
    else if (m.type === 'confirm_release') { askRelease(m.nonce, m.timeout_ms); }
    else if (m.type === 'lost_control') { lostControl(m); }
  };
  ws.onopen = () => { setPill($('link'), 'connected', 'ok'); };
  ws.onclose = () => { setPill($('link'), 'disconnected: reconnecting', 'bad'); me = 0; control = false; renderRole(); setTimeout(connect, 1000); };
}
function send(m) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(m)); }
function setPill(e, text, cls) { e.textContent = text; e.className = 'pill ' + (cls || ''); }
let errTimer = 0;
function showError(t) {
  $('msg').textContent = t;
  clearTimeout(errTimer);
  errTimer = setTimeout(() => { $('msg').textContent = ''; }, 4000);
}

// ---- tabs ----
for (const b of document.querySelectorAll('#tabs button')) {
  b.addEventListener('click', () => selectTab(b.dataset.tab));
}
function selectTab(t) {
  if (t !== tab) releaseHeld();
  tab = t;
  for (const b of document.querySelectorAll('#tabs button')) b.classList.toggle('on', b.dataset.tab === t);
  for (const p of document.querySelectorAll('.panel')) p.classList.toggle('on', p.id === 'p-' + t);
  camerasVisible(t === 'cameras');
}

// ---- held state ----
const keys = new Set();
const acc = { linear: 0, angular: 0, joints: [0, 0, 0, 0, 0, 0] }; // accepted slider velocities
const holdJ = [0, 0, 0, 0, 0, 0]; // on-screen hold buttons (flippers, gripper)
let pad = null; // furbot pad {v, w}
let jogHeld = false;
let jogMsg = null; // builds the held jog request
let jogSentAt = 0;
const last = { drive: '', joints: '', furbot: '' };

const SKEYS = { w: ['lin', 1], s: ['lin', -1], a: ['ang', 1], d: ['ang', -1],
  q: [0, 1], e: [0, -1], y: [1, 1], h: [1, -1], u: [2, 1], j: [2, -1], i: [3, 1], k: [3, -1], f: [4, 1], r: [4, -1], t: [5, 1], g: [5, -1] };
const FKEYS = { w: ['v', 1], arrowup: ['v', 1], s: ['v', -1], arrowdown: ['v', -1], a: ['w', 1], arrowleft: ['w', 1], d: ['w', -1], arrowright: ['w', -1] };

function limits() { return st ? st.limits : { linear: info.servosila_max_linear, angular: info.servosila_max_angular, joints: info.servosila_max_joint }; }
const clamp = (v, m) => Math.max(-m, Math.min(m, v));

function servosilaCommand() {
  const L = limits();
  let kl = 0, ka = 0; const kj = [0, 0, 0, 0, 0, 0];
  if (tab !== 'furbot' && tab !== 'jog') {
    for (const k of keys) {
      const m = SKEYS[k]; if (!m) continue;
      if (m[0] === 'lin') kl += m[1]; else if (m[0] === 'ang') ka += m[1]; else kj[m[0]] += m[1];
    }
  }
  const lin = kl !== 0 ? kl * L.linear : acc.linear;
  const ang = ka !== 0 ? ka * L.angular : acc.angular;
  const joints = {};
  JOINTS.forEach((n, j) => {
    const k = kj[j] + holdJ[j];
    const v = k !== 0 ? Math.sign(k) * L.joints[j] : acc.joints[j];
    joints[n] = clamp(v, L.joints[j]);
  });
  return { linear: clamp(lin, L.linear), angular: clamp(ang, L.angular), joints };
}
function furbotCommand() {
  const vmax = Math.min(+$('fmax').value || 0, info.furbot_max_speed);
  const wmax = Math.min(+$('fmaxw').value || 0, info.furbot_max_yaw_rate);
  let v = 0, w = 0;
  if (tab === 'furbot') for (const k of keys) { const m = FKEYS[k]; if (m) { if (m[0] === 'v') v += m[1]; else w += m[1]; } }
  if (pad) { v = pad.v; w = pad.w; }
  return { v: clamp(v * vmax, vmax), w: clamp(w * wmax, wmax) };
}

// flush sends what is held: at once when it changed, and every RESEND_MS
// while it is not zero (the server's deadman needs the refresh).
function flush(periodic) {
  if (!info) return;
  if (info.servosila) {
    const c = servosilaCommand();
    const d = JSON.stringify({ type: 'servosila_drive', linear: c.linear, angular: c.angular });
    const nzd = c.linear !== 0 || c.angular !== 0;
    if (d !== last.drive || (periodic && nzd)) { send(JSON.parse(d)); last.drive = d; }
    const jm = JSON.stringify({ type: 'servosila_joints', joints: c.joints });
    const nzj = Object.values(c.joints).some((v) => v !== 0);
    if (jm !== last.joints || (periodic && nzj)) { send(JSON.parse(jm)); last.joints = jm; }
    renderKeys(c);
  }
  if (info.furbot) {
    const c = furbotCommand();
    const f = JSON.stringify({ type: 'furbot_drive', v: c.v, w: c.w });
    if (f !== last.furbot || (periodic && (c.v !== 0 || c.w !== 0))) { send(JSON.parse(f)); last.furbot = f; }
    $('fcmd').innerHTML = `<div><span>commanded v</span>${fmt(c.v, 2)} m/s</div><div><span>commanded ω</span>${fmt(c.w, 2)} rad/s</div>`;
  }
  if (periodic && jogHeld) {
    // The heartbeat, and every 500 ms the request itself again: if the
    // server stopped the move because this page was late (a busy machine),
    // holding on restarts it, as a held key does.
    if (Date.now() - jogSentAt >= 500) { send(jogMsg()); jogSentAt = Date.now(); } else send({ type: 'jog_heartbeat' });
  }
}
setInterval(() => flush(true), RESEND_MS);

// releaseHeld lets go of every key and hold button (another panel is
// shown): those axes go to zero; accepted slider velocities and position
// targets go on.
function releaseHeld() {
  keys.clear(); pad = null; holdJ.fill(0);
  for (const b of document.querySelectorAll('.hold.active')) b.classList.remove('active');
  if (jogHeld) { jogHeld = false; send({ type: 'jog_stop' }); }
  centerKnob();
  flush(false);
}

// stopHeld forgets everything held and tells the server to stop what this
// page drives, position targets included (the page is hidden or left).
function stopHeld() {
  keys.clear(); pad = null; holdJ.fill(0);
  acc.linear = 0; acc.angular = 0; acc.joints.fill(0);
  for (const b of document.querySelectorAll('.hold.active')) b.classList.remove('active');
  if (jogHeld) { jogHeld = false; send({ type: 'jog_stop' }); }
  centerKnob();
  send({ type: 'stop' });
  last.drive = last.joints = last.furbot = '';
  flush(false);
  syncSliders();
}
document.addEventListener('visibilitychange', () => { if (document.hidden) stopHeld(); });
window.addEventListener('blur', stopHeld);
window.addEventListener('pagehide', stopHeld);

function typing(e) { const t = e.target; return t && (t.tagName === 'INPUT' && t.type !== 'checkbox' && t.type !== 'range' || t.tagName === 'SELECT'); }
document.addEventListener('keydown', (e) => {
  const k = e.key.toLowerCase();
  if (k === ' ' || e.code === 'Space') { e.preventDefault(); estop(); return; }
  if (typing(e) || e.ctrlKey || e.metaKey || e.altKey) return;
  if (SKEYS[k] || FKEYS[k]) {
    e.preventDefault();
    // When the page saw the last new press (wall clock [ms]): diagnostics
    // and the latency measurement of the tests.
    if (!keys.has(k)) { document.body.dataset.keydown = String(Date.now()); keys.add(k); flush(false); }
  }
});
document.addEventListener('keyup', (e) => {
  const k = e.key.toLowerCase();
  // When the page saw the last release (wall clock [ms]), for diagnostics
  // and the browser tests' stop-time measurement.
  document.body.dataset.keyup = String(Date.now());
  if (keys.delete(k)) flush(false);
});

// ---- top bar ----
function estop() {
  send({ type: 'estop' });
  // Held keys do not come back after a release: they must be pressed again.
  keys.clear(); holdJ.fill(0); pad = null; acc.linear = 0; acc.angular = 0; acc.joints.fill(0);
  if (jogHeld) { jogHeld = false; send({ type: 'jog_stop' }); }
  centerKnob(); syncSliders(); flush(false);
}
$('estop').addEventListener('click', estop);
// Releasing the e-stop takes two steps: the server asks back, this page
// confirms with the server's nonce (the machines may move again).
$('release').addEventListener('click', () => send({ type: 'release' }));
let confirmNonce = '', confirmTimer = 0;
function askRelease(nonce, ms) {
  confirmNonce = nonce;
  $('releaseconfirm').classList.remove('hidden');
  clearTimeout(confirmTimer);
  confirmTimer = setTimeout(endConfirm, ms || 10000);
}
function endConfirm() { confirmNonce = ''; $('releaseconfirm').classList.add('hidden'); }
$('releaseconfirm').addEventListener('click', () => {
  if (confirmNonce) send({ type: 'release_confirm', nonce: confirmNonce });
  endConfirm();
});
// Another page took control: say so until dismissed.
function lostControl(m) {
  stopHeld();
  endConfirm();
  const n = $('notice');
  n.textContent = 'You lost control: ' + (m.operator || 'another operator') + ' (page ' + m.page + ') took it over.' +
    (m.estop_latched ? ' The e-stop stays latched.' : '');
  n.classList.remove('hidden');
}
$('notice').addEventListener('click', () => $('notice').classList.add('hidden'));
$('take').addEventListener('click', () => send({ type: 'take_control' }));
$('leave').addEventListener('click', () => { stopHeld(); send({ type: 'release_control' }); });

function renderRole() {
  const r = $('role');
  if (!me) { r.textContent = 'offline'; r.className = 'pill'; return; }
  r.textContent = control ? 'IN CONTROL' : (st && st.holder ? 'VIEW ONLY: another page controls' : 'VIEW ONLY: nobody controls');
  r.className = 'pill ' + (control ? 'control' : 'view');
  r.title = who.operator ? 'operator ' + who.operator + ', roles ' + who.roles : '';
  const moves = /drive|arm|admin/.test(who.roles);
  $('take').classList.toggle('hidden', control || !moves);
  $('leave').classList.toggle('hidden', !control);
  $('release').disabled = !control || !/drive|admin/.test(who.roles);
  if (!control) endConfirm();
  document.body.classList.toggle('view', !control);
}

// ---- build the panels once info is known ----
let built = false;
function build() {
  if (built) return;
  built = true;
  buildServosila();
  buildFurbot();
  buildJog();
  buildCameras();
}

function buildServosila() {
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
  for (const k of 'wsadqeyhujikfrgt') kk.append(el('span', { id: 'key-' + k }, k.toUpperCase()));
}
function syncSliders() {
  for (const n of ['linear', 'angular', ...JOINTS]) {
    const s = $('sl-' + n), b = $('nb-' + n);
    if (s) { s.value = 0; b.value = 0; }
  }
}
function renderKeys() {
  for (const k of 'wsadqeyhujikfrgt') { const s = $('key-' + k); if (s) s.classList.toggle('down', keys.has(k) && tab !== 'furbot' && tab !== 'jog'); }
}

// holdButton calls down on press and up on release, however the press
// ends (release, leaving the button, touch cancelled).
function holdButton(b, down, up) {
  let held = false;
  const start = (e) => { e.preventDefault(); if (held) return; held = true; b.classList.add('active'); down(); };
  const end = () => { if (!held) return; held = false; b.classList.remove('active'); up(); };
  b.addEventListener('pointerdown', start);
  b.addEventListener('pointerup', end);
  b.addEventListener('pointerleave', end);
  b.addEventListener('pointercancel', end);
}

// ---- furbot ----
function buildFurbot() {
  $('fmax').value = Math.min(1, info.furbot_max_speed || 1);
  const p = $('pad');
  const move = (e) => {
    const r = p.getBoundingClientRect();
    const x = ((e.clientX - r.left) / r.width) * 2 - 1, y = ((e.clientY - r.top) / r.height) * 2 - 1;
    const n = Math.min(1, Math.hypot(x, y)) / (Math.hypot(x, y) || 1);
    pad = { v: -y * n, w: -x * n };
    const k = $('padknob');
    k.style.left = (r.width / 2 - 15 + x * n * r.width / 2) + 'px';
    k.style.top = (r.height / 2 - 15 + y * n * r.height / 2) + 'px';
    flush(false);
  };
  let down = false;
  p.addEventListener('pointerdown', (e) => { down = true; p.setPointerCapture(e.pointerId); move(e); });
  p.addEventListener('pointermove', (e) => { if (down) move(e); });
  const end = () => { if (!down) return; down = false; pad = null; centerKnob(); flush(false); };
  p.addEventListener('pointerup', end);
  p.addEventListener('pointercancel', end);
}
function centerKnob() { const k = $('padknob'); if (k) { k.style.left = '95px'; k.style.top = '95px'; } }

// ---- jog ----
function jogSpeed() { return +$('jspeed').value; }
// stepTarget is the multiple of step [rad or m] next to q in direction
// dir (±1), within [lo, hi]. A joint a hair off a multiple (the arm stops
// within its goal tolerance) counts as on it.
function stepTarget(q, step, dir, lo, hi) {
  const k = q / step, slack = 0.05;
  const n = dir > 0 ? Math.floor(k + slack) + 1 : Math.ceil(k - slack) - 1;
  return Math.min(hi, Math.max(lo, n * step));
}
function buildJog() {
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

// ---- cameras ----
let camSel = 0, camsOn = false;
function buildCameras() {
  const g = $('camgrid');
  (info.cameras || []).forEach((c, i) => {
    const f = el('figure', { id: 'cam-' + c, class: i === 0 ? 'sel' : '' }, el('img', { alt: c, 'data-cam': c }), el('figcaption', { id: 'capt-' + c }, c));
    f.addEventListener('click', () => { camSel = i; camerasVisible(camsOn, true); });
    g.append(f);
  });
}
// camerasVisible streams the cameras only while their panel shows: a
// camera nobody watches costs nothing on the server.
function camerasVisible(on, reselect) {
  if (!info) return;
  const cams = info.cameras || [];
  if (on === camsOn && !reselect) return;
  camsOn = on;
  cams.forEach((c, i) => {
    const img = document.querySelector(`#cam-${c} img`);
    const src = on ? '/camera/' + encodeURIComponent(c) : '';
    if (!reselect) { if (on) img.src = src; else img.removeAttribute('src'); }
    $('cam-' + c).classList.toggle('sel', i === camSel);
  });
  const big = $('camlarge');
  if (on && cams.length) big.src = '/camera/' + encodeURIComponent(cams[camSel]) + '?large=1'; else big.removeAttribute('src');
}

// ---- render state ----
const trail = [];
function render() {
  control = st.holder === me && me !== 0;
  renderRole();
  const s = st.snap.servosila, f = st.snap.furbot;
  const es = (s && s.estopped) || (f && f.estopped);
  const e = $('estate');
  e.textContent = es ? 'E-STOP LATCHED' : 'e-stop: clear';
  e.className = 'pill ' + (es ? 'latched' : 'ok');
  $('banner').classList.toggle('hidden', !es);
  document.body.classList.toggle('estopped', !!es);
  if (st.error) showError(st.error);
  if (s) renderServosila(s);
  if (s) renderSchematic(s);
  if (f) renderFurbot(f);
  if (st.snap.jog) renderJog(st.snap.jog);
  renderCameras(st.snap.cameras || []);
}
function renderServosila(s) {
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
  const l = s.link;
  $('slink').innerHTML = kv({ 'packets sent': l.sent, 'send errors': l.send_errs, 'datagrams in': l.received, telemetry: l.accepted, foreign: l.foreign, malformed: l.malformed,
    'console refused': st.counters.BadMessages, 'view-only refused': st.counters.ViewOnly, 'role refused': st.counters.Role, 'refused (would run faster)': st.counters.Faster, 'rate limited': st.counters.RateLimited, 'deadman stops': st.counters.Expired + st.counters.Stops, pages: st.pages });
}
function kv(o) { return Object.entries(o).map(([k, v]) => `<div><span>${k}</span>${v}</div>`).join(''); }

function renderSchematic(s) {
  if (tab !== 'schematic') return;
  const q = s.joints; // waist, shoulder, elbow, neck, flippers, gripper [rad]
  // Side view: x forward, y up (SVG y down). Link lengths are schematic.
  const L1 = 70, L2 = 60, L3 = 22;
  let x = 20, y = -40, a = q[1];
  const p1 = [x, y], p2 = [x + L1 * Math.cos(a), y - L1 * Math.sin(a)];
  a += q[2];
  const p3 = [p2[0] + L2 * Math.cos(a), p2[1] - L2 * Math.sin(a)];
  a += q[3];
  const p4 = [p3[0] + L3 * Math.cos(a), p3[1] - L3 * Math.sin(a)];
  const fl = q[4];
  const fx = 75 + 45 * Math.cos(fl), fy = -8 - 45 * Math.sin(fl);
  const open = s.joint_known[5] ? Math.max(0.05, Math.min(0.8, Math.abs(q[5]))) : 0.3;
  const g1 = [p4[0] + 14 * Math.cos(a + open), p4[1] - 14 * Math.sin(a + open)], g2 = [p4[0] + 14 * Math.cos(a - open), p4[1] - 14 * Math.sin(a - open)];
  $('side').innerHTML = `
    <line class="ground" x1="-120" y1="12" x2="280" y2="12"/>
    <rect class="track" x="-80" y="-18" width="160" height="30" rx="15"/>
    <rect class="body" x="-70" y="-40" width="140" height="24" rx="3"/>
    <line class="flip" x1="75" y1="-8" x2="${fx}" y2="${fy}"/>
    <polyline class="arm" points="${p1} ${p2} ${p3} ${p4}"/>
    <line class="grip" x1="${p4}" x2="${g1[0]}" y1="${p4[1]}" y2="${g1[1]}"/><line class="grip" x1="${p4[0]}" y1="${p4[1]}" x2="${g2[0]}" y2="${g2[1]}"/>
    ${[p1, p2, p3, p4].map((p) => `<circle class="joint" cx="${p[0]}" cy="${p[1]}" r="3.5"/>`).join('')}
    <text x="-115" y="-135">side view · shoulder ${fmt(deg(q[1]), 1)}° elbow ${fmt(deg(q[2]), 1)}° neck ${fmt(deg(q[3]), 1)}° flippers ${s.joint_known[4] ? fmt(deg(q[4]), 1) + '°' : '?'}</text>`;
  // Top view: odom frame, x up, robot centred, heading yaw, waist q[0].
  const last = trail[trail.length - 1];
  if (!last || Math.hypot(last[0] - s.x, last[1] - s.y) > 0.02) { trail.push([s.x, s.y]); if (trail.length > 400) trail.shift(); }
  const sc = 100; // px per m
  const P = (px, py) => [(-(py - s.y) * sc).toFixed(1), (-(px - s.x) * sc).toFixed(1)];
  const gridl = []; for (let g = -140; g <= 140; g += 50) gridl.push(`<line class="gridl" x1="${g}" y1="-150" x2="${g}" y2="150"/><line class="gridl" x1="-150" y1="${g}" x2="150" y2="${g}"/>`);
  const rot = -deg(s.yaw);
  const reach = (L1 * Math.cos(q[1]) + L2 * Math.cos(q[1] + q[2])) * 0.6;
  $('top').innerHTML = `${gridl.join('')}
    <polyline class="trail" points="${trail.map((p) => P(p[0], p[1]).join(',')).join(' ')}"/>
    <g transform="rotate(${rot})">
      <rect class="track" x="-30" y="-45" width="14" height="90" rx="4"/><rect class="track" x="16" y="-45" width="14" height="90" rx="4"/>
      <rect class="body" x="-16" y="-40" width="32" height="80" rx="3"/>
      <polygon class="joint" points="0,-52 -6,-42 6,-42"/>
      <g transform="rotate(${-deg(q[0])})"><line class="arm" x1="0" y1="0" x2="0" y2="${-Math.max(10, reach)}"/><circle class="joint" r="4"/></g>
    </g>
    <text x="-145" y="-135">top view · x ${fmt(s.x, 2)} m y ${fmt(s.y, 2)} m yaw ${fmt(deg(s.yaw), 1)}° waist ${fmt(deg(q[0]), 1)}°</text>`;
  $('schemkv').innerHTML = kv({ linear: fmt(s.linear, 2) + ' m/s', angular: fmt(s.angular, 2) + ' rad/s', headlight: s.headlight ? 'on (commanded)' : 'off', telemetry: s.have_telemetry ? fmt(s.telemetry_age, 2) + ' s old' : 'none' });
}

function renderFurbot(f) {
  $('fspeed').textContent = fmt(f.speed, 2) + ' m/s';
  $('fsteer').textContent = fmt(deg(f.steer), 1) + '°';
  $('fthr').value = f.throttle; $('fbrk').value = f.brake;
  $('fbms').innerHTML = kv({ ready: f.ready ? 'yes' : 'NO', charge: fmt(f.charge, 0) + ' %', voltage: fmt(f.voltage, 1) + ' V', current: fmt(f.current, 1) + ' A',
    'cell temp': `${f.temp_lo}…${f.temp_hi} °C`, reverse: f.reverse ? 'yes' : 'no', odometry: `${fmt(f.x, 2)}, ${fmt(f.y, 2)} m · ${fmt(deg(f.yaw), 0)}°`, 'status age': fmt(f.age * 1000, 0) + ' ms', frames: f.frames, invalid: f.invalid });
  const names = ['cold', 'init', 'running', 'halted'];
  $('fsubs').innerHTML = f.subsystems.map((x) => `<div class="${x.working ? 'ok' : 'bad'}">${x.name}<small>${x.present ? (names[x.state] || 'state ' + x.state) : 'absent'}</small></div>`).join('');
}

function renderJog(j) {
  j.joints.forEach((v, i) => { const c = $('jq-' + i); if (c) c.textContent = fmt(v, 3); });
  for (const a of ['x', 'y', 'z', 'rz', 'ry', 'rx']) { const c = $('jt-' + a); if (c) c.textContent = fmt(j.tool[a], 3); }
  $('jstate').innerHTML = kv({ mode: j.mode, 'last end': j.reason || '–', targets: j.targets, heartbeat: jogHeld ? 'sending' : 'off' });
}

function renderCameras(cs) {
  for (const c of cs) {
    const cap = $('capt-' + c.name);
    if (cap) cap.textContent = `${c.name} · ${c.width}×${c.height} ${c.format} · ${fmt(c.out_fps, 1)} fps · ${fmt(c.bytes_sec / 1024, 0)} kB/s · ${c.viewers} viewer${c.viewers === 1 ? '' : 's'}`;
  }
  const sel = cs[camSel];
  if (sel) $('camlargecap').textContent = $('capt-' + sel.name).textContent;
}

connect();
