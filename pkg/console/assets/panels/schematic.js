// The Servosila schematic: a side view (chassis, tracks, flippers, arm,
// gripper) and a top view (heading, waist, the odometry trail on a 0.5 m
// grid), in SVG from telemetry and dead-reckoning odometry. The side view
// is also the drive screen's arm pose (drawSide).
import { $, fmt, deg, kv } from '../js/util.js';
import { ctx } from '../js/core.js';

// Link lengths of the drawing [px of the viewBox]: schematic, not to scale.
const L1 = 70, L2 = 60, L3 = 22;

/** drawSide draws Servosila state s's side view into svg (viewBox -120 -150 400 230); label adds the joint angles. */
export function drawSide(svg, s, label = true) {
  const q = s.joints; // waist, shoulder, elbow, neck, flippers, gripper [rad]
  // Side view: x forward, y up (SVG y down).
  const x = 20, y = -40;
  let a = q[1];
  const p1 = [x, y], p2 = [x + L1 * Math.cos(a), y - L1 * Math.sin(a)];
  a += q[2];
  const p3 = [p2[0] + L2 * Math.cos(a), p2[1] - L2 * Math.sin(a)];
  a += q[3];
  const p4 = [p3[0] + L3 * Math.cos(a), p3[1] - L3 * Math.sin(a)];
  const fl = q[4];
  const fx = 75 + 45 * Math.cos(fl), fy = -8 - 45 * Math.sin(fl);
  const open = s.joint_known[5] ? Math.max(0.05, Math.min(0.8, Math.abs(q[5]))) : 0.3;
  const g1 = [p4[0] + 14 * Math.cos(a + open), p4[1] - 14 * Math.sin(a + open)], g2 = [p4[0] + 14 * Math.cos(a - open), p4[1] - 14 * Math.sin(a - open)];
  svg.innerHTML = `
    <line class="ground" x1="-120" y1="12" x2="280" y2="12"/>
    <rect class="track" x="-80" y="-18" width="160" height="30" rx="15"/>
    <rect class="body" x="-70" y="-40" width="140" height="24" rx="3"/>
    <line class="flip" x1="75" y1="-8" x2="${fx}" y2="${fy}"/>
    <polyline class="arm" points="${p1} ${p2} ${p3} ${p4}"/>
    <line class="grip" x1="${p4[0]}" y1="${p4[1]}" x2="${g1[0]}" y2="${g1[1]}"/><line class="grip" x1="${p4[0]}" y1="${p4[1]}" x2="${g2[0]}" y2="${g2[1]}"/>
    ${[p1, p2, p3, p4].map((p) => `<circle class="joint" cx="${p[0]}" cy="${p[1]}" r="3.5"/>`).join('')}
    ${label ? `<text x="-115" y="-135">side view · shoulder ${fmt(deg(q[1]), 1)}° elbow ${fmt(deg(q[2]), 1)}° neck ${fmt(deg(q[3]), 1)}° flippers ${s.joint_known[4] ? fmt(deg(q[4]), 1) + '°' : '?'}</text>` : ''}`;
}

const trail = [];

function render(st) {
  const s = st.snap.servosila;
  if (!s) return;
  // The trail grows whatever shows, so it is complete when the panel opens.
  const lastp = trail[trail.length - 1];
  if (!lastp || Math.hypot(lastp[0] - s.x, lastp[1] - s.y) > 0.02) { trail.push([s.x, s.y]); if (trail.length > 400) trail.shift(); }
  if (ctx.tab !== 'schematic') return;
  drawSide($('side'), s);
  const q = s.joints;
  // Top view: odom frame, x up, robot centred, heading yaw, waist q[0].
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

// The view's markup (app.js puts it in its <section> and adds its tab).
const html = `
  <div class="card wide">
    <h2>Schematic <small>from telemetry (arm) and odometry (pose) · <a href="robot3d.html" target="_blank">3-D view and balance</a></small></h2>
    <div class="schem">
      <svg id="side" viewBox="-120 -150 400 230"></svg>
      <svg id="top" viewBox="-150 -150 300 300"></svg>
    </div>
    <div id="schemkv" class="kv"></div>
  </div>
`;

export default {
  id: 'schematic', html, label: 'Schematic',
  available: (info) => !!info.servosila,
  build: () => {}, render,
};
