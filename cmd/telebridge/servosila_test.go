package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/syncbuf"

	"github.com/telebridge/telebridge/pkg/servosila"
	servosilasim "github.com/telebridge/telebridge/pkg/servosila/sim"
)

// call runs telebridge with args and stdin, like main does.
func call(t *testing.T, stdin string, args ...string) (code int, out, errOut string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(context.Background(), args, stdio{in: strings.NewReader(stdin), out: &o, err: &e})
	return code, o.String(), e.String()
}

const (
	// Remote control: forward 0.3 m/s, left 0.5 rad/s (golden bytes of
	// pkg/servosila).
	hexForwardLeft = "01" + "2a31da53" + "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000" + "0000000000000000"
	// Telemetry: tick 7, ten records with device ids 1..10.
	hexTelemetry = "02" + "0700000000000000" + "0a" +
		"010000000000000000000000000000000000000000000000" +
		"020000000000000000000000000000000000000000000000" +
		"030000000000000000000000000000000000000000000000" +
		"0402010040000050fb03000101ffffffff0080ff7f01efbe" +
		"050000000000000000000000000000000000000000000000" +
		"060000000000000000000000000000000000000000000000" +
		"070000000000000000000000000000000000000000000000" +
		"080000000000000000000000000000000000000000000000" +
		"090000000000000000000000000000000000000000000000" +
		"0a0000000000000000000000000000000000000000000000" +
		"00000000000000000000000000000000000000000000000000"
)

func TestDecodeServosila(t *testing.T) {
	code, out, errOut := call(t, "", "decode", "servosila", "--hex", hexForwardLeft)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rc struct {
		Packet    string  `json:"packet"`
		FrameType int     `json:"frame_type"`
		Axes      []int   `json:"axes"`
		Buttons   []int   `json:"buttons"`
		BitRate   float64 `json:"video_bit_rate"`
	}
	if err := json.Unmarshal([]byte(out), &rc); err != nil {
		t.Fatal(err, out)
	}
	if rc.Packet != "remote_control" || rc.FrameType != 1 || len(rc.Axes) != 16 || rc.Axes[0] != 12586 || rc.Axes[1] != 21466 || len(rc.Buttons) != 16 {
		t.Errorf("decoded %+v", rc)
	}

	code, out, errOut = call(t, "", "decode", "servosila", "--hex", hexTelemetry)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var tel struct {
		Packet     string `json:"packet"`
		Tick       uint64 `json:"tick"`
		MotorCount int    `json:"motor_count"`
		Motors     []struct {
			DeviceID     int `json:"device_id"`
			Position     int `json:"position"`
			Speed        int `json:"speed"`
			FaultCounter int `json:"fault_counter"`
		} `json:"motors"`
	}
	if err := json.Unmarshal([]byte(out), &tel); err != nil {
		t.Fatal(err, out)
	}
	if tel.Packet != "telemetry" || tel.Tick != 7 || tel.MotorCount != 10 || len(tel.Motors) != 10 {
		t.Fatalf("decoded %+v", tel)
	}
	for i, m := range tel.Motors {
		if m.DeviceID != i+1 {
			t.Errorf("motor %d has device id %d: not in packet order", i, m.DeviceID)
		}
	}
	if m := tel.Motors[3]; m.Position != 16384 || m.Speed != -1200 || m.FaultCounter != 0xBEEF {
		t.Errorf("motor 3: %+v", m)
	}

	// Binary on stdin works too.
	raw := make([]byte, 57)
	raw[0] = 1
	if code, out, _ := call(t, string(raw), "decode", "servosila"); code != 0 || !strings.Contains(out, `"remote_control"`) {
		t.Errorf("stdin: exit %d, %s", code, out)
	}
}

func TestDecodeServosilaBadInput(t *testing.T) {
	for _, c := range []struct{ name, hex, want string }{
		{"short", hexForwardLeft[:100], "wrong packet length"},
		{"wrong frame type", "02" + hexForwardLeft[2:], "wrong frame type"},
		{"too many motors", hexTelemetry[:18] + "0b" + hexTelemetry[20:], "motor count out of range"},
		{"not hex", "zz", "parse --hex"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := call(t, "", "decode", "servosila", "--hex", c.hex)
			if code != 1 || out != "" || !strings.Contains(errOut, c.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 1 and %q", code, out, errOut, c.want)
			}
		})
	}
}

func TestEncodeServosila(t *testing.T) {
	code, out, errOut := call(t, "", "encode", "servosila", "--linear", "0.3", "--angular", "0.5")
	if code != 0 || strings.TrimSpace(out) != hexForwardLeft {
		t.Errorf("exit %d (%s)\n got %s\nwant %s", code, errOut, out, hexForwardLeft)
	}
	// 0.1 m/s goes out as the 0.2 m/s minimum: 14311 = 0x37e7.
	if _, out, _ := call(t, "", "encode", "servosila", "--linear", "0.1"); !strings.HasPrefix(out, "010000e737") {
		t.Errorf("minimum start: %s", out)
	}
	// The waist cannot move with the chassis: warned about.
	if code, _, errOut := call(t, "", "encode", "servosila", "--linear", "0.3", "--waist", "0.2"); code != 0 || !strings.Contains(errOut, "waist cannot move") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut := call(t, "", "encode", "servosila", "--linear", "NaN"); code != 1 || !strings.Contains(errOut, "invalid command") {
		t.Errorf("NaN: exit %d, %s", code, errOut)
	}
	if code, _, _ := call(t, "", "encode", "servosila", "--speed", "1"); code != 2 {
		t.Errorf("unknown flag: exit %d, want 2", code)
	}
}

func TestCalibrateCommand(t *testing.T) {
	code, out, errOut := call(t, "", "calibrate", "../../pkg/servosila/control/testdata/calibration_seed001.csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"linear: 72038.221 units per m/s", "mean of row ratios 72021.739", "angular: 23975.719 units per rad/s", "27000"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if code, _, errOut := call(t, "linear,1,2\n", "calibrate"); code != 1 || !strings.Contains(errOut, "header") {
		t.Errorf("bad CSV: exit %d, %s", code, errOut)
	}
}

func TestServosilaScriptedDrive(t *testing.T) {
	if testing.Short() {
		t.Skip("scripted drive takes about 6 s")
	}
	t.Parallel()
	// No terminal on stdin: the scripted drive runs without --script.
	code, out, errOut := call(t, "", "servosila")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	for _, want := range []string{"1. forward", "2. turn", "3. waist to 0.300 rad: reached", "4. e-stop", "5. release", "6. stop", "ok: scripted drive done"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "FAILED") {
		t.Errorf("a check failed:\n%s", out)
	}
}

func TestServosilaFlags(t *testing.T) {
	if code, _, errOut := call(t, "", "servosila", "--robot", "not-an-address"); code != 1 || !strings.Contains(errOut, "robot address") {
		t.Errorf("bad robot address: exit %d, %s", code, errOut)
	}
	if code, _, _ := call(t, "", "servosila", "extra"); code != 2 {
		t.Errorf("extra argument: exit %d, want 2", code)
	}
	if code, _, errOut := call(t, "", "servosila", "--rate", "-1"); code != 1 || !strings.Contains(errOut, "SendRate") {
		t.Errorf("zero rate: exit %d, %s", code, errOut)
	}
}

// TestTeleopLoop feeds key presses to the teleoperation loop against the
// embedded simulator: W held moves it, Space latches the e-stop, Enter
// releases, L switches the headlight, Ctrl-C ends the loop.
func TestTeleopLoop(t *testing.T) {
	s, err := startServosila(context.Background(), servosila.Config{SendRate: 20}, 20)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	keys := make(chan byte, 16)
	var view syncbuf.Buffer
	done := make(chan error, 1)
	go func() {
		done <- teleopLoop(context.Background(), s, keys, &view, teleopSpeeds{linear: 0.3, angular: 0.6, joint: 0.3}, 50*time.Millisecond)
	}()
	waitSim := func(what string, cond func(servosilasim.State) bool) {
		t.Helper()
		end := time.Now().Add(2 * time.Second)
		for !cond(s.sim.State()) {
			if time.Now().After(end) {
				t.Fatalf("%s: simulator %+v", what, s.sim.State())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	keys <- 'l'
	keys <- 'w' // one press: held for 600 ms
	waitSim("W drives", func(st servosilasim.State) bool { return math.Abs(st.Linear-0.3) < 1e-3 && st.Headlight })
	waitSim("W released", func(st servosilasim.State) bool { return st.Linear == 0 })
	keys <- 'w'
	waitSim("W drives again", func(st servosilasim.State) bool { return st.Linear > 0 })
	keys <- ' '
	waitSim("Space stops", func(st servosilasim.State) bool { return st.Linear == 0 })
	keys <- 'w'
	time.Sleep(200 * time.Millisecond)
	if st := s.sim.State(); st.Linear != 0 || !s.drv.Status().EStopped {
		t.Fatalf("moved while latched: %+v", st)
	}
	keys <- '\r'
	keys <- 'w'
	waitSim("Enter releases", func(st servosilasim.State) bool { return st.Linear > 0 })
	keys <- 3
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"embedded simulator", "e-stop", "truth", "released"} {
		if !strings.Contains(view.String(), want) {
			t.Errorf("view lacks %q", want)
		}
	}
}
