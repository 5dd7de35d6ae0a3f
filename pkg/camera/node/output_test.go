package node

import (
	"errors"
	"reflect"
	"testing"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/camera/compress"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

func TestOutputNormalize(t *testing.T) {
	def, err := Output{}.Normalize()
	if err != nil || def != (Output{JPEGQuality: compress.DefaultQuality, RTPBitrate: DefaultRTPBitrate}) || def.RTP() {
		t.Fatalf("defaults %+v, %v", def, err)
	}
	cases := []struct {
		name string
		out  Output
		ok   bool
	}{
		{"quality 1", Output{JPEGQuality: 1}, true},
		{"quality 100", Output{JPEGQuality: 100}, true},
		{"quality 101", Output{JPEGQuality: 101}, false},
		{"quality -5", Output{JPEGQuality: -5}, false},
		{"rtp to an address", Output{RTPTo: "127.0.0.1:5004", RTPSDP: "/tmp/zoom.sdp"}, true},
		{"rtp to multicast", Output{RTPTo: "239.1.1.1:5004"}, true},
		{"rtp to IPv6", Output{RTPTo: "[::1]:5004"}, true},
		{"rtp to a name", Output{RTPTo: "operator.local:5004"}, true},
		{"rtp without port", Output{RTPTo: "127.0.0.1"}, false},
		{"rtp port 0", Output{RTPTo: "127.0.0.1:0"}, false},
		{"rtp port 70000", Output{RTPTo: "127.0.0.1:70000"}, false},
		{"rtp without host", Output{RTPTo: ":5004"}, false},
		{"rtp named port", Output{RTPTo: "127.0.0.1:rtp"}, false},
		{"bitrate 10 kbit/s", Output{RTPTo: "127.0.0.1:5004", RTPBitrate: MinRTPBitrate}, true},
		{"bitrate 5 kbit/s", Output{RTPTo: "127.0.0.1:5004", RTPBitrate: 5000}, false},
		{"bitrate 1 Gbit/s", Output{RTPTo: "127.0.0.1:5004", RTPBitrate: 1_000_000_000}, false},
		{"bitrate negative", Output{RTPBitrate: -1}, false},
		{"sdp without rtp", Output{RTPSDP: "/tmp/x.sdp"}, false},
		{"sdp a directory", Output{RTPTo: "127.0.0.1:5004", RTPSDP: "/tmp/"}, false},
	}
	for _, tc := range cases {
		_, err := tc.out.Normalize()
		if ok := err == nil; ok != tc.ok || (!ok && !errors.Is(err, camera.ErrBadParam)) {
			t.Errorf("%s: %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}

// TestPlanNodeOutputs: the outputs come from the overrides, with defaults
// for the cameras that set none; bad ones stop the node.
func TestPlanNodeOutputs(t *testing.T) {
	over := map[string]rosparam.ParameterValue{
		ParamCameras:        rosparam.StringArray([]string{"front", "zoom"}),
		"front.device":      rosparam.String("pattern:front"),
		"zoom.device":       rosparam.String("pattern:zoom"),
		"zoom.jpeg_quality": rosparam.Integer(60),
		"zoom.rtp_to":       rosparam.String("127.0.0.1:5004"),
		"zoom.rtp_bitrate":  rosparam.Integer(500_000),
		"zoom.rtp_sdp":      rosparam.String("/tmp/zoom.sdp"),
	}
	plan, err := PlanNode(over, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Output{
		{JPEGQuality: compress.DefaultQuality, RTPBitrate: DefaultRTPBitrate},
		{JPEGQuality: 60, RTPTo: "127.0.0.1:5004", RTPBitrate: 500_000, RTPSDP: "/tmp/zoom.sdp"},
	}
	if !reflect.DeepEqual(plan.Config.Outputs, want) {
		t.Errorf("outputs %+v, want %+v", plan.Config.Outputs, want)
	}
	byName := map[string]rosparam.Param{}
	for _, p := range plan.Table {
		byName[p.Name] = p
	}
	q := byName["zoom.jpeg_quality"]
	if q.ReadOnly || q.Range == nil || q.Range.From != 1 || q.Range.To != 100 || !q.Default.Equal(rosparam.Integer(compress.DefaultQuality)) {
		t.Errorf("zoom.jpeg_quality %+v", q)
	}
	if r := byName["front.rtp_to"]; !r.ReadOnly || !r.Default.Equal(rosparam.String("")) || r.Validate(rosparam.String("x")) == nil {
		t.Errorf("front.rtp_to %+v", r)
	}
	for name, v := range map[string]rosparam.ParameterValue{
		"zoom.rtp_to":       rosparam.String("nowhere"),
		"zoom.rtp_bitrate":  rosparam.Integer(1),
		"zoom.jpeg_quality": rosparam.Integer(101),
		"zoom.rtp_sdp":      rosparam.String("/tmp/"),
	} {
		bad := map[string]rosparam.ParameterValue{}
		for k, x := range over {
			bad[k] = x
		}
		bad[name] = v
		if _, err := PlanNode(bad, nil); !errors.Is(err, camera.ErrBadParam) {
			t.Errorf("%s = %+v: %v, want ErrBadParam", name, v, err)
		}
	}
	// Two cameras to one destination would interleave two streams.
	dup := map[string]rosparam.ParameterValue{}
	for k, x := range over {
		dup[k] = x
	}
	dup["front.rtp_to"] = rosparam.String("127.0.0.1:5004")
	if _, err := PlanNode(dup, nil); !errors.Is(err, camera.ErrBadParam) {
		t.Errorf("two cameras to one destination: %v", err)
	}
	// H.264 4:2:0 needs even sizes; without RTP an odd size is fine.
	odd := map[string]rosparam.ParameterValue{}
	for k, x := range over {
		odd[k] = x
	}
	odd["zoom.width"], odd["front.width"] = rosparam.Integer(641), rosparam.Integer(641)
	if _, err := PlanNode(odd, nil); !errors.Is(err, camera.ErrBadParam) {
		t.Errorf("RTP of a 641 px wide camera: %v", err)
	}
	delete(odd, "zoom.rtp_to")
	delete(odd, "zoom.rtp_sdp")
	if _, err := PlanNode(odd, nil); err != nil {
		t.Errorf("641 px wide cameras without RTP: %v", err)
	}
}

func TestQualityChanges(t *testing.T) {
	got := QualityChanges([]rosparam.Parameter{
		{Name: "zoom.jpeg_quality", Value: rosparam.Integer(40)},
		{Name: "front.jpeg_quality", Value: rosparam.Integer(95)},
		{Name: "front.controls.gain", Value: rosparam.Integer(3)},
		{Name: "zoomx.jpeg_quality", Value: rosparam.Integer(3)},
		{Name: "zoom.jpeg_quality", Value: rosparam.String("high")},
	}, []string{"front", "zoom"})
	want := []QualityChange{{1, 40}, {0, 95}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("changes %+v, want %+v", got, want)
	}
}
