package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The tool writes the six files into -out, the namespaced ones with the
// namespace in them; a namespace without -out would overwrite the
// repository's default-namespace files and is refused.
func TestRun(t *testing.T) {
	out := t.TempDir()
	if err := run("../../..", out, "robot1", "robot1/"); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, dir := range []string{"rviz", "foxglove"} {
		entries, err := os.ReadDir(filepath.Join(out, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			names = append(names, dir+"/"+e.Name())
		}
	}
	if len(names) != 6 {
		t.Errorf("wrote %v", names)
	}
	b, err := os.ReadFile(filepath.Join(out, "rviz", "furbot.rviz"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "Value: /robot1/odom") || !strings.Contains(string(b), "Fixed Frame: robot1/odom") {
		t.Errorf("furbot.rviz under robot1:\n%s", b)
	}
	if err := run("../../..", "", "robot1", ""); err == nil {
		t.Error("a namespace without -out accepted")
	}
}
