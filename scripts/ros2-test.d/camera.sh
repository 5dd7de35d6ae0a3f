# Camera stack (sourced by ros2-test.sh): camera_publisher with its four
# cameras on the synthetic TEST source (`ros2 launch telebridge
# cameras.launch.py sim:=true`: device "pattern:<camera>", frames generated
# in memory through the same capture and publishing code as a V4L2
# device). No V4L2 device exists on the test machines; the real capture
# path is tested against vivid by scripts/check.d/camera.sh.

launch camera cameras.launch.py sim:=true
cam_log="$logs/camera.log"

# cam_diag CAMERA KEY: the camera's value of KEY in its next status on
# /diagnostics ("/camera_publisher: CAMERA"; cam_node names another node).
cam_diag() {
	diag_status "${cam_node:-/camera_publisher}: $1" | sed -n "s/^$2: //p"
}
# cam_echo TOPIC: one message of TOPIC, arrays elided.
cam_echo() { timeout 15 ros2 topic echo --once "$1" --no-arr 2>/dev/null; }
between() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'; }

check "camera: the node comes up" \
	within 30 bash -c 'ros2 node list 2>/dev/null | grep -qx /camera_publisher'
check "camera: it says it runs on the synthetic test source" \
	within 10 grep -aq 'zoom: pattern:zoom (synthetic TEST source' "$cam_log"
check "camera: ros2 param list shows four cameras and the test source's control" \
	bash -c 'l=$(ros2 param list /camera_publisher); for c in front_left front_right rear zoom; do
		grep -q "$c.pixel_format" <<<"$l" && grep -q "$c.controls.brightness" <<<"$l" || exit 1; done'
check "camera: ros2 param get reads the configured formats" \
	bash -c 'ros2 param get /camera_publisher zoom.pixel_format | grep -q "String value is: YUYV" &&
		ros2 param get /camera_publisher front_left.pixel_format | grep -q "String value is: GRBG"'
check "camera: ros2 param set refuses a read-only one (width)" \
	bash -c 'ros2 param set /camera_publisher zoom.width 320 2>&1 | grep -q "read-only"'

# cam_steady WHEN: zoom's frame count (diagnostics) does not move in 2 s;
# prints it and leaves it in $cam_frames.
cam_steady() {
	local f1
	cam_frames=$(cam_diag zoom frames)
	sleep 2
	f1=$(cam_diag zoom frames)
	echo "zoom frames $1: $cam_frames, 2 s later $f1"
	[ -n "$cam_frames" ] && [ "$cam_frames" = "$f1" ]
}
cam_idle() { cam_steady "with no subscriber" && [ "$cam_frames" = 0 ]; }
check "camera: with no subscriber nothing is captured (diagnostics' frame count stays 0)" cam_idle

# cam_cpu PID SECONDS: CPU time the process uses in SECONDS [clock ticks].
cam_cpu() {
	local a b
	a=$(awk '{ print $14 + $15 }' "/proc/$1/stat") || return 1
	sleep "$2"
	b=$(awk '{ print $14 + $15 }' "/proc/$1/stat") || return 1
	echo $((b - a))
}
cam_idle_cpu() {
	local node ticks hz
	node=$(pgrep -P "${launched[-1]}" -f lib/telebridge/camera_publisher) || return 1
	hz=$(getconf CLK_TCK)
	ticks=$(cam_cpu "$node" 4)
	echo "node CPU with no subscriber: $ticks ticks of 1/$hz s in 4 s (limit 2 %)"
	[ "$ticks" -le $((hz * 4 * 2 / 100)) ]
}
check "camera: with no subscriber the node uses almost no CPU (4 cameras idle)" cam_idle_cpu

cam_image() {
	local m sec now
	m=$(cam_echo /zoom/image_raw)
	now=$(date +%s)
	echo "$m" | head -n 12
	# The stamp is the capture time (wall clock), not zero or stale.
	sec=$(sed -n 's/^ *sec: \([0-9]*\)$/\1/p' <<<"$m" | head -n 1)
	echo "stamp sec ${sec:-none}, now $now"
	grep -q 'encoding: yuv422_yuy2' <<<"$m" && grep -q '^width: 640' <<<"$m" && grep -q '^height: 480' <<<"$m" &&
		grep -q '^step: 1280' <<<"$m" && grep -q 'frame_id: zoom_optical_frame' <<<"$m" &&
		grep -q 'length: 614400' <<<"$m" && [ -n "$sec" ] && between "$sec" $((now - 3)) "$now"
}
check "camera: zoom/image_raw is 640x480 yuv422_yuy2, step 1280, 614400 bytes, stamped at capture" cam_image

cam_bayer() {
	local m
	m=$(cam_echo /front_left/image_raw)
	grep -q 'encoding: bayer_grbg8' <<<"$m" && grep -q '^step: 640' <<<"$m" && grep -q 'length: 307200' <<<"$m"
}
check "camera: front_left/image_raw is bayer_grbg8 without conversion (step 640)" cam_bayer

# cam_jpeg_file TOPIC FILE: the data of one CompressedImage of TOPIC into
# FILE (the echo prints the bytes as a list of numbers).
cam_jpeg_file() {
	timeout 15 ros2 topic echo --once --full-length "$1" sensor_msgs/msg/CompressedImage --field data 2>/dev/null |
		python3 -c 'import re, sys; open(sys.argv[1], "wb").write(bytes(int(x) for x in re.findall(r"\d+", sys.stdin.read())))' "$2"
	[ -s "$2" ]
}
# cam_yuyv_jpeg: the YUYV camera's image_raw/compressed carries JPEGs
# that Debian's ffprobe reads as 640x480 (encoded by camera_publisher,
# only while subscribed).
cam_yuyv_jpeg() {
	local m probe
	m=$(within 20 cam_echo /zoom/image_raw/compressed) || return 1
	echo "$m" | head -n 8
	grep -q 'format: jpeg' <<<"$m" && grep -q 'frame_id: zoom_optical_frame' <<<"$m" || return 1
	within 20 cam_jpeg_file /zoom/image_raw/compressed "$logs/zoom.jpg" || return 1
	probe=$(ffprobe -v error -show_entries stream=codec_name,width,height -of csv=p=0 "$logs/zoom.jpg" 2>&1)
	echo "ffprobe of $(stat -c %s "$logs/zoom.jpg") bytes: $probe"
	[ "$probe" = "mjpeg,640,480" ]
}
check "camera: a YUYV camera publishes image_raw/compressed, a JPEG ffprobe reads as 640x480" cam_yuyv_jpeg
# cam_quality: zoom.jpeg_quality is applied live (quality 10 gives a
# smaller JPEG than the default 80 of the same pattern).
cam_quality() {
	local before after
	before=$(stat -c %s "$logs/zoom.jpg") || return 1
	ros2 param set /camera_publisher zoom.jpeg_quality 10 | grep -q 'Set parameter successful' || return 1
	ros2 param set /camera_publisher zoom.jpeg_quality 101 2>&1 | grep -q 'Set parameter successful' && { echo "quality 101 accepted"; return 1; }
	sleep 1
	within 20 cam_jpeg_file /zoom/image_raw/compressed "$logs/zoom_q10.jpg" || return 1
	after=$(stat -c %s "$logs/zoom_q10.jpg")
	echo "zoom JPEG at quality 80: $before bytes, at 10: $after bytes"
	[ "$after" -lt $((before * 3 / 4)) ]
}
check "camera: jpeg_quality is set live (quality 10 shrinks the JPEG; 101 refused)" cam_quality

cam_rate() {
	local r
	r=$(timeout 12 ros2 topic hz /zoom/image_raw --window 30 2>/dev/null | sed -n 's/.*average rate: \([0-9.]*\).*/\1/p' | tail -n 1)
	echo "zoom/image_raw rate ${r:-none} Hz (configured 30)"
	[ -n "$r" ] && between "$r" 27 33
}
check "camera: images arrive at the configured 30 Hz" cam_rate

cam_info() {
	local m
	m=$(cam_echo /zoom/camera_info)
	echo "$m" | head -n 10
	grep -q '^width: 640' <<<"$m" && grep -q '^height: 480' <<<"$m" && grep -q 'frame_id: zoom_optical_frame' <<<"$m"
}
check "camera: zoom/camera_info arrives with the image's size and frame" cam_info

cam_calibrate() {
	local req='{camera_info: {width: 640, height: 480, distortion_model: plumb_bob, d: [0.1, 0.0, 0.0, 0.0, 0.0],'
	req+=' k: [500.0, 0.0, 320.0, 0.0, 501.0, 240.0, 0.0, 0.0, 1.0], r: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],'
	req+=' p: [500.0, 0.0, 320.0, 0.0, 0.0, 501.0, 240.0, 0.0, 0.0, 0.0, 1.0, 0.0]}}'
	# The whole reply first: grep -q on a pipe may end before the writer,
	# whose SIGPIPE pipefail would count as a failure.
	local out
	out=$(ros2 service call /zoom/set_camera_info sensor_msgs/srv/SetCameraInfo "$req" 2>&1) || true
	echo "$out"
	grep -q 'success=True' <<<"$out" || return 1
	within 20 cam_k_set
}
# cam_k_set: the next zoom/camera_info carries the K set above.
cam_k_set() {
	local k
	k=$(timeout 10 ros2 topic echo --once /zoom/camera_info sensor_msgs/msg/CameraInfo --field k 2>/dev/null | head -n 1)
	echo "camera_info k after set_camera_info: ${k:-none}"
	tr -s ' ,[]' ' ' <<<"$k" | grep -Eq '500\.0? 0\.0? 320\.0? 0\.0? 501\.0?'
}
check "camera: set_camera_info is taken and appears in camera_info" cam_calibrate

# The test pattern's first luma byte is brightness - 64 + 8 x buffer index
# (4 buffers): 64..88 at the default 128, 136..160 at 200.
cam_luma() { timeout 10 ros2 topic echo --once /zoom/image_raw --field data 2>/dev/null | head -c 200 | grep -o '[0-9]\+' | sed -n 1p; }
# cam_luma_in LO HI: the next image's first luma byte is in LO..HI.
cam_luma_in() {
	local v
	v=$(cam_luma)
	echo "first luma byte ${v:-none} (want $1..$2)"
	[ -n "$v" ] && between "$v" "$1" "$2"
}
cam_control() {
	within 15 cam_luma_in 64 88 || return 1
	ros2 param set /camera_publisher zoom.controls.brightness 200 | grep -q 'Set parameter successful' || return 1
	within 15 cam_luma_in 136 160
}
check "camera: a control parameter is applied live (brightness changes the image)" cam_control

# cam_streaming: a subscriber that stays until the count has grown (the
# ros2 CLI takes seconds to start on a loaded machine: no fixed window).
cam_grows() {
	local f
	f=$(cam_diag zoom frames)
	echo "zoom frames while subscribed: $cam_f0 -> ${f:-none}"
	[ -n "$f" ] && [ "$f" -gt "$cam_f0" ]
}
cam_streaming() {
	cam_f0=$(cam_diag zoom frames)
	[ -n "$cam_f0" ] || return 1
	ros2 topic hz /zoom/image_raw >"$logs/camera_hz.log" 2>&1 &
	local sub=$! rc=0
	within 30 cam_grows || rc=1
	kill -TERM "$sub"
	wait "$sub" 2>/dev/null || true
	return $rc
}
check "camera: with a subscriber the frame count grows" cam_streaming

cam_stops() {
	sleep 1 # the poll sees the subscriber gone within 150 ms
	cam_steady "after the last subscriber left" && [ "$cam_frames" -gt 0 ] || return 1
	local rear
	rear=$(cam_diag rear frames)
	echo "rear (never subscribed): $rear frames"
	[ "$rear" = 0 ]
}
check "camera: after the last subscriber leaves the stream stops" cam_stops

# Humble's launch orphans its processes on SIGTERM (what stop_launch
# sends, since background jobs ignore SIGINT): interrupt the node itself,
# found as the launch's child, as ctrl-c would.
cam_shutdown() {
	local node
	node=$(pgrep -P "${launched[-1]}" -f lib/telebridge/camera_publisher) || return 1
	kill -INT "$node"
	within 10 bash -c "! kill -0 $node 2>/dev/null" || return 1
	grep -aq 'cameras closed; shutting down' "$cam_log"
}
check "camera: SIGINT stops every stream and closes the cameras before exit" cam_shutdown
stop_launch

# A second node, run directly, with one MJPG camera on the test source:
# the compressed branch (image_raw/compressed, format jpeg).
cam_bin="$(ros2 pkg prefix telebridge)/lib/telebridge/camera_publisher"
"$cam_bin" --ros-args -r __node:=camera_mjpeg -p "cameras:=[mj]" -p mj.device:=pattern:mj \
	-p mj.pixel_format:=MJPG -p mj.frame_rate:=15.0 >"$logs/camera_mjpeg.log" 2>&1 &
cam_mjpeg=$!
cam_compressed() {
	local m
	m=$(within 20 cam_echo /mj/image_raw/compressed) || return 1
	echo "$m" | head -n 8
	grep -q 'format: jpeg' <<<"$m" && grep -q 'frame_id: mj_optical_frame' <<<"$m" &&
		{ m=$(timeout 10 ros2 topic echo --once --full-length /mj/image_raw/compressed --field data 2>&1) || true; } &&
		echo "data: ${m:0:40}" && grep -q '255, 216' <<<"${m:0:200}"
}
check "camera: an MJPG camera publishes image_raw/compressed (jpeg, starts FF D8)" cam_compressed
check "camera: the MJPG camera has no image_raw topic" \
	bash -c '! ros2 topic list | grep -qx /mj/image_raw'

# The ROS operator_console shows the MJPG camera: camera_transport auto
# finds no mj/image_raw, takes mj/image_raw/compressed and serves its
# JPEGs, passed through, as the page's MJPEG stream (/camera/mj).
con_port=$((tb_port + 7))
"$(ros2 pkg prefix telebridge)/lib/telebridge/operator_console" --ros-args -r __node:=console_mjpeg \
	-p "cameras:=[mj]" -p servosila:=false -p "listen:=127.0.0.1:$con_port" -p "audit_file:='off'" \
	-p "state_dir:=$logs/console_mjpeg" >"$logs/console_mjpeg.log" 2>&1 &
con_mjpeg=$!
cam_console_mjpg() {
	local n
	curl -s --max-time 6 -o "$logs/console_mj.mjpg" "http://127.0.0.1:$con_port/camera/mj" || true
	[ -s "$logs/console_mj.mjpg" ] || return 1
	n=$(python3 -c 'import sys; print(open(sys.argv[1], "rb").read().count(b"\xff\xd8\xff"))' "$logs/console_mj.mjpg")
	echo "operator_console's /camera/mj: $(stat -c %s "$logs/console_mj.mjpg") bytes in 6 s, $n JPEG parts"
	grep -a 'camera mj: showing' "$logs/console_mjpeg.log"
	[ "$n" -ge 2 ] && grep -aq 'camera mj: showing /mj/image_raw/compressed' "$logs/console_mjpeg.log"
}
check "camera: the ROS operator_console shows the MJPG camera (image_raw/compressed passed through to /camera/mj)" within 40 cam_console_mjpg
kill -INT "$con_mjpeg" || echo "operator_console had already exited: see $logs/console_mjpeg.log"
within 10 bash -c "! kill -0 $con_mjpeg 2>/dev/null" || kill -KILL "$con_mjpeg"
wait "$con_mjpeg" 2>/dev/null || true

kill -INT "$cam_mjpeg"
within 10 bash -c "! kill -0 $cam_mjpeg 2>/dev/null" || kill -KILL "$cam_mjpeg"
wait "$cam_mjpeg" 2>/dev/null || true

# A third node, run directly: a YUYV test camera streamed as H.264 over
# RTP while the node runs (rtp_to, rtp_sdp), decoded by Debian's ffmpeg
# from the SDP the node writes, with no ROS subscriber at all.
if ! command -v ffmpeg >/dev/null 2>&1; then
	echo "camera: SKIPPED the RTP decode: no ffmpeg on PATH (apt-get install ffmpeg)"
else
	rtp_port=$(python3 -c '
import socket
for p in range(20000 + 2 * (__import__("os").getpid() % 5000), 65000, 2):
    try:
        a = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); a.bind(("127.0.0.1", p))
        b = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); b.bind(("127.0.0.1", p + 1))
        print(p); break
    except OSError:
        pass
')
	rtp_sdp="$logs/camera_rtp.sdp"
	rm -f "$rtp_sdp"
	"$cam_bin" --ros-args -r __node:=camera_rtp -p "cameras:=[rt]" -p rt.device:=pattern:rt \
		-p rt.pixel_format:=YUYV -p "rt.rtp_to:=127.0.0.1:$rtp_port" -p "rt.rtp_sdp:=$rtp_sdp" \
		-p rt.rtp_bitrate:=800000 >"$logs/camera_rtp.log" 2>&1 &
	cam_rtp=$!
	cam_rtp_sdp() {
		within 30 test -s "$rtp_sdp" || { tail -n 5 "$logs/camera_rtp.log"; return 1; }
		cat "$rtp_sdp"
		grep -q "^m=video $rtp_port RTP/AVP 96" "$rtp_sdp" && grep -q 'a=rtpmap:96 H264/90000' "$rtp_sdp" &&
			grep -q 'sprop-parameter-sets=' "$rtp_sdp"
	}
	check "camera: rtp_to streams H.264 and writes the SDP (rtp_sdp) at the first keyframe" cam_rtp_sdp
	# cam_rtp_decode: ffmpeg decodes 30 640x480 pictures of the pattern
	# (grey moving bars: mean luma near the pattern's, not all the same).
	cam_rtp_decode() {
		timeout 60 ffmpeg -hide_banner -loglevel error -protocol_whitelist file,udp,rtp -fflags nobuffer \
			-i "$rtp_sdp" -frames:v 30 -f rawvideo -pix_fmt gray - 2>"$logs/camera_rtp_ffmpeg.log" |
			python3 -c '
import sys
w, h, n = 640, 480, 30
data = sys.stdin.buffer.read()
frames = [data[i * w * h:(i + 1) * w * h] for i in range(len(data) // (w * h))]
means = [sum(f[::97]) / len(f[::97]) for f in frames]
print("decoded %d frames of 640x480; mean luma %s; %d distinct" % (len(frames), " ".join("%.0f" % m for m in means[:8]), len(set(frames))))
sys.exit(0 if len(frames) == n and all(90 <= m <= 170 for m in means) and len(set(frames)) > 1 else 1)
'
		local rc=$?
		cat "$logs/camera_rtp_ffmpeg.log"
		return $rc
	}
	check "camera: ffmpeg decodes 30 frames of the pattern from the written SDP while camera_publisher runs" cam_rtp_decode
	# cam_rtp_diag: with no ROS subscriber the camera captures for RTP,
	# and diagnostics count what was sent.
	cam_rtp_diag() {
		local f a
		f=$(cam_node=/camera_rtp cam_diag rt frames) # this node's name (its statuses are named after it)
		a=$(cam_node=/camera_rtp cam_diag rt "rtp access units")
		echo "rt: $f frames captured, $a access units sent over RTP"
		[ -n "$f" ] && [ -n "$a" ] && [ "$f" -gt 0 ] && [ "$a" -gt 0 ]
	}
	check "camera: with rtp_to the camera streams without ROS subscribers; diagnostics count the RTP access units" within 20 cam_rtp_diag
	kill -INT "$cam_rtp"
	within 10 bash -c "! kill -0 $cam_rtp 2>/dev/null" || kill -KILL "$cam_rtp"
	wait "$cam_rtp" 2>/dev/null || true
fi
