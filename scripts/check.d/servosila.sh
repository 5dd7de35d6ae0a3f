#!/usr/bin/env bash
# servosila.sh: the Servosila part of the checks, run by scripts/check.sh.
# Needs only Go. Runs the README's main command unattended (the scripted
# drive against the embedded simulator) and the decoder on a golden packet
# and on a bad one.
set -euo pipefail
cd "$(dirname "$0")/../.."

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/telebridge" ./cmd/telebridge
tb="$tmp/telebridge"

fail() { printf 'servosila check FAILED: %s\n' "$*" >&2; exit 1; }

echo "--- go run ./cmd/telebridge servosila --script (embedded simulator)"
go run ./cmd/telebridge servosila --script </dev/null | tee "$tmp/script.out"
grep -q '^ok: scripted drive done, robot stopped$' "$tmp/script.out" || fail "scripted drive did not finish cleanly"
if grep -q 'FAILED' "$tmp/script.out"; then fail "a scripted drive check failed"; fi

echo "--- telebridge decode servosila (golden remote-control packet: forward 0.3 m/s, left 0.5 rad/s)"
golden=012a31da53$(printf '0%.0s' $(seq 1 88))0000000000000000
"$tb" decode servosila --hex "$golden" >"$tmp/decode.json"
tr -d ' \n' <"$tmp/decode.json"; echo
tr -d ' \n' <"$tmp/decode.json" | grep -q '"axes":\[12586,21466,0,' || fail "decoded axes differ"
grep -q '"packet": "remote_control"' "$tmp/decode.json" || fail "packet kind missing"

echo "--- telebridge encode servosila --linear 0.3 --angular 0.5 gives the golden packet back"
[ "$("$tb" encode servosila --linear 0.3 --angular 0.5)" = "$golden" ] || fail "encode does not reproduce the golden packet"

echo "--- telebridge decode servosila on a truncated packet must exit 1"
set +e
"$tb" decode servosila --hex "${golden:0:100}" >"$tmp/bad.out" 2>"$tmp/bad.err"
code=$?
set -e
cat "$tmp/bad.err"
[ "$code" = 1 ] || fail "bad packet: exit status $code, want 1"
[ ! -s "$tmp/bad.out" ] || fail "bad packet printed output"
grep -q 'wrong packet length' "$tmp/bad.err" || fail "bad packet: unclear error"

echo "servosila checks passed"
