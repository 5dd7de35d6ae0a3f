// The cameras: a set of live views (over WebRTC, one track per camera
// for the whole page, js/video.js; MJPEG as the fallback, one stream per
// camera per set), one of them shown large by CSS (the selected figure),
// the others as thumbnails; a click on a thumbnail swaps. The same
// element serves as thumbnail and as large view, so selecting opens no
// second stream; the selected camera is first in the server's bandwidth
// split. Each view says which transport it shows.
// Streams run only while their set shows: a camera nobody watches costs
// nothing on the server. The Cameras panel is one such set with each
// camera's figures; the drive screen has its own (drive.js).
import { $, el, fmt } from '../js/util.js';
import { ctx } from '../js/core.js';
import { attach, detach, choose, setCaps } from '../js/video.js';

/**
 * cameraSet fills container with a figure per camera (ids prefix + name,
 * captions capPrefix + name) and returns {show(on), select(i), selected()}.
 * onSelect(i) is called after a click swapped the large view.
 */
export function cameraSet(container, prefix, capPrefix, onSelect = () => {}) {
  const cams = ctx.info.cameras || [];
  let sel = 0, on = false;
  const views = [];
  const figs = cams.map((c, i) => {
    const img = el('img', { alt: c, 'data-cam': c });
    const video = el('video', { 'data-cam': c, muted: '', playsinline: '', autoplay: '' });
    video.muted = true; video.hidden = true;
    const badge = el('span', { class: 'vbadge', id: prefix + 'tr-' + c }, '');
    const f = el('figure', { id: prefix + c, class: i === 0 ? 'sel' : '' }, el('div', { class: 'vbox' }, img, video, badge), el('figcaption', { id: capPrefix + c }, c));
    f.addEventListener('click', () => { set.select(i); onSelect(i); });
    container.append(f);
    views.push({ name: c, fig: f, img, video, badge });
    return f;
  });
  const set = {
    show(v) {
      if (v === on) return;
      on = v;
      for (const v of views) { if (on) attach(v); else detach(v); }
      if (on && cams.length) choose(cams[sel]);
    },
    select(i) {
      sel = Math.max(0, Math.min(cams.length - 1, i));
      figs.forEach((f, j) => f.classList.toggle('sel', j === sel));
      if (on && cams.length) choose(cams[sel]);
    },
    selected: () => sel,
    names: cams,
  };
  return set;
}

/** caption is a camera's line of figures: size, format, MJPEG rate and bytes per second (while watched), H.264 target (while watched), viewers of both. */
export function caption(c) {
  const n = c.viewers + (c.video_viewers || 0);
  const mjpeg = c.viewers || !c.video_viewers ? ` · MJPEG ${fmt(c.out_fps, 1)} fps ${fmt(c.bytes_sec / 1024, 0)} kB/s` : '';
  const h264 = c.video_viewers ? ` · H.264 ${fmt(c.video_bitrate / 1000, 0)} kbit/s` : '';
  return `${c.name} · ${c.width}×${c.height} ${c.format}${mjpeg}${h264} · ${n} viewer${n === 1 ? '' : 's'}`;
}

let set = null;

// The caps a page may set per camera over WebRTC, kept in this browser:
// the most of the link it may take [bit/s], the largest picture and the
// most frames a second (0 or '': the link's share and the camera decide).
// A smaller size or rate gets an encoder of its own on the robot, shared
// by every page that asks for the same.
const BITRATES = [0, 250000, 500000, 1000000, 2000000, 4000000];
const SIZES = ['', '320x240', '160x120'];
const RATES = [0, 15, 10, 5];
const CAPS_STORE = 'telebridge.video.caps';

/** capsOf turns a camera's saved choice into the peer's caps message. */
export function capsOf(saved) {
  const c = {};
  if (saved.b) c.maxBitrate = saved.b;
  if (saved.s) { const [w, h] = saved.s.split('x').map(Number); c.width = w; c.height = h; }
  if (saved.f) c.frameRate = saved.f;
  return c;
}

function select(id, values, label, value, onChange) {
  const sel = el('select', { id });
  for (const v of values) sel.append(el('option', { value: String(v) }, label(v)));
  sel.value = String(values.includes(value) ? value : values[0]);
  sel.addEventListener('change', () => onChange(sel.value));
  return sel;
}

function build() {
  set = cameraSet($('camgrid'), 'cam-', 'capt-', () => render(ctx.st));
  let saved = {};
  try { saved = JSON.parse(localStorage.getItem(CAPS_STORE) || '{}'); } catch { saved = {}; }
  const row = $('camcaps');
  for (const c of set.names) {
    // (an older page kept only a number: the bitrate)
    const mine = typeof saved[c] === 'number' ? { b: saved[c] } : (saved[c] || {});
    saved[c] = mine;
    const apply = () => {
      try { localStorage.setItem(CAPS_STORE, JSON.stringify(saved)); } catch { /* private mode */ }
      setCaps(c, capsOf(mine));
    };
    const bit = select('capsel-' + c, BITRATES, (v) => (v ? `${v / 1000} kbit/s` : 'no cap'), mine.b || 0,
      (v) => { mine.b = Number(v); apply(); });
    const size = select('capsize-' + c, SIZES, (v) => v ? v.replace('x', '×') : 'camera size', mine.s || '',
      (v) => { mine.s = v; apply(); });
    const fps = select('capfps-' + c, RATES, (v) => (v ? `${v} fps` : 'camera fps'), mine.f || 0,
      (v) => { mine.f = Number(v); apply(); });
    if (mine.b || mine.s || mine.f) setCaps(c, capsOf(mine));
    row.append(el('label', {}, el('span', {}, c + ' '), bit, size, fps));
  }
}

function render(st) {
  if (!set || !st) return;
  const cs = st.snap.cameras || [];
  for (const c of cs) { const cap = $('capt-' + c.name); if (cap) cap.textContent = caption(c); }
  const sel = cs.find((c) => c.name === set.names[set.selected()]);
  if (sel) $('camlargecap').textContent = caption(sel);
}

// The view's markup (app.js puts it in its <section> and adds its tab).
const html = `
  <div class="cams">
    <div id="camgrid" class="camgrid"></div>
    <div id="camlargecap" class="cap"></div>
    <div id="camcaps" class="camcaps" title="per camera over WebRTC: the most it may take of the link, its largest picture and frame rate"><span>H.264 caps:</span></div>
  </div>
`;

export default {
  id: 'cameras', html, label: 'Cameras',
  available: (info) => !!(info.cameras && info.cameras.length),
  build, render,
  visible: (on) => { if (set) set.show(on); },
};
