#!/usr/bin/env bash
# furbot.sh: end-to-end checks of the Furbot part, run by scripts/check.sh
# after the Go tests. Needs only Go (no ROS, no network beyond loopback):
#   1. the unattended scripted drive against the embedded simulator over
#      loopback UDP; the odometry must end within 1 % of the truth;
#   2. `telebridge decode furbot` on the golden status frame (exit 0,
#      expected fields) and on a truncated frame (must exit 1).
set -euo pipefail
cd "$(dirname "$0")/../.."

bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/telebridge" ./cmd/telebridge

echo "furbot: scripted drive against the embedded simulator (distances scaled by 0.5)"
set +e
out=$("$bin/telebridge" furbot --script --scale 0.5 </dev/null 2>&1)
code=$?
set -e
printf '%s\n' "$out"
if [ "$code" -ne 0 ]; then
	echo "furbot: scripted drive failed (exit $code)"; exit 1
fi
result=$(printf '%s\n' "$out" | grep '^result: ')
err=$(printf '%s\n' "$result" | sed -n 's/.* error \([0-9.]*\) %.*/\1/p')
dist=$(printf '%s\n' "$result" | sed -n 's/.* truth \([0-9.]*\) m.*/\1/p')
if [ -z "$err" ] || [ -z "$dist" ]; then
	echo "furbot: no result line"; exit 1
fi
awk -v e="$err" -v d="$dist" 'BEGIN { exit !(e < 1 && d > 3) }' || {
	echo "furbot: odometry error $err % over $dist m (want < 1 % over > 3 m)"; exit 1
}
echo "furbot: scripted drive ok: $dist m, odometry error $err %"

golden='41545346 0001e240 0c 000000
00 06 02 01 04d2 0003  01 08 02 57 012c 12c0 1f 17  02 07 02 01 01 00003039
03 11 02 01 05dc 01f4 01f6 0096 0000 00 00003039  04 05 02 fe0c fe0c
05 08 02 01 05dc 2d 5a 0003  06 07 02 fff6 0000 0190  07 07 02 000a 0000 0192
08 07 02 0000 0000 012c  09 07 02 0005 0000 012e
0a 0b 02 0064 ff38 0000 01f4 0001  0b 0b 03 0000 0000 fffb 0000 0000'
json=$("$bin/telebridge" decode furbot --hex "$golden")
for want in '"frame": "status"' '"speed": 1500' '"wheel_right": 502' '"angle": -500' '"voltage": 4800' '"front_fork"'; do
	if ! grep -qF -- "$want" <<<"$json"; then
		echo "furbot: decoded golden frame lacks $want:"; printf '%s\n' "$json"; exit 1
	fi
done
echo "furbot: golden status frame decoded"

set +e
"$bin/telebridge" decode furbot --hex '41545346 00000001 01 000000 04 05 02 0000' >/dev/null 2>"$bin/err"
code=$?
set -e
if [ "$code" -ne 1 ] || ! grep -q 'truncated' "$bin/err"; then
	echo "furbot: truncated frame: exit $code, stderr: $(cat "$bin/err") (want exit 1, 'truncated')"; exit 1
fi
echo "furbot: truncated frame rejected with exit 1: $(cat "$bin/err")"
