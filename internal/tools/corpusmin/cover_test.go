package main

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseProfile(t *testing.T) {
	const p = `mode: set
a.go:1.1,2.2 1 1
a.go:3.1,4.2 2 0
b.go:1.1,2.2 1 0
b.go:1.1,2.2 1 1
`
	got, err := parseProfile(strings.NewReader(p))
	if err != nil {
		t.Fatal(err)
	}
	want := blocks{"a.go:1.1,2.2": true, "b.go:1.1,2.2": true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	for _, bad := range []string{"a.go:1.1,2.2 1 1\n", "mode: set\na.go 1\n"} {
		if _, err := parseProfile(strings.NewReader(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func set(names ...string) blocks {
	b := blocks{}
	for _, n := range names {
		b[n] = true
	}
	return b
}

func TestChoose(t *testing.T) {
	inputs := []input{
		{name: "dup-of-seed", size: 1, covers: set("s1")},
		{name: "big", size: 100, covers: set("a", "b", "c")},
		{name: "small-ab", size: 2, covers: set("a", "b")},
		{name: "small-c", size: 2, covers: set("c")},
		{name: "d", size: 5, covers: set("a", "d")},
		{name: "d-larger", size: 6, covers: set("d")},
	}
	got := choose(set("s1"), inputs)
	// big adds 3, then d adds d; nothing else adds a block.
	want := []string{"big", "d"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("kept %v, want %v", got, want)
	}
	all := []blocks{set("s1")}
	for _, in := range inputs {
		all = append(all, in.covers)
	}
	kept := []blocks{set("s1")}
	for _, in := range inputs {
		for _, k := range got {
			if in.name == k {
				kept = append(kept, in.covers)
			}
		}
	}
	if m := missing(union(all...), union(kept...)); len(m) > 0 {
		t.Errorf("kept set misses %v", m)
	}
	if got := choose(set("x"), nil); len(got) != 0 {
		t.Errorf("no inputs: kept %v", got)
	}
}
