package node

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/camera/wire"
	"github.com/telebridge/telebridge/pkg/diag"
	"github.com/telebridge/telebridge/pkg/qos"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

// Decisions of the camera_publisher node that are not per-camera
// parameters.
const (
	// Name is the node's default name.
	Name = "camera_publisher"
	// SubscriberPoll is how often the node reads each publisher's
	// subscription count into SetSubscribers [s]. rclgo has no graph
	// event for matched subscriptions; 150 ms makes the first frame follow
	// a new subscriber quickly and costs a few rcl calls per second.
	SubscriberPoll = 150 * time.Millisecond
	// DiagnosticsPeriod is the period of the node's /diagnostics [s].
	DiagnosticsPeriod = time.Second
	// TopicDiagnostics is the absolute diagnostics topic.
	TopicDiagnostics = "/diagnostics"
)

// QoSDiagnostics is the profile of /diagnostics (reliable, keep last 10,
// as diagnostic_updater uses).
var QoSDiagnostics = qos.Profile{Reliability: qos.Reliable, Durability: qos.Volatile, History: qos.KeepLast, Depth: 10}

// QoSSetCameraInfo is the profile of the set_camera_info services (ROS 2's
// services default: reliable, volatile, keep last 10).
var QoSSetCameraInfo = qos.Profile{Reliability: qos.Reliable, Durability: qos.Volatile, History: qos.KeepLast, Depth: 10}

// ServiceSetCameraInfo returns the name of camera's set_camera_info
// service (sensor_msgs/srv/SetCameraInfo), relative to the node.
func ServiceSetCameraInfo(camera string) string { return camera + "/set_camera_info" }

// NodePlan is what camera_publisher starts with, decided from its start-up
// parameter overrides before the parameters are declared.
type NodePlan struct {
	// Names are the cameras, in the order of the cameras parameter.
	Names []string
	// Config holds the cameras' configurations from defaults and overrides
	// (controls: only the overridden ones, to apply at open).
	Config NodeConfig
	// Table is the node's full parameter table: NodeBindings, then one
	// "<camera>.controls.<name>" per settable control the probe found.
	Table rosparam.Table
	// Warnings are problems that do not stop the node (a camera that could
	// not be probed has no control parameters; it is retried at run time).
	Warnings []string
}

// PlanNode reads the cameras and their configuration from the node's
// start-up overrides (rosparam.Overrides.For), probes each camera's
// controls with probe (camera.ProbeControls on Linux; nil: none) and returns the
// table to declare. Errors are bad or missing parameters.
func PlanNode(over map[string]rosparam.ParameterValue, probe func(camera.Config) ([]wire.Control, error)) (NodePlan, error) {
	names, err := CameraNames(over)
	if err != nil {
		return NodePlan{}, err
	}
	nc, err := DefaultNodeConfig(names)
	if err != nil {
		return NodePlan{}, err
	}
	bs := NodeBindings(names)
	table := bs.Table(nc)
	declared := map[string]bool{}
	for _, p := range table {
		declared[p.Name] = true
	}
	var params []rosparam.Parameter
	for name, v := range over {
		if declared[name] && name != ParamCameras {
			params = append(params, rosparam.Parameter{Name: name, Value: v})
		}
	}
	sort.Slice(params, func(i, j int) bool { return params[i].Name < params[j].Name })
	if err := bs.Apply(&nc, params); err != nil {
		return NodePlan{}, fmt.Errorf("camera: %w: %w", camera.ErrBadParam, err)
	}
	plan := NodePlan{Names: names}
	for i := range nc.Cameras {
		ctl, err := ControlOverrides(over, nc.Cameras[i].Name)
		if err != nil {
			return NodePlan{}, err
		}
		if len(ctl) > 0 {
			nc.Cameras[i].Controls = ctl
		}
	}
	if err := nc.Validate(); err != nil {
		return NodePlan{}, err
	}
	for _, c := range nc.Cameras {
		if probe == nil {
			break
		}
		ctls, err := probe(c)
		if err != nil {
			plan.Warnings = append(plan.Warnings, fmt.Sprintf("camera %s: no control parameters (device not probed: %v)", c.Name, err))
			continue
		}
		for _, ctl := range ctls {
			if ctl.Settable() && camera.ValidName(ctl.Param) {
				table = append(table, ControlParam(c.Name, ctl))
			}
		}
	}
	plan.Config, plan.Table = nc, table
	return plan, nil
}

// ControlChange is an accepted control parameter change for a camera.
type ControlChange struct {
	Camera  int    // index in the cameras parameter
	Control string // parameter form, e.g. "gain"
	Value   int64  // the new value
}

// ControlChanges picks the control changes ("<camera>.controls.<name>",
// integer) out of an accepted parameter update, for Camera.SetControl.
// Every other settable parameter of the node's table is read-only, so
// nothing else needs applying.
func ControlChanges(update []rosparam.Parameter, names []string) []ControlChange {
	var out []ControlChange
	for _, p := range update {
		for i, n := range names {
			ctl, ok := strings.CutPrefix(p.Name, n+"."+ControlPrefix)
			if ok && p.Value.Type == rosparam.ParameterInteger {
				out = append(out, ControlChange{Camera: i, Control: ctl, Value: p.Value.IntegerValue})
			}
		}
	}
	return out
}

// Health is what the node knows about a camera when it reports
// diagnostics.
type Health struct {
	Config     camera.Config     // the camera's configuration
	Negotiated camera.Negotiated // what the driver set
	Open       bool              // the device is open
	Err        error             // last device error
	ControlErr error             // last failed control change
	Streaming  bool              // someone subscribes
	Stats      camera.Stats      // the camera's counters
}

// Diagnose returns the camera's diagnostic status: the frame rate over
// the interval dt since prev (the camera.Stats of the previous report), dropped,
// corrupted and reopen counts. Error when the device is not open, Warn
// when frames were dropped or corrupted in the interval, when a control
// change failed, or when streaming yields no frame; OK otherwise.
func Diagnose(h Health, prev camera.Stats, dt time.Duration) diag.Status {
	s := diag.Status{Name: h.Config.Name, HardwareID: h.Config.Device, Message: "idle: no subscriber, stream off"}
	st := h.Stats
	frames := st.Frames - min(prev.Frames, st.Frames)
	fps := 0.0
	if dt > 0 {
		fps = float64(frames) / dt.Seconds()
	}
	if h.Streaming {
		s.Message = fmt.Sprintf("streaming %.1f fps", fps)
	}
	s.Add("device", h.Config.Device)
	if h.Open {
		n := h.Negotiated
		s.Add("format", n.Format.Name+" -> "+n.Encoding)
		s.Add("size", fmt.Sprintf("%dx%d", n.Width, n.Height))
		s.Add("driver frame rate [Hz]", fmt.Sprintf("%g", n.FrameRate))
	}
	s.Add("streaming", h.Streaming)
	s.Add("fps", fmt.Sprintf("%.2f", fps))
	s.Add("frames", st.Frames)
	s.Add("dropped", st.Dropped)
	s.Add("corrupted", st.Corrupted)
	s.Add("reopen count", st.Reopens)
	s.Add("open failures", st.OpenFails)
	s.Add("timeouts", st.Timeouts)
	if h.Streaming && frames == 0 && dt > 0 {
		s.Raise(diag.Warn, "streaming but no frame in the last interval")
	}
	if d := st.Dropped - min(prev.Dropped, st.Dropped); d > 0 {
		s.Raise(diag.Warn, fmt.Sprintf("%d frames dropped in the last interval", d))
	}
	if c := st.Corrupted - min(prev.Corrupted, st.Corrupted); c > 0 {
		s.Raise(diag.Warn, fmt.Sprintf("%d corrupted buffers skipped in the last interval", c))
	}
	if h.ControlErr != nil {
		s.Raise(diag.Warn, "control change failed: "+h.ControlErr.Error())
	}
	if !h.Open {
		msg := "device not open"
		if h.Err != nil {
			msg += ": " + h.Err.Error()
		}
		s.Raise(diag.Error, msg)
	}
	return s
}
