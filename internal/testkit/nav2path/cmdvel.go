package nav2path

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Command is one cmd_vel message: linear.x [m/s] and angular.z [rad/s].
type Command struct {
	Linear, Angular float64 // [m/s], [rad/s]
}

// ParseCmdVel reads Twist messages as `ros2 topic echo /cmd_vel
// geometry_msgs/msg/Twist --csv` prints them: one message a line,
// "linear.x,linear.y,linear.z,angular.x,angular.y,angular.z". Empty lines
// and "---" separators are skipped; any other line is an error naming its
// line number.
func ParseCmdVel(r io.Reader) ([]Command, error) {
	var out []Command
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line == "---" {
			continue
		}
		f := strings.Split(line, ",")
		if len(f) != 6 {
			return nil, fmt.Errorf("cmd_vel line %d: %d fields, want 6: %q", n, len(f), line)
		}
		var v [6]float64
		for i, s := range f {
			x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("cmd_vel line %d: field %d: %q is not a finite number", n, i+1, s)
			}
			v[i] = x
		}
		out = append(out, Command{Linear: v[0], Angular: v[5]})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read cmd_vel: %w", err)
	}
	return out, nil
}

// YawDeadband is the yaw rate below which a command counts as no turn in
// SignChanges [rad/s]: a tenth of the 0.1 rad/s a 4 m arc at 0.4 m/s
// needs, well above the rounding noise of a straight path.
const YawDeadband = 0.01

// CommandStats sums up the commands sent while driving (linear.x > 0).
type CommandStats struct {
	// Driving is the number of commands with linear.x > 0.
	Driving int
	// SignChanges counts the changes of sign of angular.z from one driving
	// command to the next, ignoring those with |angular.z| < YawDeadband.
	SignChanges int
	// MinLinear is the smallest linear.x > 0 sent [m/s] (0 if none).
	MinLinear float64
	// Below counts driving commands with linear.x below belowLinear.
	Below int
	// MaxAngular is the largest |angular.z| while driving [rad/s].
	MaxAngular float64
}

// Commands sums up cmds; belowLinear is the speed Below counts under
// (e.g. a driver's minimum start velocity).
func Commands(cmds []Command, belowLinear float64) CommandStats {
	var st CommandStats
	last := 0.0 // sign of the previous turning command, 0 before the first
	for _, c := range cmds {
		if !(c.Linear > 0) {
			continue
		}
		st.Driving++
		if st.MinLinear == 0 || c.Linear < st.MinLinear {
			st.MinLinear = c.Linear
		}
		if c.Linear < belowLinear {
			st.Below++
		}
		st.MaxAngular = math.Max(st.MaxAngular, math.Abs(c.Angular))
		if math.Abs(c.Angular) < YawDeadband {
			continue
		}
		sign := math.Copysign(1, c.Angular)
		if last != 0 && sign != last {
			st.SignChanges++
		}
		last = sign
	}
	return st
}
