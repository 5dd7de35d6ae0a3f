// The gamepad as a joystick on ROS (sensor_msgs/Joy; pkg/console's
// MsgJoy, which maps it to ROS's axes and signs). When the console
// publishes joysticks (info.joy) and a standard pad drives the Servosila
// or the Furbot, its raw axes and buttons go with the page's other
// commands: at once when they change, again at every periodic flush while
// anything is deflected or pressed (the server's deadman), and once
// neutral when the pad goes, drives nothing, or has not been armed (its
// deadman not yet seen released).
import { ctx, held } from './core.js';
import { send } from './conn.js';

/** JOY_ACTIVE is the smallest stick or button value that counts as deflected or pressed (the server's JoyDeadzone). */
export const JOY_ACTIVE = 0.05;

let last = ''; // the last message sent
let sentTo = ''; // the machine the last pad state went to ('' after the neutral one)

const active = (m) => m.axes.some((a) => a !== 0) || m.buttons.some((b) => b !== 0);
// quiet zeroes what the server's deadzone removes and rounds the rest, so
// that a pad's noise at rest is not a change to send.
const quiet = (v) => (Math.abs(v) <= JOY_ACTIVE ? 0 : Math.round(v * 1000) / 1000);

/** flushJoy sends the pad's state if it changed, or again if periodic and not neutral. */
export function flushJoy(periodic) {
  if (!ctx.info || !ctx.info.joy) return;
  const p = held.pad;
  const machine = p && p.armed && p.raw && (p.machine === 'servosila' || p.machine === 'furbot') ? p.machine : '';
  if (!machine && !sentTo) return;
  const m = machine ? { type: 'joy', machine, axes: p.raw.axes.map(quiet), buttons: p.raw.buttons.map(quiet) } : { type: 'joy', machine: sentTo, axes: [], buttons: [] };
  const s = JSON.stringify(m);
  if (s !== last || (periodic && active(m))) { send(m); last = s; }
  sentTo = machine;
}
