package vizconfig

import (
	"fmt"
	"path"

	cameranode "github.com/telebridge/telebridge/pkg/camera/node"
)

// Directories of the generated files, relative to the repository root;
// CMakeLists.txt installs both to share/telebridge/.
const (
	RVizDir     = "rviz"
	FoxgloveDir = "foxglove"
)

// CameraParamsFile is camera_publisher's parameters file, relative to the
// repository root: the Servosila's cameras come from it.
const CameraParamsFile = "params/camera_publisher.yaml"

// RVizFile is the path of r's RViz configuration, relative to the
// repository root.
func RVizFile(r Robot) string { return path.Join(RVizDir, r.Name+".rviz") }

// FoxgloveFile is the path of r's Foxglove layout, relative to the
// repository root.
func FoxgloveFile(r Robot) string { return path.Join(FoxgloveDir, "telebridge-"+r.Name+".json") }

// Robots returns the three robots, the Servosila's cameras read from
// cameraParams (the text of CameraParamsFile).
func Robots(cameraParams []byte) ([]Robot, error) {
	cams, err := cameranode.ParseParamsFile(cameraParams, cameranode.Name)
	if err != nil {
		return nil, fmt.Errorf("vizconfig: %s: %w", CameraParamsFile, err)
	}
	servosila, err := Servosila(cams)
	if err != nil {
		return nil, err
	}
	furbot, err := Furbot()
	if err != nil {
		return nil, err
	}
	arm, err := Arm()
	if err != nil {
		return nil, err
	}
	return []Robot{servosila, furbot, arm}, nil
}

// Files returns every generated file by its path relative to the
// repository root: an RViz configuration and a Foxglove layout per robot
// of Robots, each in the default namespace, or under namespace ns with
// frame prefix prefix when either is set.
func Files(cameraParams []byte, ns, prefix string) (map[string][]byte, error) {
	robots, err := Robots(cameraParams)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, r := range robots {
		r = r.Namespaced(ns, prefix)
		rv, err := RViz(r)
		if err != nil {
			return nil, err
		}
		fg, err := Foxglove(r)
		if err != nil {
			return nil, err
		}
		out[RVizFile(r)], out[FoxgloveFile(r)] = rv, fg
	}
	return out, nil
}
