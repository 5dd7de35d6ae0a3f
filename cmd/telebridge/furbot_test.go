package main

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// furbotGoldenStatus is the all-block golden frame of pkg/furbot's tests
// and of docs/protocols/furbot.md.
const furbotGoldenStatus = `41545346 0001e240 0c 000000
00 06 02 01 04d2 0003
01 08 02 57 012c 12c0 1f 17
02 07 02 01 01 00003039
03 11 02 01 05dc 01f4 01f6 0096 0000 00 00003039
04 05 02 fe0c fe0c
05 08 02 01 05dc 2d 5a 0003
06 07 02 fff6 0000 0190
07 07 02 000a 0000 0192
08 07 02 0000 0000 012c
09 07 02 0005 0000 012e
0a 0b 02 0064 ff38 0000 01f4 0001
0b 0b 03 0000 0000 fffb 0000 0000`

const furbotGoldenControl = "41544346 00000001 000003e8 000005dc 000000fa 0000 01 00"

// runCmd runs telebridge with args and returns the exit status and the
// two output streams.
func runCmd(t *testing.T, ctx context.Context, args []string, in string, terminal bool) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(ctx, args, stdio{in: strings.NewReader(in), out: &out, err: &errOut, isTerminal: terminal})
	return code, out.String(), errOut.String()
}

func TestDecodeFurbotStatus(t *testing.T) {
	code, out, errOut := runCmd(t, context.Background(), []string{"decode", "furbot", "--hex", furbotGoldenStatus}, "", false)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Frame     string
		Timestamp uint32
		Traction  struct {
			Speed      int16
			WheelRight int16 `json:"wheel_right"`
			Odometer   int32
		}
		Steering   struct{ Angle int16 }
		BMS        struct{ Voltage uint16 }
		Suspension map[string]struct{ Pressure uint16 }
		Forks      map[string]struct{ State uint8 }
		Working    []string
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got.Frame != "status" || got.Timestamp != 123456 || got.Traction.Speed != 1500 || got.Traction.WheelRight != 502 ||
		got.Traction.Odometer != 12345 || got.Steering.Angle != -500 || got.BMS.Voltage != 4800 ||
		got.Suspension["fr"].Pressure != 302 || got.Forks["front"].State != 3 || len(got.Working) != 12 {
		t.Errorf("decoded %+v\n%s", got, out)
	}
}

func TestDecodeFurbotControlAndEncode(t *testing.T) {
	code, out, errOut := runCmd(t, context.Background(), []string{"decode", "furbot", "--hex", furbotGoldenControl}, "", false)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{`"frame": "control"`, `"steer": 1500`, `"throttle": 250`, `"enable"`} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s in\n%s", want, out)
		}
	}
	code, out, errOut = runCmd(t, context.Background(), []string{"encode", "furbot", "--seq", "1", "--timestamp", "1000",
		"--steer-deg", "15", "--throttle", "25", "--enable"}, "", false)
	if code != 0 || strings.TrimSpace(out) != strings.ReplaceAll(furbotGoldenControl, " ", "") {
		t.Errorf("encode: exit %d, %q (%s), want %s", code, out, errOut, furbotGoldenControl)
	}
	// Binary frame on stdin decodes the same.
	code, out, _ = runCmd(t, context.Background(), []string{"decode", "furbot"}, string(mustHex(t, furbotGoldenControl)), false)
	if code != 0 || !strings.Contains(out, `"seq": 1`) {
		t.Errorf("stdin decode: exit %d\n%s", code, out)
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := readPacket(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDecodeFurbotBadInput(t *testing.T) {
	for _, tc := range []struct {
		name, hex, want string
	}{
		{"short status", "41545346 0000", "too short"},
		{"wrong block length", "41545346 00000001 01 000000 04 06 02 0000 0000 00", "wrong block length"},
		{"foreign magic", "deadbeef 00000001", "neither a status"},
		{"control out of range", "41544346 00000001 000003e8 000005dc 000003e9 0000 01 00", "out of range"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCmd(t, context.Background(), []string{"decode", "furbot", "--hex", tc.hex}, "", false)
			if code != 1 || out != "" || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 1 and %q", code, out, errOut, tc.want)
			}
		})
	}
}

func TestEncodeFurbotRejects(t *testing.T) {
	for _, args := range [][]string{
		{"--throttle", "101"},
		{"--throttle", "10", "--brake", "10"},
		{"--steer-deg", "91"},
		{"--seq", "4294967296"},
		{"--brake", "NaN"},
	} {
		code, out, _ := runCmd(t, context.Background(), append([]string{"encode", "furbot"}, args...), "", false)
		if code != 2 || out != "" {
			t.Errorf("%v: exit %d, out %q, want 2 and nothing", args, code, out)
		}
	}
}

func TestFurbotScriptedDrive(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	code, out, errOut := runCmd(t, ctx, []string{"furbot", "--scale", "0.4"}, "", false)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	m := regexp.MustCompile(`result: odometry distance ([0-9.]+) m, truth ([0-9.]+) m, error ([0-9.]+) %`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no result line in\n%s", out)
	}
	dist, _ := strconv.ParseFloat(m[2], 64)
	errPct, _ := strconv.ParseFloat(m[3], 64)
	t.Logf("scripted drive: %s", m[0])
	if dist < 3 || errPct >= 1 {
		t.Errorf("distance %v m, error %v %%", dist, errPct)
	}
	if strings.Count(out, "\nt ") != 3 {
		t.Errorf("want one line per segment:\n%s", out)
	}
}

func TestFurbotLiveView(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	code, out, errOut := runCmd(t, ctx, []string{"furbot"}, "v 0.5\nw 0.1\nbogus\ne\nq\n", true)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"subsystems:", "odometry:", "truth:", "keys (then Enter)", `unknown command "bogus"`, "emergency stop LATCHED", "v  0.50 m/s  w  0.10 rad/s"} {
		if !strings.Contains(out, want) {
			t.Errorf("live view lacks %q", want)
		}
	}
}

func TestFurbotRefusesUnattendedRealVehicle(t *testing.T) {
	code, _, errOut := runCmd(t, context.Background(), []string{"furbot", "--vehicle", "127.0.0.1:18004"}, "", false)
	if code != 2 || !strings.Contains(errOut, "refusing") {
		t.Errorf("exit %d, %q", code, errOut)
	}
	code, _, _ = runCmd(t, context.Background(), []string{"furbot", "--scale", "0"}, "", false)
	if code != 2 {
		t.Errorf("--scale 0: exit %d, want 2", code)
	}
}
