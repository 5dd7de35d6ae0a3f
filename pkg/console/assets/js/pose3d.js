// The drive screen's arm pose in 3-D: robot3d.js (three.js and
// urdf-loader, vendored) drawing the Servosila from its URDF with its live
// joints, odometry and balance. Loaded on first use (dynamic import: the
// page does not parse three.js unless the drive screen shows the
// Servosila) and only where the browser has WebGL; otherwise, or when the
// robot's description is missing, the drive screen keeps its 2-D side
// view.

const JOINTS = ['waist', 'shoulder', 'elbow', 'neck', 'flippers', 'gripper'];

function webgl() {
  try {
    const c = document.createElement('canvas');
    return !!(c.getContext('webgl2') || c.getContext('webgl'));
  } catch {
    return false;
  }
}

/**
 * load3d resolves to a pose view for drive.setPoseView ({mount(el),
 * update(st)}), or null when the 3-D view cannot be shown here (no WebGL,
 * no robot description); onError hears what the view cannot draw.
 */
export async function load3d(onError) {
  if (!webgl()) return null;
  const r = await fetch('/robot/servosila', { credentials: 'same-origin' });
  if (!r.ok) return null;
  const urdfText = await r.text();
  const { mount } = await import('../robot3d.js');
  let view = null;
  return {
    mount(el) {
      // fit: framed on the robot and following its odometry, so that
      // the inset keeps the robot in view however far it drives.
      view = mount(el, { urdfText, onError, fit: true });
      window.drivePose3d = view; // for the browser test
    },
    update(st) {
      const s = st.snap.servosila;
      if (!view || !s) return;
      const q = {};
      JOINTS.forEach((n, i) => { if (!s.joint_known || s.joint_known[i]) q[n] = s.joints[i]; });
      view.setJoints(q);
      view.setOdometry(s.x, s.y, s.yaw);
      view.setBalance(st.balance && !st.balance.error ? st.balance : null);
    },
  };
}
