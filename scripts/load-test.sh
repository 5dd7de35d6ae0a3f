#!/usr/bin/env bash
# load-test.sh: run the Go test suite repeatedly under CPU load, to find
# the tests that depend on timing. Each run's result is printed; a failing
# run's output is printed in full (and kept in the log directory).
#
# Usage: scripts/load-test.sh [-n RUNS] [-l LOADERS_PER_CORE] [-k] [-c COUNT] [-r REGEX] [PACKAGES...]
#   -n RUNS              how many runs (default 10)
#   -l LOADERS_PER_CORE  busy loops per core started for the whole session
#                        (default 2; 0 runs on the machine's own load)
#   -k                   keep going after a failing run (default: stop)
#   -c COUNT             go test -count (default 1)
#   -r REGEX             go test -run (default: every test)
#   PACKAGES             default ./...
# Environment: LOAD_TEST_LOGS keeps the logs there (default a temp dir).
# The busy loops are stress-ng's cpu stressors when stress-ng is installed,
# bash loops otherwise; they run at normal priority and are stopped (by
# their process ids) when the script exits. Exit status: 0 when every run
# passed, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."

runs=10 per_core=2 keep=0 count=1 regex=
while getopts "n:l:kc:r:" opt; do
	case $opt in
	n) runs=$OPTARG ;;
	l) per_core=$OPTARG ;;
	k) keep=1 ;;
	c) count=$OPTARG ;;
	r) regex=$OPTARG ;;
	*) sed -n '2,20p' "$0"; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
pkgs=("$@")
[ ${#pkgs[@]} -eq 0 ] && pkgs=(./...)

logs=${LOAD_TEST_LOGS:-$(mktemp -d)}
mkdir -p "$logs"
loaders=()
stop_load() {
	local pid
	for pid in "${loaders[@]}"; do
		kill "$pid" 2>/dev/null
	done
	for pid in "${loaders[@]}"; do
		wait "$pid" 2>/dev/null
	done
	loaders=()
}
trap stop_load EXIT
trap 'stop_load; exit 130' INT TERM

cores=$(nproc)
n=$((cores * per_core))
if [ "$n" -gt 0 ]; then
	if command -v stress-ng >/dev/null; then
		stress-ng --cpu "$n" --quiet &
		loaders+=($!)
		echo "load: stress-ng --cpu $n (pid ${loaders[*]})"
	else
		for _ in $(seq "$n"); do
			bash -c 'while :; do :; done' &
			loaders+=($!)
		done
		echo "load: $n bash busy loops ($per_core per core on $cores cores; pids ${loaders[*]})"
	fi
else
	echo "load: none added (the machine's own load: $(cut -d' ' -f1-3 /proc/loadavg))"
fi

args=(-race -count="$count")
[ -n "$regex" ] && args+=(-run "$regex")
echo "go test ${args[*]} ${pkgs[*]}, $runs runs, logs in $logs"
passed=0 failed=0
for i in $(seq "$runs"); do
	log="$logs/run-$i.log"
	start=$(date +%s)
	go test "${args[@]}" "${pkgs[@]}" >"$log" 2>&1
	code=$?
	took=$(($(date +%s) - start))
	load=$(cut -d' ' -f1 /proc/loadavg)
	if [ "$code" -eq 0 ]; then
		passed=$((passed + 1))
		echo "run $i: ok (${took}s, load $load)"
	else
		failed=$((failed + 1))
		echo "run $i: FAILED (exit $code, ${took}s, load $load); failing tests:"
		grep -E -- '^(--- FAIL|FAIL|panic:)' "$log" | sed 's/^/    /'
		echo "---- full output of run $i ($log) ----"
		cat "$log"
		echo "---- end of run $i ----"
		[ "$keep" -eq 1 ] || break
	fi
done
echo "load-test: $passed passed, $failed failed of $((passed + failed)) runs"
[ "$failed" -eq 0 ]
