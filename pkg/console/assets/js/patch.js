// The console's state updates: the whole state now and then
// ({type: "state", ...}), and between them a JSON merge patch (RFC 7386)
// against the update before ({type: "state_patch", patch: {...}}), which
// carries only what changed (pkg/console/mergepatch). A null in a patch
// removes the member.

/** mergePatch returns target with patch merged in, RFC 7386; target is
 * not changed (changed objects are copied, the rest shared). */
export function mergePatch(target, patch) {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out = (target !== null && typeof target === 'object' && !Array.isArray(target)) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** stateReader returns a function of a server message that returns the
 * message to act on: the whole state for a state or a patch (merged onto
 * the one before), any other message as it is, or null for a patch with
 * no state before it (the server sends the whole state first on every
 * socket). Keep one per socket. */
export function stateReader() {
  let st = null;
  return (m) => {
    if (m.type === 'state') st = m;
    else if (m.type !== 'state_patch') return m;
    else if (st) st = mergePatch(st, m.patch);
    else return null;
    return st;
  };
}
