// robot3d.js: the robot in 3-D from its URDF (three.js and urdf-loader,
// vendored in ./vendor), with its live joints, the odometry trail, the
// cameras' frustums and its static balance (centre of mass, its
// projection along gravity, the support polygon; red when the server
// warns). Frames are ROS's: z up, x forward, metres and radians.
//
//   const view = mount(container, { urdfText, onError, fit });  // fit: frame the robot, follow it
//   view.setJoints({ waist: 0.3 });       // name -> rad (or m)
//   view.setOdometry(x, y, yaw);          // odom [m, rad]: pose and trail
//   view.setBalance({ com, projection, polygon, margin, warn, assumed, ground_z });
//   view.dispose();
//
// It draws only when something changed (a setter, a drag of the orbit, a
// resize): no animation loop runs while the robot stands still.
import * as THREE from './vendor/three.module.js';
import { OrbitControls } from './vendor/OrbitControls.js';
import URDFLoader from './vendor/URDFLoader.js';

// Camera frustums: the URDF gives the cameras' poses (links named
// *camera_link, x along the lens axis) but not their optics. The depth and
// field of view drawn are these constants.
export const FRUSTUM = { depth: 0.35, hfov: (70 * Math.PI) / 180, aspect: 4 / 3 };
const TRAIL = 500; // odometry poses kept
const OK = 0x3fb950, BAD = 0xf85149, TRAILC = 0x4aa3ff;

// mount draws the robot of urdfText into container and returns its view.
// onError(message) hears what cannot be drawn (a mesh, a texture). The
// default view frames a robot of the Servosila's size (under a metre);
// fit frames the robot drawn instead, from the same direction, and moves
// the view along with the robot's odometry (a vehicle of a few metres
// that drives out of a fixed view in seconds).
export function mount(container, { urdfText, onError = () => {}, trail = TRAIL, fit = false } = {}) {
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  renderer.setClearColor(0x0e1114);
  const canvas = renderer.domElement;
  canvas.className = 'robot3d';
  container.append(canvas);
  if (getComputedStyle(container).position === 'static') container.style.position = 'relative';
  // The balance in words, over the view (the view is self-contained: a
  // page that mounts it alone still says the margin and that the masses
  // are assumed).
  const label = document.createElement('div');
  label.className = 'robot3d-label';
  Object.assign(label.style, { position: 'absolute', left: '8px', bottom: '6px', font: '12px system-ui, sans-serif', color: '#d8dee4',
    background: 'rgba(14,17,20,.75)', padding: '2px 6px', borderRadius: '4px', pointerEvents: 'none', maxWidth: '90%' });
  label.hidden = true;
  container.append(label);

  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(45, 1, 0.02, 100);
  camera.up.set(0, 0, 1);
  camera.position.set(-0.95, -1.15, 0.8);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x303840, 2.2));
  const sun = new THREE.DirectionalLight(0xffffff, 1.6);
  sun.position.set(2, -3, 5);
  scene.add(sun);

  const grid = new THREE.GridHelper(10, 20, 0x3a4550, 0x222a31); // 0.5 m squares
  grid.rotation.x = Math.PI / 2; // into the xy plane
  scene.add(grid);

  // odom -> base_link; the robot's base frame is lifted so that its
  // ground plane (ground_z in base_link) lies on the grid.
  const odom = new THREE.Group();
  scene.add(odom);
  const base = new THREE.Group();
  odom.add(base);

  // Nothing is fetched: meshes and textures are refused, every URL the
  // loader would resolve becomes an empty data URL.
  const manager = new THREE.LoadingManager();
  manager.setURLModifier((url) => {
    if (!url.startsWith('data:')) onError(`not loaded: ${url} (the console fetches no file for the 3-D view)`);
    return 'data:,';
  });
  const loader = new URDFLoader(manager);
  loader.loadMeshCb = (path, _m, _mat, done) => done(null, new Error(`mesh ${path} not loaded: primitive geometry only`));
  loader.parseCollision = false;
  let robot = null;
  try {
    robot = loader.parse(urdfText);
    base.add(robot);
  } catch (e) {
    onError(`URDF: ${e.message || e}`);
  }
  let groundZ = 0;
  if (robot) {
    // Until the balance says where the ground is: the lowest point drawn.
    const box = new THREE.Box3().setFromObject(robot);
    if (isFinite(box.min.z)) groundZ = box.min.z;
  }
  base.position.z = -groundZ;

  // Camera frustums, on every link whose name ends in camera_link.
  const frustums = [];
  if (robot) {
    const d = FRUSTUM.depth, w = d * Math.tan(FRUSTUM.hfov / 2), h = w / FRUSTUM.aspect;
    const c = [[d, w, h], [d, -w, h], [d, -w, -h], [d, w, -h]];
    const pts = [];
    for (let i = 0; i < 4; i++) {
      pts.push(0, 0, 0, ...c[i]);
      pts.push(...c[i], ...c[(i + 1) % 4]);
    }
    for (const [name, link] of Object.entries(robot.links)) {
      if (!/camera_link$/.test(name)) continue;
      const g = new THREE.BufferGeometry();
      g.setAttribute('position', new THREE.Float32BufferAttribute(pts, 3));
      const f = new THREE.LineSegments(g, new THREE.LineBasicMaterial({ color: 0xe3b341 }));
      f.name = 'frustum:' + name;
      link.add(f);
      frustums.push(name);
    }
  }

  // Odometry trail in odom, just above the grid.
  const trailPos = new Float32Array(trail * 3);
  const trailGeom = new THREE.BufferGeometry();
  trailGeom.setAttribute('position', new THREE.BufferAttribute(trailPos, 3));
  trailGeom.setDrawRange(0, 0);
  scene.add(new THREE.Line(trailGeom, new THREE.LineBasicMaterial({ color: TRAILC })));
  let trailN = 0;

  // Balance, in base_link (it moves with the robot).
  const bal = new THREE.Group();
  bal.visible = false;
  base.add(bal);
  const balMat = new THREE.MeshBasicMaterial({ color: OK, depthTest: false, transparent: true });
  const balLine = new THREE.LineBasicMaterial({ color: OK, depthTest: false, transparent: true });
  const com = new THREE.Mesh(new THREE.SphereGeometry(0.03, 16, 12), balMat);
  const proj = new THREE.Mesh(new THREE.RingGeometry(0.02, 0.035, 24), balMat);
  const plumbGeom = new THREE.BufferGeometry();
  plumbGeom.setAttribute('position', new THREE.BufferAttribute(new Float32Array(6), 3));
  const plumb = new THREE.Line(plumbGeom, balLine);
  const polyGeom = new THREE.BufferGeometry();
  const poly = new THREE.LineLoop(polyGeom, balLine);
  for (const o of [com, proj, plumb, poly]) { o.renderOrder = 10; bal.add(o); }

  const controls = new OrbitControls(camera, canvas);
  controls.target.set(0.1, 0, 0.15);
  if (fit && robot) {
    // The same direction as the default view, at a distance that shows
    // the whole robot (its bounding sphere within the vertical field).
    const sphere = new THREE.Box3().setFromObject(base).getBoundingSphere(new THREE.Sphere());
    if (sphere.radius > 0 && isFinite(sphere.radius)) {
      const dir = camera.position.clone().sub(controls.target).normalize();
      const dist = (1.15 * sphere.radius) / Math.sin(((camera.fov / 2) * Math.PI) / 180);
      controls.target.copy(sphere.center);
      camera.position.copy(sphere.center).addScaledVector(dir, dist);
      camera.far = Math.max(camera.far, 10 * dist);
      camera.updateProjectionMatrix();
    }
  }
  controls.update();

  // ---- drawing on demand ----
  let pending = 0, frames = 0, disposed = false;
  const draw = () => {
    pending = 0;
    if (disposed) return;
    renderer.render(scene, camera);
    frames++;
    canvas.dataset.frames = String(frames);
  };
  const request = () => { if (!pending && !disposed) pending = requestAnimationFrame(draw); };
  controls.addEventListener('change', request);
  const resize = () => {
    const w = container.clientWidth || 320, h = container.clientHeight || 240;
    renderer.setSize(w, h, false);
    canvas.style.width = '100%';
    canvas.style.height = '100%';
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
    request();
  };
  const ro = new ResizeObserver(resize);
  ro.observe(container);
  resize();

  const joints = {};
  let pose = null, balKey = '';
  return {
    robot,
    frustums,
    // setJoints sets joint positions by name [rad or m]; unknown names are
    // ignored.
    setJoints(values) {
      if (!robot) return;
      let changed = false;
      for (const [name, v] of Object.entries(values)) {
        if (!(name in robot.joints) || !Number.isFinite(v) || joints[name] === v) continue;
        joints[name] = v;
        robot.joints[name].setJointValue(v);
        changed = true;
      }
      if (changed) request();
    },
    // setOdometry places the robot at x, y [m], yaw [rad] in odom and
    // extends the trail when it moved more than 1 cm.
    setOdometry(x, y, yaw) {
      if (![x, y, yaw].every(Number.isFinite)) return;
      if (pose && pose.x === x && pose.y === y && pose.yaw === yaw) return;
      if (fit) { // the view was framed at the odom origin, then follows
        const d = new THREE.Vector3(x - (pose ? pose.x : 0), y - (pose ? pose.y : 0), 0);
        camera.position.add(d);
        controls.target.add(d);
        controls.update();
        // The 10 m grid goes along in whole 0.5 m squares: its lines stay
        // where they are on the ground, and the vehicle never leaves it.
        grid.position.set(Math.round(x / 0.5) * 0.5, Math.round(y / 0.5) * 0.5, 0);
      }
      odom.position.set(x, y, 0);
      odom.rotation.set(0, 0, yaw);
      if (!pose || Math.hypot(x - pose.tx, y - pose.ty) > 0.01) {
        if (trailN === trail) { trailPos.copyWithin(0, 3); trailN--; }
        trailPos.set([x, y, 0.005], trailN * 3);
        trailN++;
        trailGeom.setDrawRange(0, trailN);
        trailGeom.attributes.position.needsUpdate = true;
        trailGeom.computeBoundingSphere();
        pose = { x, y, yaw, tx: x, ty: y };
      } else {
        pose = { ...pose, x, y, yaw };
      }
      request();
    },
    // setBalance draws the centre of mass com [x, y, z], its projection
    // along gravity onto the ground, and the support polygon [[x, y], ...]
    // in base_link [m]; red when warn. null hides them.
    setBalance(b) {
      if (!b || !b.com || !b.polygon || b.polygon.length === 0) {
        if (bal.visible) { bal.visible = false; request(); }
        balKey = '';
        label.hidden = true;
        return;
      }
      label.hidden = false;
      label.style.color = b.warn ? '#ff7b72' : '#d8dee4';
      label.textContent = `CoM margin ${Number.isFinite(b.margin) ? (b.margin * 100).toFixed(1) + ' cm' : '–'}`
        + (b.warn ? ' · LOW' : '') + (b.assumed ? ' · masses assumed' : '');
      const key = JSON.stringify([b.com, b.projection, b.polygon, b.warn, b.ground_z]);
      if (key === balKey) return; // the same as drawn: no frame
      balKey = key;
      const gz = Number.isFinite(b.ground_z) ? b.ground_z : groundZ;
      if (gz !== groundZ) { groundZ = gz; base.position.z = -groundZ; }
      const z = groundZ + 0.004;
      const color = b.warn ? BAD : OK;
      balMat.color.setHex(color);
      balLine.color.setHex(color);
      com.position.set(b.com[0], b.com[1], b.com[2]);
      const p = b.projection || [b.com[0], b.com[1], groundZ];
      proj.position.set(p[0], p[1], z);
      plumbGeom.attributes.position.array.set([b.com[0], b.com[1], b.com[2], p[0], p[1], z]);
      plumbGeom.attributes.position.needsUpdate = true;
      plumbGeom.computeBoundingSphere();
      polyGeom.setAttribute('position', new THREE.Float32BufferAttribute(b.polygon.flatMap((q) => [q[0], q[1], z]), 3));
      polyGeom.computeBoundingSphere();
      bal.visible = true;
      request();
    },
    // frames is how many times the view was drawn.
    get frames() { return frames; },
    // dispose stops everything and frees the GPU resources.
    dispose() {
      disposed = true;
      if (pending) cancelAnimationFrame(pending);
      ro.disconnect();
      controls.dispose();
      scene.traverse((o) => {
        if (o.geometry) o.geometry.dispose();
        if (o.material) for (const m of [].concat(o.material)) m.dispose();
      });
      renderer.dispose();
      canvas.remove();
      label.remove();
    },
  };
}
