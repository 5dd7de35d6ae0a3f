// balance-view.js: the operator's readout of the Servosila's static
// balance (the "balance" entry of the console's state, computed by the
// server from the URDF and the live joints): the stability margin, a
// warning below the threshold, the note that the masses are assumed, and
// the slope the operator enters (degrees on screen, radians on the wire).
//
//   const rd = balanceReadout(container, send);  // send(message object)
//   rd.update(state.balance);
const deg = (r) => (r * 180) / Math.PI;
const rad = (d) => (d * Math.PI) / 180;

export function balanceReadout(container, send) {
  const root = document.createElement('div');
  root.className = 'balance';
  root.innerHTML = `
    <div class="bal-warn hidden" id="balwarn" role="alert"></div>
    <div class="kv">
      <span>stability margin</span><b id="balmargin">–</b>
      <span>warn below</span><span id="balthr">–</span>
      <span>centre of mass</span><span id="balcom">–</span>
      <span>tip-over (nearest edge)</span><span id="baltip">–</span>
    </div>
    <form id="balslope" class="bal-slope">
      <label>ground pitch° (nose down +) <input id="balpitch" type="number" step="any" min="-60" max="60" value="0"></label>
      <label>roll° (left up +) <input id="balroll" type="number" step="any" min="-60" max="60" value="0"></label>
      <button id="balset" type="submit">Set slope</button>
    </form>
    <div class="bal-assumed" id="balassumed"></div>`;
  container.append(root);
  const $ = (id) => root.querySelector('#' + id);
  $('balslope').addEventListener('submit', (e) => {
    e.preventDefault();
    send({ type: 'balance_slope', pitch: rad(Number($('balpitch').value) || 0), roll: rad(Number($('balroll').value) || 0) });
  });
  return {
    update(b) {
      const warn = $('balwarn');
      if (!b) return;
      if (b.error) {
        $('balmargin').textContent = '–';
        warn.classList.add('hidden');
        $('balassumed').textContent = b.error + (b.assumed ? ' · ' + b.assumed : '');
        return;
      }
      $('balmargin').textContent = `${(b.margin * 100).toFixed(1)} cm`;
      $('balmargin').className = b.warn ? 'bad' : 'ok';
      $('balthr').textContent = `${(b.threshold * 100).toFixed(1)} cm`;
      $('balcom').textContent = b.com.map((v) => v.toFixed(3)).join(', ') + ' m';
      const tip = b.tip && b.edge >= 0 ? b.tip[b.edge] : NaN;
      $('baltip').textContent = Number.isFinite(tip) ? `${deg(tip).toFixed(1)}° more` : '–';
      warn.classList.toggle('hidden', !b.warn);
      warn.textContent = b.warn
        ? (b.margin < 0
          ? `TIPPING: the centre of mass is ${(-b.margin * 100).toFixed(1)} cm outside the support polygon`
          : `BALANCE: stability margin ${(b.margin * 100).toFixed(1)} cm, below ${(b.threshold * 100).toFixed(1)} cm`)
          + ` (slope ${deg(b.slope.pitch).toFixed(0)}° pitch, ${deg(b.slope.roll).toFixed(0)}° roll)`
        : '';
      $('balassumed').textContent = b.assumed ? 'Model: ' + b.assumed + '; the margin is an estimate.' : '';
    },
  };
}
