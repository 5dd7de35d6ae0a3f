package vizconfig_test

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/telebridge/telebridge/pkg/vizconfig"
)

// root is the repository root, from this package's directory.
const root = "../.."

func cameraParams(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(vizconfig.CameraParamsFile)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The committed rviz/ and foxglove/ files are the generator's output, and
// nothing else is in those directories.
func TestGolden(t *testing.T) {
	files, err := vizconfig.Files(cameraParams(t), "", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 6 {
		t.Errorf("%d files, want an RViz configuration and a Foxglove layout for each of 3 robots", len(files))
	}
	var committed []string
	for _, dir := range []string{vizconfig.RVizDir, vizconfig.FoxgloveDir} {
		entries, err := os.ReadDir(filepath.Join(root, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			committed = append(committed, dir+"/"+e.Name())
		}
	}
	sort.Strings(committed)
	for _, name := range committed {
		if _, ok := files[name]; !ok {
			t.Errorf("%s is committed but not generated: remove it", name)
		}
	}
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("%v: run go generate ./pkg/vizconfig", err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the generator's output: run go generate ./pkg/vizconfig", name)
		}
	}
}

// The generator's output depends on nothing but its input.
func TestFilesDeterministic(t *testing.T) {
	a, err := vizconfig.Files(cameraParams(t), "robot1", "robot1/")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		b, err := vizconfig.Files(cameraParams(t), "robot1", "robot1/")
		if err != nil {
			t.Fatal(err)
		}
		for name := range a {
			if !bytes.Equal(a[name], b[name]) {
				t.Fatalf("%s differs between two runs", name)
			}
		}
	}
}
