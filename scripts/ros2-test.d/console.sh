# Operator console on the ROS graph (sourced by ros2-test.sh): the
# operator_console node (console.launch.py) against the launched Servosila,
# Furbot, jog and camera stacks, driven in a headless Chromium by
# internal/testkit/rosconsoletest (TestROSConsole). The Servosila and Furbot
# simulators run inside the test, so their truth (and the arrival time of
# every packet) is read directly; the arm's truth is arm_sim's
# joint_states. Each subtest is one line below; the figures (key-up and
# tab-close to the stopping packet, key-down to the first packet) follow.

cs_dir="$logs/console"
mkdir -p "$cs_dir"
cs_log="$cs_dir/test.log"

if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
	echo "console: SKIPPED the ROS console browser test: no chromium on PATH (scripts/check.d/console.sh installs Debian's chromium)"
else
	cs_run() {
		(cd "$repo" && TELEBRIDGE_ROS_CONSOLE_TEST=1 TELEBRIDGE_BROWSER_TESTS=required \
			ROS_CONSOLE_LOGS="$cs_dir" CONSOLE_ARTIFACTS="$cs_dir" \
			go test -count=1 -timeout 8m -run TestROSConsole -v ./internal/testkit/rosconsoletest/) >"$cs_log" 2>&1
		local rc=$?
		grep -E '^\s*--- (PASS|FAIL|SKIP)' "$cs_log" | sed 's/^ */     /'
		grep -E 'key-up to|tab closed to|key-down to' "$cs_log" | sed 's/^ */     /'
		if [ $rc -ne 0 ]; then
			grep -v -E ' (INFO|WARN) console: ' "$cs_log" | tail -n 40
		fi
		return $rc
	}
	check "console: operator_console in a browser drives the launched stacks (servosila, furbot, jog, cameras; truth from the simulators)" cs_run
	# The figures and subtests of a passing run, which check keeps quiet.
	grep -E '^\s*--- (PASS|FAIL|SKIP)|key-up to|tab closed to|key-down to' "$cs_log" | sed 's/^ */     /' || true
fi
