// robot3d-page.js: the page /robot3d.html, the 3-D view of the Servosila
// on a page of its own (the drive screen mounts robot3d.js the same way):
// one WebSocket to the console, the URDF from /robot/servosila.
import { mount } from './robot3d.js';
import { balanceReadout } from './balance-view.js';
import { stateReader } from './js/patch.js';

const $ = (id) => document.getElementById(id);
const JOINTS = ['waist', 'shoulder', 'elbow', 'neck', 'flippers', 'gripper'];
let ws = null, me = 0, view = null;

function showError(t) { $('msg').textContent = t; }
function send(m) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(m)); }
const readout = balanceReadout($('balance'), send);
$('take').addEventListener('click', () => send({ type: 'take_control' }));

async function start() {
  const r = await fetch('/robot/servosila', { credentials: 'same-origin' });
  if (!r.ok) { showError(`robot description: ${r.status} ${await r.text()}`); return; }
  view = mount($('view3d'), { urdfText: await r.text(), onError: showError });
  window.robot3d = view; // for the browser test
  connect();
}

function connect() {
  ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws');
  ws.onopen = () => { $('link').textContent = 'connected'; $('link').className = 'pill ok'; };
  ws.onclose = () => { $('link').textContent = 'disconnected: reconnecting'; $('link').className = 'pill bad'; me = 0; setTimeout(connect, 1000); };
  const readState = stateReader(); // a new socket starts with a whole state
  ws.onmessage = (ev) => {
    const m = readState(JSON.parse(ev.data));
    if (!m) return;
    if (m.type === 'hello') me = m.page;
    else if (m.type === 'error') showError(m.error);
    else if (m.type === 'state') state(m);
  };
}

function state(m) {
  const control = m.holder === me && me !== 0;
  $('role').textContent = control ? 'IN CONTROL' : 'VIEW ONLY';
  $('role').className = 'pill ' + (control ? 'ok' : 'warn');
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
