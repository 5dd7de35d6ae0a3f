#!/usr/bin/env bash
# jog.sh: the kinematics commands on the test arms, end to end.
#   - kin fk of the UR5-sized arm at zero gives the hand-computed pose;
#   - kin ik of that pose comes back within 1e-5;
#   - kin bench solves >= 99.5 % of 1,000 random poses of the 7-axis arm;
#   - bad input exits 1 with a message;
#   - the jog demo runs its script against the simulated arm.
# Needs only Go.
set -euo pipefail
cd "$(dirname "$0")/../.."

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/telebridge" ./cmd/telebridge
tb="$tmp/telebridge"
ur5=launch/urdf/ur5_like.urdf
tel=pkg/kinematics/testdata/telescope7.urdf

fail() { echo "jog.sh: FAIL: $*" >&2; exit 1; }

# One JSON array field on one line: "xyz": [a, b, c].
field() { tr -d '\n ' <"$1" | grep -o "\"$2\":\[[^]]*\]" | head -1 | sed 's/.*\[//; s/\]//'; }

echo "kin fk: UR5-sized arm at zero"
"$tb" kin fk --urdf "$ur5" --joints 0,0,0,0,0,0 >"$tmp/fk.json"
xyz=$(field "$tmp/fk.json" xyz)
awk -F, -v s="$xyz" 'BEGIN {
	split(s, v, ","); w[1] = -0.81725; w[2] = -0.19145; w[3] = -0.005491
	for (i = 1; i <= 3; i++) { d = v[i] - w[i]; if (d < 0) d = -d; if (d > 1e-9) exit 1 }
}' || fail "fk xyz = $xyz, want -0.81725,-0.19145,-0.005491"
echo "  xyz = $xyz"

echo "kin ik: 7-axis arm, pose of known joints, from another seed"
"$tb" kin fk --urdf "$tel" --joints 0.3,-0.5,1.1,0.25,0.4,-0.7,1.2 >"$tmp/fk7.json"
pose="$(field "$tmp/fk7.json" xyz),$(field "$tmp/fk7.json" rzyx)"
"$tb" kin ik --urdf "$tel" --pose "$pose" --seed 0,0,0,0.1,0,0,0 >"$tmp/ik.json"
perr=$(tr -d '\n ' <"$tmp/ik.json" | grep -o '"position_error":[^,]*' | cut -d: -f2)
awk -v e="$perr" 'BEGIN { exit !(e <= 1e-5) }' || fail "ik position error $perr"
echo "  solved, position error $perr m"

echo "kin bench: 1,000 random poses of the 7-axis arm"
"$tb" kin bench --urdf "$tel" --poses 1000 >"$tmp/bench.json"
rate=$(tr -d '\n ' <"$tmp/bench.json" | grep -o '"solve_rate_percent":[^,]*' | cut -d: -f2)
awk -v r="$rate" 'BEGIN { exit !(r >= 99.5) }' || fail "solve rate $rate %"
echo "  solve rate $rate %"

echo "bad input exits 1"
for args in "fk --urdf $ur5 --joints 0,0" "fk --urdf $ur5 --joints 0,0,x,0,0,0" "fk --urdf missing.urdf --joints 0" \
	"ik --urdf $tel --pose 5,0,0,0,0,0" "ik --urdf $ur5 --pose 1,2"; do
	set +e
	# shellcheck disable=SC2086
	"$tb" kin $args >"$tmp/out" 2>"$tmp/err"
	code=$?
	set -e
	[ "$code" = 1 ] || fail "kin $args: exit $code, want 1"
	[ -s "$tmp/err" ] || fail "kin $args: no error message"
	echo "  kin $args -> 1: $(head -c 100 "$tmp/err")"
done

echo "jog demo on the simulated arm"
"$tb" jog --urdf "$ur5" --joints 0.2,-1.4,1.6,-1.8,-1.57,0.3 >"$tmp/jog.txt"
grep -q "hold sent (heartbeat timeout)" "$tmp/jog.txt" || fail "jog demo: no heartbeat stop"
grep -q "goal reached" "$tmp/jog.txt" || fail "jog demo: goal not reached"
grep -q "LIN goal reached" "$tmp/jog.txt" || fail "jog demo: LIN goal not reached"
echo "  ok"
echo "jog.sh: all passed"
