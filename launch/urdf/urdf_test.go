package urdf_test

import (
	"io/fs"
	"os"
	"testing"

	"github.com/telebridge/telebridge/launch/urdf"
)

// TestFilesAreTheFolder: the embedded set is exactly the folder's
// descriptions, byte for byte, and UR5Like and ServosilaEngineer are
// their files.
func TestFilesAreTheFolder(t *testing.T) {
	names, err := fs.Glob(urdf.Files, "*.urdf")
	if err != nil {
		t.Fatal(err)
	}
	onDisk, err := fs.Glob(os.DirFS("."), "*.urdf")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != len(onDisk) || len(names) < 3 {
		t.Fatalf("embedded %v, folder %v", names, onDisk)
	}
	for _, n := range names {
		a, _ := fs.ReadFile(urdf.Files, n)
		b, err := os.ReadFile(n)
		if err != nil || string(a) != string(b) {
			t.Errorf("%s: embedded copy differs from the file (%v)", n, err)
		}
	}
	for file, s := range map[string]string{"ur5_like.urdf": urdf.UR5Like, "servosila_engineer.urdf": urdf.ServosilaEngineer} {
		if b, err := os.ReadFile(file); err != nil || s != string(b) {
			t.Errorf("the variable of %s is not the file (%v)", file, err)
		}
	}
}
