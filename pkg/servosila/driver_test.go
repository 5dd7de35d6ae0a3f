package servosila

import (
	"math"
	"net"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// TestEStopSendsAtOnce drives the send path by hand (no Run, so no ticks):
// EStop itself must put a zero packet on the wire, and the latch must hold
// through later ticks until Release and a new command.
func TestEStopSendsAtOnce(t *testing.T) {
	robot, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer robot.Close()
	d, err := New(Config{Robot: robot.LocalAddr().String(), Local: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	read := func() wire.RemoteControl {
		t.Helper()
		buf := make([]byte, 128)
		_ = robot.SetReadDeadline(time.Now().Add(time.Second))
		n, _, err := robot.ReadFromUDPAddrPort(buf)
		if err != nil {
			t.Fatal(err)
		}
		var rc wire.RemoteControl
		if err := wire.DecodeRemoteControl(&rc, buf[:n], 1); err != nil {
			t.Fatal(err)
		}
		return rc
	}
	if err := d.SetCommand(wire.Command{Linear: 0.3, Joints: [wire.NumJoints]float64{wire.Neck: 0.2}}); err != nil {
		t.Fatal(err)
	}
	d.tick(time.Now())
	if rc := read(); rc.Axes[1] == 0 || rc.Axes[4] == 0 {
		t.Fatalf("driving packet %+v", rc.Axes)
	}
	d.EStop()
	if rc := read(); rc.Axes != ([wire.NumAxes]int16{}) {
		t.Fatalf("e-stop packet not zero: %v", rc.Axes)
	}
	if s := d.Status(); s.Sent != 2 || !s.EStopped {
		t.Fatalf("status %+v", s)
	}
	// Latched: a fresh command changes nothing.
	_ = d.SetCommand(wire.Command{Linear: 0.3})
	d.tick(time.Now())
	if rc := read(); rc.Axes != ([wire.NumAxes]int16{}) {
		t.Fatalf("moved while latched: %v", rc.Axes)
	}
	// Released: the command given while latched is discarded...
	d.Release()
	d.tick(time.Now())
	if rc := read(); rc.Axes != ([wire.NumAxes]int16{}) {
		t.Fatalf("release resumed a latched-time command: %v", rc.Axes)
	}
	// ...and a new one moves.
	_ = d.SetCommand(wire.Command{Linear: 0.3})
	d.tick(time.Now())
	if rc := read(); rc.Axes[1] != 21466 {
		t.Fatalf("after release and a new command: %v", rc.Axes)
	}
}

// TestDeadReckoning steps the send path on an injected clock: odometry
// integrates the velocity that was sent, over the time it was in force,
// and stops accumulating once the command times out.
func TestDeadReckoning(t *testing.T) {
	d, err := New(Config{Robot: "127.0.0.1:9", Local: "127.0.0.1:0", CommandTimeout: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	t0 := time.Now()
	sent := float64(wire.Saturate(0.3, d.cfg.Calibration.Linear)) / d.cfg.Calibration.Linear // 0.29999... m/s
	_ = d.SetCommand(wire.Command{Linear: 0.3})
	for i := 0; i <= 10; i++ { // 1 s in 10 ticks
		d.tick(t0.Add(time.Duration(i) * 100 * time.Millisecond))
	}
	p := d.Status().Odometry.Pose
	if math.Abs(p.X-sent) > 1e-9 || p.Y != 0 || p.Yaw != 0 {
		t.Errorf("after 1 s at %.6f m/s: %+v", sent, p)
	}
	// A quarter turn on the spot at the sent yaw rate.
	w := float64(wire.Saturate(0.5, d.cfg.Calibration.Angular)) / d.cfg.Calibration.Angular
	_ = d.SetCommand(wire.Command{Angular: 0.5})
	t1 := t0.Add(time.Second)
	d.tick(t1) // the forward velocity was in force until now
	dur := time.Duration(math.Pi / 2 / w * float64(time.Second))
	for step := 100 * time.Millisecond; step < dur; step += 100 * time.Millisecond {
		d.tick(t1.Add(step))
	}
	d.tick(t1.Add(dur))
	p = d.Status().Odometry.Pose
	if math.Abs(p.X-sent) > 1e-9 || math.Abs(p.Yaw-math.Pi/2) > 1e-6 {
		t.Errorf("after the quarter turn: %+v", p)
	}
	// E-stop: zero velocity from now on, the pose stays.
	d.EStop()
	d.tick(t1.Add(dur + time.Second))
	if q := d.Status().Odometry.Pose; math.Abs(q.Yaw-p.Yaw) > 0.02 || q.X != p.X {
		t.Errorf("moved after the e-stop: %+v -> %+v", p, q)
	}
}

func TestHandleTelemetryAllocs(t *testing.T) {
	d, err := New(Config{Robot: "127.0.0.1:9", Local: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	tel := wire.Telemetry{FrameType: 2, Tick: 0x0102030405060708, MotorCount: 10}
	raw, err := wire.EncodeTelemetry(make([]byte, wire.TelemetrySize), &tel)
	if err != nil {
		t.Fatal(err)
	}
	from := d.robot
	now := time.Now()
	if n := testing.AllocsPerRun(100, func() {
		if err := d.handle(raw, from, now); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocs per telemetry packet", n)
	}
	if tel, _, ok := d.Telemetry(); !ok || tel.Tick != 0x0102030405060708 {
		t.Errorf("telemetry not stored: %+v", tel)
	}
}

func TestDriverTickAllocs(t *testing.T) {
	d, err := New(Config{Robot: "127.0.0.1:9", Local: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.SetCommand(wire.Command{Linear: 0.3, Joints: [wire.NumJoints]float64{wire.Neck: 0.2}}); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { d.tick(time.Now()) }); n != 0 {
		t.Errorf("%v allocs per send tick", n)
	}
}

func BenchmarkDriverTick(b *testing.B) {
	d, err := New(Config{Robot: "127.0.0.1:9", Local: "127.0.0.1:0"})
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	_ = d.SetCommand(wire.Command{Linear: 0.3, Angular: 0.2})
	b.ReportAllocs()
	for b.Loop() {
		d.tick(time.Now())
	}
}
