// The page's one WebSocket: connect, reconnect a second after it drops,
// and hand every server message to the handlers of its type.

const handlers = new Map(); // type -> [fn]
const statusFns = [];
let ws = null;

/** on registers fn for server messages of type ("hello", "state", ...). */
export function on(type, fn) {
  if (!handlers.has(type)) handlers.set(type, []);
  handlers.get(type).push(fn);
}

/** onStatus registers fn(open bool) for the socket's open and close. */
export function onStatus(fn) { statusFns.push(fn); }

/** send sends message m (an object) if the socket is open; else drops it. */
export function send(m) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(m)); }

/** connect opens the socket (again after every close). */
export function connect() {
  ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws');
  ws.onmessage = (ev) => {
    let m;
    try { m = JSON.parse(ev.data); } catch { return; }
    for (const fn of handlers.get(m.type) || []) fn(m);
  };
  ws.onopen = () => { for (const fn of statusFns) fn(true); };
  ws.onclose = () => {
    for (const fn of statusFns) fn(false);
    setTimeout(connect, 1000);
  };
}
