package servosila_test

import (
	"errors"
	"math"
	"testing"

	"github.com/telebridge/telebridge/pkg/rosparam"
	"github.com/telebridge/telebridge/pkg/servosila"
	"github.com/telebridge/telebridge/pkg/servosila/node"
	servosilasim "github.com/telebridge/telebridge/pkg/servosila/sim"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

func newIdleDriver(t *testing.T) *servosila.Driver {
	t.Helper()
	d, err := servosila.New(servosila.Config{Robot: "127.0.0.1:9", Local: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// Every parameter the table marks live must reach a running driver; the
// driver copies live fields one by one, and this keeps that list complete.
func TestReconfigureAppliesEveryLiveParameter(t *testing.T) {
	n := 0
	for _, p := range node.DriverParameterTable() {
		if p.ReadOnly {
			continue
		}
		n++
		t.Run(p.Name, func(t *testing.T) {
			d := newIdleDriver(t)
			v := p.Default
			switch p.Type {
			case rosparam.ParameterDouble:
				// A quarter of the way towards the far end of the range.
				if p.Default.DoubleValue < p.Range.To {
					v.DoubleValue += (p.Range.To - p.Default.DoubleValue) / 4
				} else {
					v.DoubleValue -= (p.Default.DoubleValue - p.Range.From) / 4
				}
			default:
				t.Fatalf("live parameter of type %s: extend this test", rosparam.TypeName(p.Type))
			}
			if err := node.Reconfigure(d, []rosparam.Parameter{{Name: p.Name, Value: v}}); err != nil {
				t.Fatalf("Reconfigure(%s = %v): %v", p.Name, v, err)
			}
			cfg := d.Config()
			got, err := node.Parameter(&cfg, p.Name)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got.DoubleValue-v.DoubleValue) > 1e-9 {
				t.Fatalf("%s = %v after Reconfigure(%v): the driver did not take it", p.Name, got, v)
			}
		})
	}
	if n < 10 {
		t.Fatalf("only %d live parameters", n)
	}
}

func TestReconfigureIsAllOrNothing(t *testing.T) {
	d := newIdleDriver(t)
	before := d.Config()
	tests := []struct {
		name string
		ps   []rosparam.Parameter
		want error
	}{
		{"read-only", []rosparam.Parameter{{Name: "max_linear", Value: rosparam.Double(0.3)}, {Name: "robot_address", Value: rosparam.String("10.0.0.1:1")}}, node.ErrReadOnly},
		{"unknown", []rosparam.Parameter{{Name: "max_linear", Value: rosparam.Double(0.3)}, {Name: "warp", Value: rosparam.Double(9)}}, node.ErrParam},
		{"out of range", []rosparam.Parameter{{Name: "max_linear", Value: rosparam.Double(0.3)}, {Name: "arm.gain", Value: rosparam.Double(-1)}}, node.ErrParam},
	}
	for _, tc := range tests {
		if err := node.Reconfigure(d, tc.ps); !errors.Is(err, tc.want) {
			t.Errorf("%s: err %v, want %v", tc.name, err, tc.want)
		}
		if after := d.Config(); after.MaxLinear != before.MaxLinear || after.Arm != before.Arm {
			t.Fatalf("%s: a refused update changed the driver (max_linear %v -> %v)", tc.name, before.MaxLinear, after.MaxLinear)
		}
	}
}

// A live speed limit takes effect on the simulated robot over UDP.
func TestReconfigureLimitsTheSimulatedRobot(t *testing.T) {
	r := startRig(t, fastConfig())
	if err := node.Reconfigure(r.drv, []rosparam.Parameter{{Name: "max_linear", Value: rosparam.Double(0.25)}}); err != nil {
		t.Fatal(err)
	}
	r.holdUntil(t, wire.Command{Linear: 0.4}, "robot at the new 0.25 m/s limit", func(s servosilasim.State) bool {
		return math.Abs(s.Linear-0.25) < 0.01
	})
}
