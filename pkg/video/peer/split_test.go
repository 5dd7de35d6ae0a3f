package peer

import (
	"slices"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/video"
)

func TestSplit(t *testing.T) {
	cases := []struct {
		name   string
		total  int
		shares []Share
		want   []int
	}{
		{"nothing watched", 1000, nil, []int{}},
		{"zero estimate", 0, []Share{{Chosen: true}}, []int{0}},
		{"alone gets all", 1000, []Share{{Chosen: true}}, []int{1000}},
		{"alone within its cap", 1000, []Share{{Chosen: true, Max: 300}}, []int{300}},
		{"chosen 60 %, one other", 1000, []Share{{}, {Chosen: true}}, []int{400, 600}},
		{"chosen 60 %, others share", 1000, []Share{{Chosen: true}, {}, {}}, []int{600, 200, 200}},
		{"no chosen: equal", 900, []Share{{}, {}, {}}, []int{300, 300, 300}},
		{"chosen capped: rest to others", 1000, []Share{{Chosen: true, Max: 200}, {}, {}}, []int{200, 400, 400}},
		{"other capped: rest to the uncapped", 1000, []Share{{Chosen: true}, {Max: 50}, {}}, []int{600, 50, 350}},
		{"others capped: rest back to chosen", 1000, []Share{{Chosen: true}, {Max: 50}, {Max: 100}}, []int{850, 50, 100}},
		{"everyone capped: budget unused", 1000, []Share{{Chosen: true, Max: 100}, {Max: 50}}, []int{100, 50}},
		{"four cameras at 3 Mbit/s", 3_000_000, []Share{{}, {Chosen: true}, {}, {}}, []int{400_000, 1_800_000, 400_000, 400_000}},
	}
	for _, tc := range cases {
		out := make([]int, len(tc.shares))
		Split(tc.total, tc.shares, out)
		if !slices.Equal(out, tc.want) {
			t.Errorf("%s: Split(%d, %+v) = %v, want %v", tc.name, tc.total, tc.shares, out, tc.want)
		}
		sum := 0
		for i, v := range out {
			sum += v
			if v < 0 || (tc.shares[i].Max > 0 && v > tc.shares[i].Max) {
				t.Errorf("%s: camera %d gets %d outside [0, %d]", tc.name, i, v, tc.shares[i].Max)
			}
		}
		if sum > tc.total {
			t.Errorf("%s: sum %d over the total %d", tc.name, sum, tc.total)
		}
	}
}

func TestSplitAllocatesNothing(t *testing.T) {
	shares := []Share{{Chosen: true}, {Max: 50_000}, {}, {}}
	out := make([]int, len(shares))
	if n := testing.AllocsPerRun(100, func() { Split(2_500_000, shares, out) }); n != 0 {
		t.Errorf("Split allocates %v times per call", n)
	}
}

func BenchmarkSplit(b *testing.B) {
	shares := []Share{{Chosen: true}, {Max: 50_000}, {}, {}}
	out := make([]int, len(shares))
	b.ReportAllocs()
	for b.Loop() {
		Split(2_500_000, shares, out)
	}
}

func TestSampleDuration(t *testing.T) {
	t0 := time.Unix(1000, 0)
	cases := []struct {
		name string
		prev time.Time
		au   video.AccessUnit
		want time.Duration
	}{
		{"first: nominal", time.Time{}, video.AccessUnit{Capture: t0, Duration: 40 * time.Millisecond}, 40 * time.Millisecond},
		{"capture interval", t0, video.AccessUnit{Capture: t0.Add(70 * time.Millisecond), Duration: 33 * time.Millisecond}, 70 * time.Millisecond},
		{"capture backwards: nominal", t0, video.AccessUnit{Capture: t0.Add(-time.Millisecond), Duration: 33 * time.Millisecond}, 33 * time.Millisecond},
		{"gap of 3 s", t0, video.AccessUnit{Capture: t0.Add(3 * time.Second), Duration: 50 * time.Millisecond}, 3 * time.Second},
		{"gap over 5 s: nominal", t0, video.AccessUnit{Capture: t0.Add(6 * time.Second), Duration: 50 * time.Millisecond}, 50 * time.Millisecond},
		{"nothing known", time.Time{}, video.AccessUnit{}, time.Second / 30},
	}
	for _, tc := range cases {
		if got := sampleDuration(tc.prev, tc.au); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
