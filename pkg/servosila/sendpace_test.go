package servosila

import (
	"context"
	"math"
	"net"
	"sort"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

func TestNextSend(t *testing.T) {
	t0 := time.Unix(1000, 0)
	period, gap := 200*time.Millisecond, 20*time.Millisecond
	for _, c := range []struct {
		name    string
		changed bool
		period  time.Duration
		want    time.Duration
	}{
		{"unchanged: keep-alive one period after the last packet", false, period, period},
		{"changed: one gap after the last packet", true, period, gap},
		{"changed, gap not shorter than the period: keep-alive", true, gap, gap},
	} {
		if got := nextSend(t0, c.changed, c.period, gap); got.Sub(t0) != c.want {
			t.Errorf("%s: due after %v, want %v", c.name, got.Sub(t0), c.want)
		}
	}
}

// sendRig is a running driver and a raw UDP socket standing for the robot.
type sendRig struct {
	d     *Driver
	robot *net.UDPConn
	buf   []byte
}

func startSendRig(t *testing.T, cfg Config) *sendRig {
	t.Helper()
	robot, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { robot.Close() })
	cfg.Robot, cfg.Local = robot.LocalAddr().String(), "127.0.0.1:0"
	cfg.CommandTimeout = time.Hour
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	})
	return &sendRig{d: d, robot: robot, buf: make([]byte, 128)}
}

// read returns the next remote-control packet (the wait is a deadline on
// the socket, generous for a loaded machine).
func (r *sendRig) read(t *testing.T, within time.Duration) wire.RemoteControl {
	t.Helper()
	_ = r.robot.SetReadDeadline(time.Now().Add(within))
	n, _, err := r.robot.ReadFromUDPAddrPort(r.buf)
	if err != nil {
		t.Fatalf("no packet within %v: %v", within, err)
	}
	var rc wire.RemoteControl
	if err := wire.DecodeRemoteControl(&rc, r.buf[:n], 1); err != nil {
		t.Fatal(err)
	}
	return rc
}

// TestSendOnChange: with a 2 s keep-alive and a 250 ms rate bound, a
// changed command goes out at once (counted as a change, not a
// keep-alive), two changes in a row give an immediate packet and the
// second one gap later, repeated identical commands send nothing, and the
// e-stop goes out at once inside the gap.
func TestSendOnChange(t *testing.T) {
	const gap = 250 * time.Millisecond
	r := startSendRig(t, Config{SendRate: 0.5, MaxSendRate: 4})
	lin := func(rc wire.RemoteControl) int16 { return rc.Axes[1] }
	if rc := r.read(t, 5*time.Second); lin(rc) != 0 {
		t.Fatalf("first packet %v", rc.Axes)
	}
	start := r.d.Status()
	// Let the rate bound of the first packet pass (a precondition on the
	// clock, not a synchronisation: the packets are read from the socket).
	time.Sleep(time.Until(start.Last.At.Add(gap)))

	// Two changes within the gap: the first goes out at once, the second
	// (given as soon as the first is on the wire) at the rate bound.
	_ = r.d.SetTwist(0.3, 0)
	if rc := r.read(t, 5*time.Second); lin(rc) != 21466 {
		t.Fatalf("first change: linear %d, want 21466 (0.3 m/s)", lin(rc))
	}
	first := r.d.Status()
	_ = r.d.SetTwist(0.2, 0)
	if rc := r.read(t, 5*time.Second); lin(rc) != 14311 {
		t.Fatalf("second change: linear %d, want 14311 (0.2 m/s)", lin(rc))
	}
	second := r.d.Status()
	if got := second.Last.At.Sub(first.Last.At); got < gap {
		t.Errorf("second change %v after the first, want >= %v (max_send_rate)", got, gap)
	}
	if second.Changes-start.Changes != 2 || second.Sent-start.Sent != 2 {
		t.Errorf("changes %d, sent %d since the start; want 2 and 2 (no keep-alive yet)",
			second.Changes-start.Changes, second.Sent-start.Sent)
	}

	// Unchanged commands send nothing: the next packet is the next change.
	for i := 0; i < 50; i++ {
		_ = r.d.SetTwist(0.2, 0)
		_ = r.d.SetJointVelocities([wire.NumJoints]float64{})
		r.d.SetHeadlight(false)
	}
	_ = r.d.SetTwist(-0.3, 0)
	if rc := r.read(t, 5*time.Second); lin(rc) != -21466 {
		t.Fatalf("after 50 unchanged commands the next packet has linear %d, want -21466", lin(rc))
	}
	third := r.d.Status()
	if third.Sent-second.Sent != 1 || third.Changes-second.Changes != 1 {
		t.Errorf("%d packets (%d changes) for 150 unchanged commands and one change; want 1 (1)",
			third.Sent-second.Sent, third.Changes-second.Changes)
	}

	// The e-stop is not held back by the rate bound: its packet is on the
	// wire when EStop returns.
	r.d.EStop()
	if rc := r.read(t, time.Second); rc.Axes != ([wire.NumAxes]int16{}) {
		t.Fatalf("e-stop packet %v", rc.Axes)
	}

	// Nothing changes: the keep-alive repeats the command in force
	// (zero while latched) one period after the last packet.
	if rc := r.read(t, 10*time.Second); rc.Axes != ([wire.NumAxes]int16{}) {
		t.Fatalf("keep-alive %v", rc.Axes)
	}
	ka := r.d.Status()
	if ka.Changes != third.Changes {
		t.Errorf("keep-alive counted as a change")
	}
}

// TestSendOnChangeJoints: joint velocities, the headlight and Release
// count as changes too.
func TestSendOnChangeJoints(t *testing.T) {
	r := startSendRig(t, Config{SendRate: 0.5, MaxSendRate: 1000})
	prev := r.read(t, 5*time.Second)
	for _, step := range []struct {
		name string
		do   func()
	}{
		{"joint velocity", func() { _ = r.d.SetJointVelocities([wire.NumJoints]float64{wire.Neck: 0.2}) }},
		{"headlight", func() { r.d.SetHeadlight(true) }},
		{"command with headlight off", func() { _ = r.d.SetCommand(wire.Command{Linear: 0.3}) }},
	} {
		before := r.d.Status()
		step.do()
		rc := r.read(t, 5*time.Second)
		after := r.d.Status()
		if rc == prev || after.Changes != before.Changes+1 {
			t.Errorf("%s: packet %+v (previous %+v), changes %d -> %d", step.name, rc, prev, before.Changes, after.Changes)
		}
		prev = rc
	}
}

// BenchmarkSetTwistToWire measures SetTwist until the packet is read on a
// real loopback socket (the driver's send loop running, max_send_rate
// 1000 Hz so that the bound does not enter), reporting p50 and p99.
func BenchmarkSetTwistToWire(b *testing.B) {
	robot, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		b.Fatal(err)
	}
	defer robot.Close()
	d, err := New(Config{Robot: robot.LocalAddr().String(), Local: "127.0.0.1:0", MaxSendRate: 1000, CommandTimeout: time.Hour})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	buf := make([]byte, 128)
	var rc wire.RemoteControl
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v := 0.3 + 0.01*float64(i%2)
		want := wire.Saturate(v, wire.DefaultCalibration().Linear)
		time.Sleep(time.Millisecond) // leave the 1 ms bound of the last packet
		t0 := time.Now()
		if err := d.SetTwist(v, 0); err != nil {
			b.Fatal(err)
		}
		for { // skip keep-alives of the previous command
			_ = robot.SetReadDeadline(time.Now().Add(5 * time.Second))
			n, _, err := robot.ReadFromUDPAddrPort(buf)
			if err != nil {
				b.Fatal(err)
			}
			if err := wire.DecodeRemoteControl(&rc, buf[:n], 1); err != nil {
				b.Fatal(err)
			}
			if rc.Axes[1] == want {
				break
			}
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	cancel()
	if err := <-done; err != nil {
		b.Fatal(err)
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// TestSendPathAllocs: a changed command and its packet allocate nothing.
func TestSendPathAllocs(t *testing.T) {
	d, err := New(Config{Robot: "127.0.0.1:9", Local: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	v := 0.3
	if n := testing.AllocsPerRun(100, func() {
		v = -v
		_ = d.SetTwist(v, 0.1)
		d.tick(time.Now())
	}); n != 0 {
		t.Errorf("%v allocs per SetTwist + send", n)
	}
}

// TestOdometryIrregularSends: packets at irregular times (changes between
// keep-alives) integrate each twist exactly over the time it was in force.
func TestOdometryIrregularSends(t *testing.T) {
	d, err := New(Config{Robot: "127.0.0.1:9", Local: "127.0.0.1:0", CommandTimeout: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	sent := func(v float64) float64 {
		return float64(wire.Saturate(v, d.cfg.Calibration.Linear)) / d.cfg.Calibration.Linear
	}
	t0 := time.Unix(1000, 0)
	want := 0.0
	at := t0
	d.tick(at)
	// (speed, how long it stays in force): changes 3 ms, 17 ms, 200 ms,
	// 41 ms apart, as on-change sends and keep-alives would be.
	for _, s := range []struct {
		v  float64
		dt time.Duration
	}{{0.3, 3 * time.Millisecond}, {0.25, 17 * time.Millisecond}, {0.4, 200 * time.Millisecond}, {-0.35, 41 * time.Millisecond}, {0.3, 130 * time.Millisecond}} {
		_ = d.SetTwist(s.v, 0)
		d.tick(at) // the change goes out at once
		at = at.Add(s.dt)
		want += sent(s.v) * s.dt.Seconds()
	}
	d.tick(at)
	if x := d.Status().Odometry.Pose.X; math.Abs(x-want) > 1e-12 {
		t.Errorf("odometry x = %.9f m, want %.9f m", x, want)
	}
}
