package servosila

import (
	"math"
	"net"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// lockstep is a driver on an injected clock: send ticks every 200 ms with
// the operator's command re-stamped, telemetry handed over as the robot
// would send it (the echo of the last packet), nothing read from a clock.
type lockstep struct {
	t    *testing.T
	d    *Driver
	now  time.Time
	n    int // send ticks so far
	tick uint64
	raw  [512]byte
}

func newLockstep(t *testing.T) *lockstep {
	t.Helper()
	robot, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { robot.Close() })
	d, err := New(Config{Robot: robot.LocalAddr().String(), Local: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return &lockstep{t: t, d: d, now: time.Now()}
}

// drive runs send ticks for dur at linear [m/s], with a telemetry packet
// every second when tel is set (the ticks count on either way when count).
func (l *lockstep) drive(linear float64, dur time.Duration, tel, count bool) {
	for end := l.now.Add(dur); l.now.Before(end); {
		l.now = l.now.Add(200 * time.Millisecond)
		l.d.mu.Lock()
		l.d.setTwistLocked(linear, 0, l.now)
		l.d.mu.Unlock()
		l.d.tick(l.now)
		if l.n++; l.n%5 == 0 {
			if count {
				l.tick++
			}
			if tel {
				l.telemetry()
			}
		}
	}
}

// telemetry hands over a packet echoing the last remote-control packet.
func (l *lockstep) telemetry() {
	l.d.mu.Lock()
	var ch wire.Channels
	l.d.cfg.Mapping.Decode(&ch, &l.d.last.Packet)
	var echo wire.SpeedEcho
	wire.ExpectEcho(&echo, &ch, l.d.cfg.MotorSlots)
	l.d.mu.Unlock()
	tel := wire.Telemetry{FrameType: 2, Tick: l.tick, MotorCount: wire.NumMotors}
	for i := range tel.Motors {
		tel.Motors[i].SpeedCommand, tel.Motors[i].Speed = echo[i], echo[i]
	}
	pkt, _ := wire.EncodeTelemetry(l.raw[:], &tel)
	if err := l.d.handle(pkt, l.d.robot, l.now.Add(5*time.Millisecond)); err != nil {
		l.t.Fatal(err)
	}
}

// TestCommandLossCovariance: a 2 s hole in the telemetry at 1 Hz (one
// packet missing) while driving at 0.3 m/s is one loss; the pose variance
// grows by the squared distance claimed since the last confirming packet
// plus what the robot may have carried on with for the vendor's 1 s. A hole
// long enough for the lost link inflates once, not twice.
func TestCommandLossCovariance(t *testing.T) {
	for _, c := range []struct {
		name      string
		hole      time.Duration
		lost      bool
		wantSigma float64 // [m]
	}{
		// 3 s between packets: 0.9 m claimed, 0.3 m more the robot may
		// have gone on: sqrt(0.81 + 0.09).
		{"2 s hole", 2 * time.Second, false, math.Sqrt(0.81 + 0.09)},
		// The lost link (declared after 3 s) claims no more motion and
		// inflates by what was claimed until then: the same figure.
		{"4 s hole, link lost", 4 * time.Second, true, math.Sqrt(0.81 + 0.09)},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := newLockstep(t)
			l.drive(0.3, 5*time.Second, true, true)
			if st := l.d.Status(); st.CommandLoss.Events != 0 || st.LinkState.Lost {
				t.Fatalf("before the hole: %+v %+v", st.CommandLoss, st.LinkState)
			}
			l.drive(0.3, c.hole, false, true)
			l.drive(0.3, 2*time.Second, true, true)
			st := l.d.Status()
			if st.CommandLoss.Events != 1 || st.CommandLoss.Gaps != 1 || st.LinkState.Losses > 0 != c.lost {
				t.Errorf("loss %+v, link %+v", st.CommandLoss, st.LinkState)
			}
			sx := math.Sqrt(st.Odometry.PoseCovariance[0] - 1e-4)
			if math.Abs(sx-c.wantSigma) > 0.06 {
				t.Errorf("sigma x %.3f m, want %.3f", sx, c.wantSigma)
			}
		})
	}
}

// TestCheckCommandsAllocs: the receive path with the command check, on
// telemetry that is new every time, allocates nothing.
func TestCheckCommandsAllocs(t *testing.T) {
	l := newLockstep(t)
	l.drive(0.3, 3*time.Second, true, true)
	if n := testing.AllocsPerRun(100, func() {
		l.now = l.now.Add(time.Second)
		l.tick++
		l.telemetry()
	}); n != 0 {
		t.Errorf("%v allocs per telemetry packet", n)
	}
}

// BenchmarkHandleTelemetry is the receive path of one new telemetry
// packet: decode, order, command check.
func BenchmarkHandleTelemetry(b *testing.B) {
	robot, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		b.Fatal(err)
	}
	defer robot.Close()
	d, err := New(Config{Robot: robot.LocalAddr().String(), Local: "127.0.0.1:0"})
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	_ = d.SetTwist(0.3, 0)
	d.tick(time.Now())
	var raw [512]byte
	tel := wire.Telemetry{FrameType: 2, MotorCount: wire.NumMotors}
	at := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		tel.Tick++
		at = at.Add(time.Second)
		pkt, _ := wire.EncodeTelemetry(raw[:], &tel)
		_ = d.handle(pkt, d.robot, at)
	}
}
