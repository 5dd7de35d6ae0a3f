package servosila

import (
	"net"
	"testing"
	"time"
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
	read := func() RemoteControl {
		t.Helper()
		buf := make([]byte, 128)
		_ = robot.SetReadDeadline(time.Now().Add(time.Second))
		n, _, err := robot.ReadFromUDPAddrPort(buf)
		if err != nil {
			t.Fatal(err)
		}
		var rc RemoteControl
		if err := DecodeRemoteControl(&rc, buf[:n], 1); err != nil {
			t.Fatal(err)
		}
		return rc
	}
	if err := d.SetCommand(Command{Linear: 0.3, Joints: [NumJoints]float64{Neck: 0.2}}); err != nil {
		t.Fatal(err)
	}
	d.tick(time.Now())
	if rc := read(); rc.Axes[1] == 0 || rc.Axes[4] == 0 {
		t.Fatalf("driving packet %+v", rc.Axes)
	}
	d.EStop()
	if rc := read(); rc.Axes != ([NumAxes]int16{}) {
		t.Fatalf("e-stop packet not zero: %v", rc.Axes)
	}
	if s := d.Status(); s.Sent != 2 || !s.EStopped {
		t.Fatalf("status %+v", s)
	}
	// Latched: a fresh command changes nothing.
	_ = d.SetCommand(Command{Linear: 0.3})
	d.tick(time.Now())
	if rc := read(); rc.Axes != ([NumAxes]int16{}) {
		t.Fatalf("moved while latched: %v", rc.Axes)
	}
	// Released: the command given while latched is discarded...
	d.Release()
	d.tick(time.Now())
	if rc := read(); rc.Axes != ([NumAxes]int16{}) {
		t.Fatalf("release resumed a latched-time command: %v", rc.Axes)
	}
	// ...and a new one moves.
	_ = d.SetCommand(Command{Linear: 0.3})
	d.tick(time.Now())
	if rc := read(); rc.Axes[1] != 21466 {
		t.Fatalf("after release and a new command: %v", rc.Axes)
	}
}
