package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/telebridge/telebridge/pkg/rosparam"
)

const paramsDir = "../../../params"

// The committed files must be what the tables generate.
func TestParamsFilesAreUpToDate(t *testing.T) {
	stale, err := sync(paramsDir, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(stale) > 0 {
		t.Fatalf("out of date, run `go run ./internal/tools/paramsyaml`: %v", stale)
	}
}

// Each file, read as ROS reads it, gives every parameter its default.
func TestParamsFilesLoadBackToTheDefaults(t *testing.T) {
	for _, n := range nodes {
		t.Run(n.name, func(t *testing.T) {
			var ov rosparam.Overrides
			if err := ov.LoadFile(filepath.Join(paramsDir, n.name+".yaml")); err != nil {
				t.Fatal(err)
			}
			table := n.table()
			s, err := rosparam.New(rosparam.Config{Node: "/" + n.name, Table: table, Overrides: &ov})
			if err != nil {
				t.Fatal(err)
			}
			if unused := s.Unused(); len(unused) > 0 {
				t.Fatalf("file has parameters the table lacks: %v", unused)
			}
			got := ov.For("/" + n.name)
			for _, p := range table {
				v, ok := got[p.Name]
				if !ok {
					if !emptyArray(p.Default) {
						t.Errorf("%s missing from the file", p.Name)
					}
				} else if !v.Equal(p.Default) {
					t.Errorf("%s: file %v, default %v", p.Name, v, p.Default)
				}
			}
		})
	}
}

func TestRenderTypesDoublesAsDoubles(t *testing.T) {
	for _, tc := range []struct {
		v    rosparam.ParameterValue
		want string
	}{
		{rosparam.Double(5), "5.0"},
		{rosparam.Double(0.25), "0.25"},
		{rosparam.Double(1e7), "1e+07"},
		{rosparam.Integer(5), "5"},
		{rosparam.String("10.42.0.1:10000"), `"10.42.0.1:10000"`},
		{rosparam.DoubleArray([]float64{1, 0.5}), "[1.0, 0.5]"},
		{rosparam.Bool(true), "true"},
	} {
		if got := value(tc.v); got != tc.want {
			t.Errorf("value(%v) = %s, want %s", tc.v, got, tc.want)
		}
	}
	if _, err := os.Stat(paramsDir); err != nil {
		t.Fatal(err)
	}
}
