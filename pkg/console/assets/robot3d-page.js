// robot3d-page.js: the page /robot3d.html, a machine in 3-D on a page of
// its own (the drive screen mounts robot3d.js the same way): one
// WebSocket to the console, the URDF from /robot/MACHINE.
//   /robot3d.html                  the Servosila: arm joints, odometry, static balance
//   /robot3d.html?machine=furbot   the Furbot: steered front wheels, odometry
// Both join to watch (/ws?watch=1): opened first, the page does not take
// control from the operator's page. The Servosila's page may take control
// (to enter the slope of the balance readout); every 3-D page shows the
// E-STOP, and Space presses it, as on the console's page.
import { mount } from './robot3d.js';
import { balanceReadout } from './balance-view.js';
import { stateReader } from './js/patch.js';

const $ = (id) => document.getElementById(id);
const JOINTS = ['waist', 'shoulder', 'elbow', 'neck', 'flippers', 'gripper'];
const machine = new URLSearchParams(location.search).get('machine') === 'furbot' ? 'furbot' : 'servosila';
let ws = null, me = 0, view = null, steering = null, roles = '';

function showError(t) { $('msg').textContent = t; }
function send(m) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(m)); }
const readout = balanceReadout($('balance'), send);
$('take').addEventListener('click', () => send({ type: 'take_control' }));
$('leave').addEventListener('click', () => send({ type: 'release_control' }));

// The E-STOP acts on the press (a finger on a touch screen may make no
// click); Space presses it from anywhere on the page, also while typing.
function estop() {
  send({ type: 'estop' });
  document.body.dataset.estop = String(Date.now()); // for the browser test
}
let pressed = 0;
$('estop').addEventListener('pointerdown', (e) => { e.preventDefault(); pressed = Date.now(); estop(); });
$('estop').addEventListener('click', () => { if (Date.now() - pressed > 1000) estop(); });
document.addEventListener('keydown', (e) => {
  if (e.key === ' ' || e.code === 'Space') { e.preventDefault(); estop(); }
});

async function start() {
  if (machine === 'furbot') {
    document.title = 'telebridge: Furbot in 3-D';
    $('title').textContent = 'Furbot in 3-D';
    $('what').textContent = 'URDF, steered front wheels, odometry trail; drag to orbit, wheel to zoom';
    $('balcard').hidden = true; // the balance model is the Servosila's
  } else {
    $('title').textContent = 'Servosila in 3-D';
  }
  const r = await fetch(`/robot/${machine}`, { credentials: 'same-origin' });
  if (!r.ok) { showError(`robot description: ${r.status} ${await r.text()}`); return; }
  view = mount($('view3d'), { urdfText: await r.text(), onError: showError, fit: machine === 'furbot' });
  if (machine === 'furbot') steering = furbotSteering(view.robot);
  window.robot3d = view; // for the browser test
  connect();
}

// furbotSteering returns a function from the measured steering angle
// (the bicycle model's virtual wheel in the middle of the front axle,
// positive left [rad]) to the two front steering joints, with the
// wheelbase and front track of the URDF drawn: the inner wheel turns
// more. The formula is pkg/furbot/control.AckermannAngles' (the browser
// test compares the two).
function furbotSteering(robot) {
  const j = robot && robot.joints;
  const fl = j && j.front_left_steering_joint, fr = j && j.front_right_steering_joint, rl = j && j.rear_left_wheel_joint;
  if (!fl || !fr || !rl) return null;
  const L = fl.position.x - rl.position.x, T = fl.position.y - fr.position.y;
  return (delta) => {
    const t = Math.tan(delta);
    return {
      front_left_steering_joint: Math.atan2(L * t, L - (T / 2) * t),
      front_right_steering_joint: Math.atan2(L * t, L + (T / 2) * t),
    };
  };
}

setInterval(() => { if (ws && ws.readyState === 1) ws.send(document.hidden ? '{"type":"beat","hidden":true}' : '{"type":"beat"}'); }, 250);

function connect() {
  // A view: it joins to watch, so that, opened first, it does not take
  // control from the operator's page. beat=1: its script's beat proves it
  // runs (console.MsgBeat), as the console's own page does; a frozen 3-D
  // page then frees a lease it took.
  ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws?watch=1&beat=1');
  ws.onopen = () => { $('link').textContent = 'connected'; $('link').className = 'pill ok'; };
  ws.onclose = () => { $('link').textContent = 'disconnected: reconnecting'; $('link').className = 'pill bad'; me = 0; setTimeout(connect, 1000); };
  const readState = stateReader(); // a new socket starts with a whole state
  ws.onmessage = (ev) => {
    const m = readState(JSON.parse(ev.data));
    if (!m) return;
    if (m.type === 'hello') { me = m.page; roles = m.roles || ''; }
    else if (m.type === 'error') showError(m.error);
    else if (m.type === 'state') state(m);
  };
}

function state(m) {
  const control = m.holder === me && me !== 0;
  $('role').textContent = control ? 'IN CONTROL' : 'VIEW ONLY';
  $('role').className = 'pill ' + (control ? 'ok' : 'warn');
  // Take control only where something here needs it (the Servosila's
  // slope) and the operator may move a machine; never with control held.
  const may = machine === 'servosila' && (roles === '' || /drive|arm|admin/.test(roles));
  $('take').classList.toggle('hidden', control || !may);
  $('leave').classList.toggle('hidden', !control);
  const s0 = m.snap && m.snap.servosila, f0 = m.snap && m.snap.furbot;
  const es = (s0 && s0.estopped) || (f0 && f0.estopped);
  $('estate').textContent = es ? 'E-STOP LATCHED' : 'e-stop: clear';
  $('estate').className = 'pill ' + (es ? 'latched' : 'ok');
  if (machine === 'furbot') {
    const f = m.snap && m.snap.furbot;
    window.robot3dFurbot = f; // for the browser test
    if (f && view) {
      if (steering && Number.isFinite(f.steer)) view.setJoints(steering(f.steer));
      view.setOdometry(f.x, f.y, f.yaw);
    }
    return;
  }
  const s = m.snap && m.snap.servosila;
  if (s && view) {
    const q = {};
    JOINTS.forEach((n, i) => { if (!s.joint_known || s.joint_known[i]) q[n] = s.joints[i]; });
    view.setJoints(q);
    view.setOdometry(s.x, s.y, s.yaw);
  }
  if (view) view.setBalance(m.balance && !m.balance.error ? m.balance : null);
  readout.update(m.balance);
}

start().catch((e) => showError(String(e)));
