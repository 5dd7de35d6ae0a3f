package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/telebridge/telebridge/pkg/servosila"
	servosilacontrol "github.com/telebridge/telebridge/pkg/servosila/control"
	servosilawire "github.com/telebridge/telebridge/pkg/servosila/wire"
	"golang.org/x/term"
)

const teleopHelp = `W/S drive  A/D rotate  Q/E waist  Y/H shoulder  U/J elbow  I/K neck
F/R flippers up/down  T/G gripper open/close  L headlight  0 arm home (position control)
Space EMERGENCY STOP (latched)  Enter release  Ctrl-C quit (zeros are sent first)`

// teleop is the interactive mode: raw terminal, hold-to-move keys and a
// live telemetry view, until Ctrl-C or ctx ends.
func teleop(ctx context.Context, s *servosilaSession, stdio stdio, sp teleopSpeeds) error {
	f, ok := stdio.in.(interface{ Fd() uintptr })
	if !ok {
		return errors.New("teleoperation needs a terminal on stdin")
	}
	fd := int(f.Fd())
	old, err := term.MakeRaw(fd)
	if err != nil {
		return fmt.Errorf("raw terminal: %w", err)
	}
	defer term.Restore(fd, old)

	keys := make(chan byte, 64)
	go func() { // blocks in Read until a key; ends with the process
		buf := make([]byte, 16)
		for {
			n, err := stdio.in.Read(buf)
			for _, c := range buf[:n] {
				keys <- c
			}
			if err != nil {
				close(keys)
				return
			}
		}
	}()

	return teleopLoop(ctx, s, keys, stdio.out, sp, 200*time.Millisecond)
}

// teleopLoop turns keys into commands every 50 ms and redraws the view
// every redraw, until Ctrl-C / Ctrl-D, the end of keys, or ctx.
func teleopLoop(ctx context.Context, s *servosilaSession, keys <-chan byte, out io.Writer, sp teleopSpeeds, redraw time.Duration) error {
	hold := newKeyHold()
	headlight := false
	msg := "ready"
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	var lastDraw time.Time
	var cmd servosilawire.Command
	// The screen left behind on exit shows the last state and message,
	// not whatever the last periodic redraw happened to catch.
	defer func() { drawTeleop(out, s, cmd, msg) }()
	for {
		select {
		case <-ctx.Done():
			return nil
		case c, ok := <-keys:
			if !ok {
				return nil
			}
			now := time.Now()
			switch c {
			case 3, 4: // Ctrl-C, Ctrl-D
				return nil
			case ' ':
				s.drv.EStop()
				hold.releaseAll()
				msg = "EMERGENCY STOP latched: Enter releases"
			case '\r', '\n':
				s.drv.Release()
				msg = "released"
			case 'l', 'L':
				headlight = !headlight
				msg = fmt.Sprintf("headlight %v", onOff(headlight))
			case '0':
				msg = "arm home"
				for _, j := range servosilawire.ArmJoints {
					if err := s.drv.SetJointTarget(j, 0); err != nil {
						msg = err.Error()
					}
				}
			default:
				hold.press(c, now)
			}
		case now := <-tick.C:
			cmd = keysCommand(hold, now, sp, headlight)
			if err := s.drv.SetCommand(cmd); err != nil {
				msg = err.Error()
			}
			if now.Sub(lastDraw) >= redraw {
				lastDraw = now
				drawTeleop(out, s, cmd, msg)
			}
		}
	}
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// drawTeleop redraws the live view (raw mode: lines end in \r\n).
func drawTeleop(w io.Writer, s *servosilaSession, cmd servosilawire.Command, msg string) {
	var b strings.Builder
	line := func(format string, a ...any) { fmt.Fprintf(&b, format+"\r\n", a...) }
	b.WriteString("\x1b[H\x1b[2J")
	cfg := s.drv.Config()
	target := "robot " + cfg.Robot
	if s.sim != nil {
		target = "embedded simulator " + cfg.Robot
	}
	line("telebridge servosila -> %s", target)
	line("%s", strings.ReplaceAll(teleopHelp, "\n", "\r\n"))
	line("")
	st := s.drv.Status()
	estop := "off"
	if st.EStopped {
		estop = "LATCHED"
	}
	line("e-stop %s   %s", estop, msg)
	line("keys   linear %+.2f m/s  angular %+.2f rad/s  joints %s", cmd.Linear, cmd.Angular, fmtJoints(cmd.Joints))
	line("sent   linear %+.3f m/s  angular %+.3f rad/s  joints %s%s", st.Last.Command.Linear, st.Last.Command.Angular, fmtJoints(st.Last.Command.Joints), staleNote(st.Last))
	p := st.Odometry.Pose
	line("odom   x %+.3f m  y %+.3f m  yaw %+.3f rad  (dead reckoning from the sent command)", p.X, p.Y, p.Yaw)
	pos, at, ok := s.drv.JointPositions()
	if ok {
		line("tele   waist %+.3f  shoulder %+.3f  elbow %+.3f  neck %+.3f rad  (%.1f s old)",
			pos[servosilawire.Waist], pos[servosilawire.Shoulder], pos[servosilawire.Elbow], pos[servosilawire.Neck], time.Since(at).Seconds())
	} else {
		line("tele   no telemetry yet")
	}
	for _, a := range st.Arm {
		if a.State != servosilacontrol.Idle {
			line("target %-8s %+.3f rad: %s", a.Joint, a.Target, a.State)
		}
	}
	line("link   sent %d  received %d  accepted %d  foreign %d  malformed %d", st.Sent, st.Link.Received, st.Link.Accepted, st.Link.Foreign, st.Link.Malformed)
	if s.sim != nil {
		t := s.sim.State()
		line("truth  x %+.3f m  y %+.3f m  yaw %+.3f rad  v %+.3f m/s  w %+.3f rad/s  waist %+.3f rad  headlight %s",
			t.Pose.X, t.Pose.Y, t.Pose.Yaw, t.Linear, t.Angular, t.Joints[servosilawire.Waist], onOff(t.Headlight))
	}
	line("no battery level, headlight state or gripper rotation in this protocol; the waist cannot turn while driving")
	_, _ = io.WriteString(w, b.String())
}

func fmtJoints(v [servosilawire.NumJoints]float64) string {
	var b strings.Builder
	for j, x := range v {
		if x != 0 && !math.IsNaN(x) {
			fmt.Fprintf(&b, "%s %+.2f ", servosilawire.Joint(j), x)
		}
	}
	if b.Len() == 0 {
		return "-"
	}
	return strings.TrimSpace(b.String())
}

func staleNote(s servosila.Sent) string {
	n := ""
	if s.Dropped != 0 {
		n += "  (not sent: " + servosilawire.DroppedNames(s.Dropped) + ")"
	}
	return n
}
