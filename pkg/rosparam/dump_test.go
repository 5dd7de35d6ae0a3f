package rosparam

import (
	"math"
	"testing"
)

func TestDumpGolden(t *testing.T) {
	params := []Parameter{
		{"use_sim_time", Bool(false)},
		{"rate", Integer(100)},
		{"limits.linear", Double(1)},
		{"limits.angular", Double(math.Inf(1))},
		{"limits.accel.max", Double(0.5)},
		{"frame_id", String("base_link")},
		{"mode", String("yes")},
		{"id", String("042")},
		{"quote", String(`say "hi"`)},
		{"gains", DoubleArray([]float64{1, 0.5, 1e-9})},
		{"names", StringArray([]string{"a", "on"})},
		{"flags", BoolArray([]bool{true})},
		{"ids", IntegerArray([]int64{-1, 2})},
		{"none", IntegerArray(nil)},
		{"raw", ByteArray([]byte{0, 255})},
		{"unset", ParameterValue{}},
	}
	got, err := DumpYAML("/robot1/drv", params)
	if err != nil {
		t.Fatal(err)
	}
	const want = `/robot1/drv:
  ros__parameters:
    flags:
      - true
    frame_id: base_link
    gains:
      - 1.0
      - 0.5
      - 1e-09
    id: "042"
    ids:
      - -1
      - 2
    limits:
      accel:
        max: 0.5
      angular: .inf
      linear: 1.0
    mode: "yes"
    names:
      - a
      - "on"
    none: []
    quote: "say \"hi\""
    rate: 100
    raw:
      - 0
      - 255
    use_sim_time: false
`
	if string(got) != want {
		t.Errorf("DumpYAML:\n%s\nwant:\n%s", got, want)
	}
}

// TestDumpRoundTrip: what DumpYAML writes, AddYAML reads back identically
// (byte arrays excepted: rcl reads them as integer arrays).
func TestDumpRoundTrip(t *testing.T) {
	s, _ := newTestStore(t, nil)
	s.SetParameters([]Parameter{{"frame_id", String("true")}, {"gains", DoubleArray([]float64{0, 10, 3.25})}})
	data, err := s.DumpYAML()
	must(t, err)
	var o Overrides
	must(t, o.AddYAML(data))
	back := o.For("/robot1/drv")
	for _, p := range s.Values() {
		if v, ok := back[p.Name]; !ok || !v.Equal(p.Value) {
			t.Errorf("%s: dumped %v, read back %v", p.Name, p.Value, v)
		}
	}
	if len(back) != len(s.Values()) {
		t.Errorf("read back %d parameters, dumped %d", len(back), len(s.Values()))
	}
}

func TestDumpConflict(t *testing.T) {
	for _, ps := range [][]Parameter{
		{{"a", Integer(1)}, {"a.b", Integer(2)}},
		{{"a.b", Integer(2)}, {"a", Integer(1)}},
	} {
		if _, err := DumpYAML("/n", ps); err == nil {
			t.Errorf("DumpYAML(%v) accepted a name that is also a prefix", ps)
		}
	}
}
