package direct

import (
	"os"
	"testing"
)

// TestDescriptionCopy keeps the embedded Servosila URDF equal to the
// repository's launch/urdf/servosila_engineer.urdf.
func TestDescriptionCopy(t *testing.T) {
	want, err := os.ReadFile("../../../launch/urdf/servosila_engineer.urdf")
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != servosilaURDF {
		t.Fatal("pkg/console/direct/servosila_engineer.urdf differs from launch/urdf/servosila_engineer.urdf: copy it again")
	}
}
