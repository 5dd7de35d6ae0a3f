// The cameras: a set of live views (one MJPEG stream per camera per set),
// one of them shown large by CSS (the selected figure), the others as
// thumbnails; a click on a thumbnail swaps. The same <img> serves as
// thumbnail and as large view, so selecting opens no second stream.
// Streams run only while their set shows: a camera nobody watches costs
// nothing on the server. The Cameras panel is one such set with each
// camera's figures; the drive screen has its own (drive.js).
import { $, el, fmt } from '../js/util.js';
import { ctx } from '../js/core.js';

/**
 * cameraSet fills container with a figure per camera (ids prefix + name,
 * captions capPrefix + name) and returns {show(on), select(i), selected()}.
 * onSelect(i) is called after a click swapped the large view.
 */
export function cameraSet(container, prefix, capPrefix, onSelect = () => {}) {
  const cams = ctx.info.cameras || [];
  let sel = 0, on = false;
  const figs = cams.map((c, i) => {
    const f = el('figure', { id: prefix + c, class: i === 0 ? 'sel' : '' }, el('img', { alt: c, 'data-cam': c }), el('figcaption', { id: capPrefix + c }, c));
    f.addEventListener('click', () => { set.select(i); onSelect(i); });
    container.append(f);
    return f;
  });
  const set = {
    show(v) {
      if (v === on) return;
      on = v;
      cams.forEach((c, i) => {
        const img = figs[i].querySelector('img');
        if (on) img.src = '/camera/' + encodeURIComponent(c); else img.removeAttribute('src');
      });
    },
    select(i) {
      sel = Math.max(0, Math.min(cams.length - 1, i));
      figs.forEach((f, j) => f.classList.toggle('sel', j === sel));
    },
    selected: () => sel,
    names: cams,
  };
  return set;
}

/** caption is a camera's line of figures: size, format, rate, bytes per second, viewers. */
export function caption(c) {
  return `${c.name} · ${c.width}×${c.height} ${c.format} · ${fmt(c.out_fps, 1)} fps · ${fmt(c.bytes_sec / 1024, 0)} kB/s · ${c.viewers} viewer${c.viewers === 1 ? '' : 's'}`;
}

let set = null;

function build() { set = cameraSet($('camgrid'), 'cam-', 'capt-', () => render(ctx.st)); }

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
  </div>
`;

export default {
  id: 'cameras', html, label: 'Cameras',
  available: (info) => !!(info.cameras && info.cameras.length),
  build, render,
  visible: (on) => { if (set) set.show(on); },
};
