// Live video over WebRTC: the page's one RTCPeerConnection. The server
// makes every offer (signalling in "webrtc" messages on the WebSocket,
// pkg/video/peer's Message inside); the page answers, shows each camera's
// track in every view of that camera (a tile and the large view are one
// element), and opens the "commands" data channel the server creates
// (js/conn.js sends held commands on it). A camera falls back to MJPEG
// (<img>) when WebRTC cannot connect (ICE failed or timed out, the
// server refused or has no H.264) and each view says which it shows.
// Per camera: getStats figures, and the frame code's glass-to-glass
// latency (display time minus the capture time stamped in the picture,
// framecode's layout), kept in window.__latency for the tests.
import { on, send, onStatus, setChannel } from './conn.js';

const CONNECT_MS = 8000; // no video this long after the offer: MJPEG
const views = new Set(); // {name, fig, img, video, badge}
const streams = new Map(); // camera -> MediaStream
const trackCam = new Map(); // track id -> camera
const figures = new Map(); // camera -> {text, ...}
let available = false; // the server offers WebRTC
let failed = ''; // why WebRTC is not used now ('' : it is tried)
// Until WebRTC first connects or fails, views load no MJPEG: on a link of
// a few Mbit/s a camera's MJPEG (TCP) fills it and starves the WebRTC
// handshake behind it (the impaired-link run saw ICE time out so). Once
// WebRTC has failed, MJPEG stays on while it is tried again.
let fellBack = false;
let greeted = false; // the server's hello came (before it, whether it offers WebRTC is unknown)
let pc = null;
let timer = 0;
let chosen = '';
let wantSent = '';

window.__latency = {}; // camera -> {webrtc: [ms], mjpeg: [ms]}
window.__codes = {}; // camera -> {counter, transport, frames}
window.__video = { state: () => ({ available, failed, pc: pc ? pc.connectionState : 'none', dc: channelOpen(), figures: Object.fromEntries(figures) }) };

let dc = null;
const channelOpen = () => !!dc && dc.readyState === 'open';

function sig(m) { send({ type: 'webrtc', signal: m }); }

// mark records a step of the video's start in the page's performance
// timeline (performance.getEntriesByType('mark'), names 'video:...'): the
// browser tests' time-to-first-picture breakdown.
const marked = new Set();
function mark(what) {
  if (marked.has(what)) return;
  marked.add(what);
  performance.mark('video:' + what);
  if (what === 'picture') pictureDone();
}

// settled resolves once the page shows its first picture, or the video
// cannot (no camera wanted, MJPEG chosen by the fallback), or after
// SETTLE_MS at the latest: work that can wait (the drive screen's 3-D
// inset: three.js and the robot's meshes, over a second of a phone's main
// thread) waits for it, so that it does not hold up the WebRTC
// handshake's candidates and the first decoded frame.
const SETTLE_MS = 6000;
let pictureDone = () => {};
export const settled = new Promise((resolve) => { pictureDone = resolve; setTimeout(resolve, SETTLE_MS); });

/** wanted is the cameras of every shown view, in first-shown order. */
function wanted() { return [...new Set([...views].map((v) => v.name))]; }

const RETRY_MS = 30000; // after a failed connection, WebRTC is tried again
let retry = 0;

/**
 * fallback stops WebRTC and shows MJPEG with why; unless WebRTC is
 * unavailable on this server, it is tried again after RETRY_MS (a Wi-Fi
 * blackout that outlasted ICE, a peer limit that freed up).
 */
function fallback(why, final = false, fromServer = false) {
  if (failed) return;
  failed = why;
  pictureDone(); // MJPEG from now on: nothing to wait for
  fellBack = true;
  // The server's session (when the page gave up first) needs not keep
  // its encoders until its own ICE timeout.
  if (pc && !fromServer) sig({ type: 'want' });
  closePC();
  refresh();
  clearTimeout(retry);
  if (!final) retry = setTimeout(() => { if (failed === why) { failed = ''; update(); } }, RETRY_MS);
}

function closePC() {
  clearTimeout(timer);
  if (pc) { pc.onconnectionstatechange = null; pc.close(); }
  pc = null; wantSent = ''; streams.clear(); trackCam.clear(); capsSent.clear(); early = [];
  dc = null; setChannel(null);
}

function ensurePC() {
  if (pc || failed || !available) return;
  pc = new RTCPeerConnection({ iceServers: window.__iceServers || [] });
  pc.onicecandidate = (e) => {
    const c = e.candidate ? e.candidate.toJSON() : { candidate: '' };
    const out = { candidate: c.candidate || '' };
    if (c.sdpMid != null) out.sdpMid = c.sdpMid;
    if (c.sdpMLineIndex != null) out.sdpMLineIndex = c.sdpMLineIndex;
    if (c.usernameFragment != null) out.usernameFragment = c.usernameFragment;
    sig({ type: 'candidate', candidate: out });
  };
  pc.ontrack = (e) => {
    const s = e.streams[0];
    if (!s) return;
    streams.set(s.id, s);
    trackCam.set(e.track.id, s.id);
    mark('track');
    refresh();
  };
  pc.ondatachannel = (e) => {
    if (e.channel.label !== 'commands') return;
    dc = e.channel;
    dc.onopen = () => setChannel(dc);
    dc.onclose = () => { if (dc === e.channel) { dc = null; setChannel(null); } };
  };
  pc.onconnectionstatechange = () => {
    if (!pc) return;
    if (pc.connectionState === 'failed') fallback('ICE failed');
    if (pc.connectionState === 'connected') { clearTimeout(timer); mark('connected'); }
  };
  clearTimeout(timer);
  timer = setTimeout(() => { if (pc && pc.connectionState !== 'connected') fallback(`ICE timeout (${CONNECT_MS / 1000} s)`); }, CONNECT_MS);
}

// update runs once after the views of one change (a set showing attaches
// all its cameras at once: one want, not one per camera).
let updateDue = false;
function update() {
  if (updateDue) return;
  updateDue = true;
  queueMicrotask(() => { updateDue = false; updateNow(); });
}

/** updateNow tells the server which cameras the page shows (when it changed). */
function updateNow() {
  const names = wanted();
  if (!available || failed) { refresh(); return; }
  if (!names.length && !pc) { refresh(); return; }
  ensurePC();
  const ch = names.includes(chosen) ? chosen : names[0] || '';
  const key = names.join(',') + '|' + ch;
  if (key !== wantSent) {
    wantSent = key;
    sig(ch ? { type: 'want', cameras: names, chosen: ch } : { type: 'want', cameras: names });
    if (names.length) mark('want');
  }
  sendCaps();
  refresh();
}

// Candidates that come before the offer they belong to (the server may
// trickle its first candidate before the offer reaches the page) wait for
// it: added to a connection without its remote description they would be
// refused and lost.
let early = [];

async function onOffer(sdp) {
  if (!pc) return;
  mark('offer');
  try {
    await pc.setRemoteDescription({ type: 'offer', sdp });
    const waiting = early;
    early = [];
    for (const c of waiting) pc.addIceCandidate(c).catch(() => {});
    const a = await pc.createAnswer();
    await pc.setLocalDescription(a);
    sig({ type: 'answer', sdp: pc.localDescription.sdp });
    mark('answer');
  } catch (err) {
    fallback('negotiation: ' + err.message);
  }
}

on('webrtc', (m) => {
  const s = m.signal || {};
  if (s.type === 'offer') onOffer(s.sdp);
  else if (s.type === 'candidate' && pc) {
    if (!(s.candidate && s.candidate.candidate)) return;
    if (!pc.remoteDescription) { early.push(s.candidate); return; }
    pc.addIceCandidate(s.candidate).catch(() => {});
  } else if (s.type === 'error' && s.error) {
    const e = s.error;
    if (e.camera) { cameraFailed.set(e.camera, e.code + ': ' + e.message); refresh(); return; }
    if (e.code === 'unavailable') fallback(e.message, true, true);
    else if (['too-many-peers', 'too-many-cameras', 'ice-timeout', 'ice-failed', 'closed', 'negotiation'].includes(e.code)) fallback(e.message, false, true);
  }
});
const cameraFailed = new Map(); // camera -> why it shows MJPEG

// ?transport=mjpeg in the page's address shows MJPEG only (a comparison,
// or a network known to block UDP).
const forceMJPEG = new URLSearchParams(location.search).get('transport') === 'mjpeg';

on('hello', (m) => {
  closePC(); clearTimeout(retry);
  greeted = true;
  mark('hello');
  if (!(m.info && m.info.cameras && m.info.cameras.length)) pictureDone(); // no camera: no picture to wait for
  available = !!(m.webrtc && m.webrtc.available) && !forceMJPEG;
  failed = available ? '' : forceMJPEG ? 'chosen in the address (transport=mjpeg)' : 'WebRTC unavailable: ' + ((m.webrtc && m.webrtc.reason) || 'old server');
  cameraFailed.clear();
  window.__iceServers = (m.webrtc && m.webrtc.ice_servers) || [];
  update();
});
onStatus((open) => { if (!open) { closePC(); refresh(); } });

/** transport returns how camera name shows now: 'webrtc' (its track came) or 'mjpeg'. */
function transport(name) { return !failed && !cameraFailed.has(name) && streams.has(name) ? 'webrtc' : 'mjpeg'; }

function why(name) {
  if (failed) return failed;
  if (cameraFailed.has(name)) return cameraFailed.get(name);
  return available ? 'WebRTC connecting' : 'WebRTC unavailable';
}

/** refresh points every view at its transport and labels it. */
function refresh() {
  for (const v of views) {
    const t = transport(v.name);
    if (t === 'webrtc') {
      if (v.video.srcObject !== streams.get(v.name)) { v.video.srcObject = streams.get(v.name); v.video.play().catch(() => {}); }
      v.video.hidden = false; v.img.hidden = true;
      if (v.img.getAttribute('src')) v.img.removeAttribute('src');
    } else if ((!greeted && !forceMJPEG) || (available && !failed && !fellBack && !cameraFailed.has(v.name))) { // first connection: nothing yet
      if (v.video.srcObject) v.video.srcObject = null;
      v.video.hidden = false; v.img.hidden = true;
      if (v.img.getAttribute('src')) v.img.removeAttribute('src');
    } else {
      if (v.video.srcObject) v.video.srcObject = null;
      v.video.hidden = true; v.img.hidden = false;
      const src = '/camera/' + encodeURIComponent(v.name);
      if (v.img.getAttribute('src') !== src) v.img.src = src;
    }
    const connecting = t === 'mjpeg' && v.img.hidden;
    v.fig.dataset.transport = connecting ? 'connecting' : t;
    const f = figures.get(v.name);
    v.badge.textContent = connecting ? 'WebRTC connecting' : (t === 'webrtc' ? 'WebRTC H.264' : 'MJPEG fallback: ' + why(v.name)) + (f && t === 'webrtc' ? ' · ' + f.text : '');
  }
}

/**
 * attach shows camera name in view {fig, img, video, badge} (over WebRTC
 * when it can); detach stops it.
 */
export function attach(v) { views.add(v); probe(v); update(); }
export function detach(v) {
  views.delete(v); v.probing = false;
  v.img.removeAttribute('src'); v.video.srcObject = null;
  update();
}

// caps are the page's limits per camera (peer's caps message: maxBitrate
// [bit/s], frameRate, width, height), sent once the camera is wanted and
// again to every new session.
const caps = new Map(); // camera -> caps object
const capsSent = new Map(); // camera -> JSON sent to this session

function sendCaps() {
  if (!pc || failed) return;
  for (const name of wanted()) {
    const c = caps.get(name);
    if (!c) continue;
    const j = JSON.stringify(c);
    if (capsSent.get(name) === j) continue;
    capsSent.set(name, j);
    sig({ type: 'caps', camera: name, caps: c });
  }
}

/** setCaps sets camera name's caps ({} : none). */
export function setCaps(name, c) { caps.set(name, c); sendCaps(); }

/** choose makes camera name first in the server's bandwidth split. */
export function choose(name) { chosen = name; update(); }

// ---- figures from getStats ----
const prevStats = new Map(); // camera -> {bytes, t}
setInterval(async () => {
  if (!pc || pc.connectionState !== 'connected') return;
  const rep = await pc.getStats();
  let rtt = null;
  rep.forEach((r) => { if (r.type === 'candidate-pair' && r.nominated && r.currentRoundTripTime != null) rtt = r.currentRoundTripTime; });
  rep.forEach((r) => {
    if (r.type !== 'inbound-rtp' || r.kind !== 'video') return;
    const name = trackCam.get(r.trackIdentifier);
    if (!name) return;
    const p = prevStats.get(name);
    const kbps = p ? (8 * (r.bytesReceived - p.bytes)) / (r.timestamp - p.t) : 0;
    prevStats.set(name, { bytes: r.bytesReceived, t: r.timestamp });
    const lost = r.packetsLost || 0, got = r.packetsReceived || 0;
    const f = {
      kbps: Math.round(kbps), fps: r.framesPerSecond || 0, rtt_ms: rtt == null ? null : Math.round(rtt * 1000),
      loss: got + lost ? lost / (got + lost) : 0, freezes: r.freezeCount || 0, freeze_s: r.totalFreezesDuration || 0,
      width: r.frameWidth || 0, height: r.frameHeight || 0,
    };
    f.text = `${f.kbps} kbit/s · ${f.fps} fps · RTT ${f.rtt_ms == null ? '?' : f.rtt_ms} ms · loss ${(100 * f.loss).toFixed(1)} % · ${f.freezes} freezes`;
    figures.set(name, f);
  });
  refresh();
}, 1000);

// ---- the frame code: glass-to-glass latency ----
const canvas = document.createElement('canvas');
canvas.width = 320; canvas.height = 16;
const g = canvas.getContext('2d', { willReadFrequently: true });

/** readCode reads framecode's band from a drawn picture of width w [px]: {ms, counter} or null. */
function readCode(src, w, h) {
  if (!w || !h) return null;
  g.drawImage(src, 0, 0, w, w / 20, 0, 0, 320, 16);
  const px = g.getImageData(0, 0, 320, 16).data;
  const cell = (i) => { // mean of the cell's central half: 4 x 4 px
    const c = i % 40, r = Math.floor(i / 40);
    let s = 0;
    for (let y = r * 8 + 2; y < r * 8 + 6; y++) for (let x = c * 8 + 2; x < c * 8 + 6; x++) { const o = 4 * (y * 320 + x); s += px[o] + px[o + 1] + px[o + 2]; }
    return s / 48;
  };
  const white = (cell(0) + cell(2)) / 2, black = (cell(1) + cell(3)) / 2;
  if (white - black < 64) return null;
  const th = (white + black) / 2;
  const bytes = new Uint8Array(9);
  for (let b = 0; b < 72; b++) if (cell(4 + b) > th) bytes[b >> 3] |= 0x80 >> (b & 7);
  let crc = 0;
  for (let i = 0; i < 8; i++) { crc ^= bytes[i]; for (let k = 0; k < 8; k++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff; }
  if (crc !== bytes[8]) return null;
  let ms = 0;
  for (let i = 0; i < 6; i++) ms = ms * 256 + bytes[i];
  return { ms, counter: (bytes[6] << 8) | bytes[7] };
}

function record(name, t, code, displayWall) {
  const c = window.__codes[name] || (window.__codes[name] = { counter: -1, frames: 0, transport: t });
  if (code.counter === c.counter && c.transport === t) return;
  c.counter = code.counter; c.transport = t; c.frames++;
  const l = window.__latency[name] || (window.__latency[name] = { webrtc: [], mjpeg: [] });
  const arr = l[t];
  arr.push(displayWall - code.ms);
  if (arr.length > 3000) arr.shift();
}

// Reading a picture back costs the page's main thread a frame copy: the
// chosen camera's pictures are all read, the others' at most every
// OTHER_MS (enough to see their codes advance); window.__probeAll reads
// every picture of every camera.
const OTHER_MS = 250;
const due = (v) => {
  if (v.name === chosen || window.__probeAll) return true;
  const t = performance.now();
  if (t - (v.probedAt || 0) < OTHER_MS) return false;
  v.probedAt = t;
  return true;
};

/** probe reads the frame code of every picture the view shows (see due). */
function probe(v) {
  if (v.probing) return;
  v.probing = true;
  const onVideo = (now, meta) => {
    if (!views.has(v)) { v.probing = false; return; }
    if (!v.video.hidden) mark('picture');
    if (!v.video.hidden && due(v)) {
      const code = readCode(v.video, v.video.videoWidth, v.video.videoHeight);
      if (code) record(v.name, 'webrtc', code, Date.now() + (meta.expectedDisplayTime - performance.now()));
    }
    v.video.requestVideoFrameCallback(onVideo);
  };
  if ('requestVideoFrameCallback' in HTMLVideoElement.prototype) v.video.requestVideoFrameCallback(onVideo);
  // MJPEG: an <img> has no frame callback; it is read on every animation
  // frame and a new counter is a new picture (displayed at this frame).
  const onImg = () => {
    if (!views.has(v)) return;
    if (!v.img.hidden && v.img.complete && v.img.naturalWidth) mark('picture');
    if (!v.img.hidden && v.img.complete && v.img.naturalWidth && due(v)) {
      const code = readCode(v.img, v.img.naturalWidth, v.img.naturalHeight);
      if (code) record(v.name, 'mjpeg', code, Date.now());
    }
    requestAnimationFrame(onImg);
  };
  requestAnimationFrame(onImg);
}
