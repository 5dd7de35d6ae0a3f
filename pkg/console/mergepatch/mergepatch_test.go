package mergepatch_test

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"github.com/telebridge/telebridge/pkg/console/mergepatch"
)

func decode(t testing.TB, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return m
}

func TestDiff(t *testing.T) {
	for _, tc := range []struct{ name, a, b, patch string }{
		{"equal", `{"a":1,"b":{"c":[1,2]}}`, `{"a":1,"b":{"c":[1,2]}}`, `{}`},
		{"scalar changed", `{"a":1,"b":"x"}`, `{"a":2,"b":"x"}`, `{"a":2}`},
		{"nested member", `{"snap":{"x":0,"y":0}}`, `{"snap":{"x":0.5,"y":0}}`, `{"snap":{"x":0.5}}`},
		{"array whole", `{"j":[0,0,0]}`, `{"j":[0,1,0]}`, `{"j":[0,1,0]}`},
		{"member gone", `{"a":1,"error":"lost"}`, `{"a":1}`, `{"error":null}`},
		{"member new", `{"a":1}`, `{"a":1,"error":"lost"}`, `{"error":"lost"}`},
		{"new null is nothing", `{"a":1}`, `{"a":1,"e":null}`, `{}`},
		{"to null", `{"a":[1]}`, `{"a":null}`, `{"a":null}`},
		{"object for scalar", `{"a":1}`, `{"a":{"b":2}}`, `{"a":{"b":2}}`},
		{"scalar for object", `{"a":{"b":2}}`, `{"a":3}`, `{"a":3}`},
		{"types differ", `{"a":1}`, `{"a":"1"}`, `{"a":"1"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := decode(t, tc.a), decode(t, tc.b)
			p := mergepatch.Diff(a, b)
			if want := decode(t, tc.patch); !reflect.DeepEqual(p, want) {
				got, _ := json.Marshal(p)
				t.Fatalf("Diff = %s, want %s", got, tc.patch)
			}
			if got, want := mergepatch.Apply(a, p), mergepatch.Normal(b); !reflect.DeepEqual(mergepatch.Normal(got), want) {
				t.Fatalf("Apply(a, Diff(a, b)) = %v, want %v", got, want)
			}
		})
	}
}

// TestApplyRFC7386 runs the examples of RFC 7386's appendix A.
func TestApplyRFC7386(t *testing.T) {
	for i, tc := range []struct{ target, patch, want string }{
		{`{"a":"b"}`, `{"a":"c"}`, `{"a":"c"}`},
		{`{"a":"b"}`, `{"b":"c"}`, `{"a":"b","b":"c"}`},
		{`{"a":"b"}`, `{"a":null}`, `{}`},
		{`{"a":"b","b":"c"}`, `{"a":null}`, `{"b":"c"}`},
		{`{"a":["b"]}`, `{"a":"c"}`, `{"a":"c"}`},
		{`{"a":"c"}`, `{"a":["b"]}`, `{"a":["b"]}`},
		{`{"a":{"b":"c"}}`, `{"a":{"b":"d","c":null}}`, `{"a":{"b":"d"}}`},
		{`{"a":[{"b":"c"}]}`, `{"a":[1]}`, `{"a":[1]}`},
		{`["a","b"]`, `["c","d"]`, `["c","d"]`},
		{`{"a":"b"}`, `["c"]`, `["c"]`},
		{`{"a":"foo"}`, `null`, `null`},
		{`{"a":"foo"}`, `"bar"`, `"bar"`},
		{`{"e":null}`, `{"a":1}`, `{"e":null,"a":1}`},
		{`[1,2]`, `{"a":"b","c":null}`, `{"a":"b"}`},
		{`{}`, `{"a":{"bb":{"ccc":null}}}`, `{"a":{"bb":{}}}`},
	} {
		var target, patch, want any
		for _, x := range []struct {
			s string
			v *any
		}{{tc.target, &target}, {tc.patch, &patch}, {tc.want, &want}} {
			if err := json.Unmarshal([]byte(x.s), x.v); err != nil {
				t.Fatal(err)
			}
		}
		before, _ := json.Marshal(target)
		got := mergepatch.Apply(target, patch)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%d: Apply(%s, %s) = %v, want %s", i, tc.target, tc.patch, got, tc.want)
		}
		if after, _ := json.Marshal(target); string(after) != string(before) {
			t.Errorf("%d: Apply changed its target: %s, was %s", i, after, before)
		}
	}
}

// TestDiffRoundTripsRandomStates: a sequence of random documents, each
// patched from the one before, stays equal to the documents (without
// null members), as a page that applies every patch does.
func TestDiffRoundTripsRandomStates(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var page any = map[string]any{}
	prev := map[string]any{}
	for i := range 2000 {
		cur := randomDoc(rng, 3)
		// Round trip through JSON, as the console's bytes go.
		b, err := json.Marshal(mergepatch.Diff(prev, cur))
		if err != nil {
			t.Fatal(err)
		}
		var p any
		if err := json.Unmarshal(b, &p); err != nil {
			t.Fatal(err)
		}
		page = mergepatch.Apply(page, p)
		if !reflect.DeepEqual(mergepatch.Normal(page), mergepatch.Normal(cur)) {
			t.Fatalf("step %d: the page holds %v, the state is %v (patch %s)", i, page, cur, b)
		}
		prev = cur
	}
}

// randomDoc makes an object of few keys (so that successive documents
// share most members) with values of every JSON kind.
func randomDoc(rng *rand.Rand, depth int) map[string]any {
	m := map[string]any{}
	for k := range 4 {
		if rng.IntN(5) == 0 {
			continue // absent
		}
		key := "k" + strconv.Itoa(k)
		switch n := rng.IntN(7); {
		case n == 0:
			m[key] = nil
		case n == 1:
			m[key] = float64(rng.IntN(3))
		case n == 2:
			m[key] = []any{float64(rng.IntN(2)), map[string]any{"x": nil}}
		case n == 3:
			m[key] = rng.IntN(2) == 0
		case depth > 0:
			m[key] = randomDoc(rng, depth-1)
		default:
			m[key] = "s" + strconv.Itoa(rng.IntN(2))
		}
	}
	return m
}

func BenchmarkDiffState(b *testing.B) {
	a := decode(b, stateA)
	c := decode(b, stateB)
	b.ReportAllocs()
	for b.Loop() {
		mergepatch.Diff(a, c)
	}
}

// Two consecutive console states (trimmed): the telemetry's age and
// counters moved.
const (
	stateA = `{"type":"state","holder":1,"pages":1,"limits":{"linear":0.45,"angular":1.3,"joints":[0.5,0.5,0.5,0.5,0.5,0.5]},"snap":{"servosila":{"estopped":false,"joints":[0,0,0,0,0,0],"telemetry_age":0.030342933,"tick":44,"motors":[{"id":1,"state":1,"current":0},{"id":2,"state":1,"current":0}],"link":{"sent":23,"received":44}},"furbot":{"ready":true,"voltage":50.95,"age":0.0105,"frames":441}}}`
	stateB = `{"type":"state","holder":1,"pages":1,"limits":{"linear":0.45,"angular":1.3,"joints":[0.5,0.5,0.5,0.5,0.5,0.5]},"snap":{"servosila":{"estopped":false,"joints":[0,0,0,0,0,0],"telemetry_age":0.030028457,"tick":45,"motors":[{"id":1,"state":1,"current":0},{"id":2,"state":1,"current":0}],"link":{"sent":23,"received":45}},"furbot":{"ready":true,"voltage":50.95,"age":0.0207,"frames":450}}}`
)
