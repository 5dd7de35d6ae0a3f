package nav2path

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Sample is one true state a simulator printed.
type Sample struct {
	// T is the simulator's time [s] (furbot-sim), or NaN where the line
	// carries none (servosila-sim).
	T float64
	Pose
	// V is the true forward speed [m/s].
	V float64
}

// ParseTruth reads the true states from a launch log or a simulator's
// output: servosila-sim's lines ("link true  x +0.000 m  y ... yaw ... v
// ...") and furbot-sim's ("t    1.23 s  x ... y ... yaw ... v ..."), with
// or without the "[name-1] " prefix ros2 launch puts before a process's
// output. Every other line is skipped; a simulator line whose fields do
// not parse is an error naming its line number.
func ParseTruth(r io.Reader) ([]Sample, error) {
	var out []Sample
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "[") {
			if i := strings.Index(line, "] "); i > 0 {
				line = line[i+2:]
			}
		}
		f := strings.Fields(line)
		if len(f) < 2 || !(f[0] == "link" || f[0] == "t") {
			continue
		}
		s := Sample{T: math.NaN()}
		want := map[string]*float64{"x": &s.X, "y": &s.Y, "yaw": &s.Yaw, "v": &s.V}
		if f[0] == "t" {
			if _, err := strconv.ParseFloat(f[1], 64); err != nil {
				continue // not furbot-sim's time
			}
			want["t"] = &s.T
		} else if f[1] != "true" && f[1] != "false" {
			continue
		}
		for i := 0; i+1 < len(f); i++ {
			p, ok := want[f[i]]
			if !ok {
				continue
			}
			v, err := strconv.ParseFloat(f[i+1], 64)
			if err != nil {
				return nil, fmt.Errorf("truth line %d: %s: %w", n, f[i], err)
			}
			*p = v
			delete(want, f[i])
		}
		if len(want) != 0 {
			if f[0] == "t" {
				continue // "t" starts other lines too; a truth line has them all
			}
			return nil, fmt.Errorf("truth line %d: fields missing: %q", n, sc.Text())
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read truth: %w", err)
	}
	return out, nil
}
