#!/usr/bin/env bash
# impaired-link.sh: the console's live video and commands over an impaired
# link (issue 17's figure), in network namespaces made here:
#
#   operator ns (this run's test binary, headless Chromium, the simulators)
#     b0 10.77.1.2/24
#       | veth
#     m1 10.77.1.1/24  link ns: the pkg/impair relay (loss, delay, jitter,
#     m0 10.77.0.2/24            blackouts) on 10.77.1.1; tbf on m0
#       | veth
#     c0 10.77.0.1/24  console ns: the console's HTTP and WebRTC sockets;
#                      tbf on c0
#
# No namespace forwards (new namespaces start with ip_forward 0), so the
# page reaches the console's media only through the relay (the console
# advertises the relay's address as its host candidate) and its HTTP and
# WebSocket only through the test's TCP forwarder (its far side in the
# link ns, across the rate cap). Chromium gathers no candidate on loopback
# or link-local addresses: these are routable private ones.
#
# Prints the figures (GOAL MISSED for a goal of the issue not reached) and
# fails with the reason when the run shows the video or the commands broken
# (internal/testkit/impairedlink). Skips, saying why, where
# network namespaces or tbf cannot be made (not root, no ip netns, no
# sch_tbf) or there is no Chromium (unless TELEBRIDGE_BROWSER_TESTS=required).
#
# Environment (optional): IMPAIRED_RATE (tc rate, default 3mbit),
# IMPAIRED_CAMERAS (pattern cameras, default front), IMPAIRED_GRAIN
# (their noise, default 12), IMPAIRED_TIMELINE=1 (the blackout's timeline),
# CONSOLE_ARTIFACTS (a directory for impaired-link.txt).
set -euo pipefail
cd "$(dirname "$0")/.."

rate=${IMPAIRED_RATE:-3mbit}
skip() {
	echo "impaired-link: SKIP: $*"
	exit 0
}

[ "$(id -u)" = 0 ] || skip "network namespaces need root (running as uid $(id -u))"
command -v ip >/dev/null || skip "no ip command (apt-get install iproute2)"
command -v tc >/dev/null || skip "no tc command (apt-get install iproute2)"

id=$$
con=tbl-con-$id
mid=tbl-mid-$id
op=tbl-op-$id
made=()
cleanup() {
	local n
	for n in "${made[@]}"; do
		ip netns del "$n" || echo "impaired-link: could not delete namespace $n"
	done
}
trap cleanup EXIT

errf=$(mktemp)
for n in "$con" "$mid" "$op"; do
	if ! ip netns add "$n" 2>"$errf"; then
		skip "ip netns add does not work here: $(cat "$errf")"
	fi
	made+=("$n")
	ip -n "$n" link set lo up
done
rm -f "$errf"

ip -n "$con" link add c0 type veth peer name m0 netns "$mid"
ip -n "$op" link add b0 type veth peer name m1 netns "$mid"
ip -n "$con" addr add 10.77.0.1/24 dev c0
ip -n "$mid" addr add 10.77.0.2/24 dev m0
ip -n "$mid" addr add 10.77.1.1/24 dev m1
ip -n "$op" addr add 10.77.1.2/24 dev b0
for x in "$con c0" "$mid m0" "$mid m1" "$op b0"; do
	set -- $x
	ip -n "$1" link set "$2" up
done
# A default route for the operator (to the link ns, which forwards
# nothing): Chromium sometimes gathered no candidate at all on b0 without
# one.
ip -n "$op" route add default via 10.77.1.1
ip netns exec "$mid" sh -c 'echo 0 >/proc/sys/net/ipv4/ip_forward' # the relay is the only way through
# The rate cap, both ways across the console's veth: a token bucket with
# a queue of at most 80 ms, so a sender above the cap sees the queue grow
# and then its packets dropped, as at a real bottleneck.
tbf="rate $rate burst 8kb latency 80ms"
for x in "$con c0" "$mid m0"; do
	set -- $x
	if ! out=$(ip netns exec "$1" tc qdisc add dev "$2" root tbf $tbf 2>&1); then
		skip "tc tbf does not work here: $out"
	fi
done
# The blackout swaps the cap for tc's blackhole qdisc (drops everything):
# check that it can be made here, and put the cap back.
if ! out=$(ip netns exec "$con" tc qdisc replace dev c0 root blackhole 2>&1); then
	skip "tc's blackhole qdisc (the blackout) does not work here: $out"
fi
ip netns exec "$con" tc qdisc replace dev c0 root tbf $tbf
# The cap in bit/s, as tc understood it (tc's JSON gives bytes/s).
cap_Bps=$(ip netns exec "$con" tc -j qdisc show dev c0 | sed -n 's/.*"rate":\([0-9]*\).*/\1/p')
[ -n "$cap_Bps" ] || skip "could not read tbf's rate back from tc"
cap_bps=$((cap_Bps * 8))

bin=$(mktemp -d)
trap 'cleanup; rm -rf "$bin"' EXIT
go test -c -o "$bin/impairedlink.test" ./internal/testkit/impairedlink

echo "impaired-link: namespaces $con (console), $mid (relay, tbf), $op (Chromium); cap $rate ($cap_bps bit/s)"
status=0
ip netns exec "$op" env TELEBRIDGE_IMPAIRED_LINK=1 \
	IMPAIRED_CONSOLE_NS="$con" IMPAIRED_LINK_NS="$mid" \
	IMPAIRED_CONSOLE_IP=10.77.0.1 IMPAIRED_RELAY_IP=10.77.1.1 IMPAIRED_CAP_BPS="$cap_bps" \
	IMPAIRED_CAP_DEVS="$con:c0 $mid:m0" IMPAIRED_TBF="$tbf" \
	"$bin/impairedlink.test" -test.run '^TestImpairedLink$' -test.count=1 -test.v 2>&1 |
	grep -v -E ' INFO console: |^x264 \[info\]: ' || status=$?

echo "impaired-link: the bottleneck (console to operator, tc -s qdisc on c0):"
ip netns exec "$con" tc -s qdisc show dev c0
exit $status
