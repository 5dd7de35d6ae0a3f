package node

import (
	"fmt"
	"sort"
	"strings"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

// ParseParamsFile reads the cameras of node from a ROS 2 parameters file
// (what `--params-file` gives the node: `<node>: ros__parameters: cameras:
// [...]` then one mapping per camera), with rosparam's reading and typing,
// and returns their normalized configurations in the order of `cameras`.
// Unknown or mistyped parameters are errors, as they would be for the
// node. It lets tools and tests use the file without ROS.
func ParseParamsFile(data []byte, node string) ([]camera.Config, error) {
	var o rosparam.Overrides
	if err := o.AddYAML(data); err != nil {
		return nil, fmt.Errorf("camera: parameters file: %w: %w", camera.ErrBadParam, err)
	}
	over := o.For(rosparam.FullyQualifiedName("/", node))
	names, err := CameraNames(over)
	if err != nil {
		return nil, err
	}
	nc, err := DefaultNodeConfig(names)
	if err != nil {
		return nil, err
	}
	bs := NodeBindings(names)
	var params []rosparam.Parameter
	for name, v := range over {
		if isControl(name, names) {
			continue
		}
		params = append(params, rosparam.Parameter{Name: name, Value: v})
	}
	sort.Slice(params, func(i, j int) bool { return params[i].Name < params[j].Name })
	if err := bs.Apply(&nc, params); err != nil {
		return nil, fmt.Errorf("camera: parameters file: %w: %w", camera.ErrBadParam, err)
	}
	for i := range nc.Cameras {
		ctl, err := ControlOverrides(over, nc.Cameras[i].Name)
		if err != nil {
			return nil, err
		}
		if len(ctl) > 0 {
			nc.Cameras[i].Controls = ctl
		}
	}
	if err := nc.Validate(); err != nil {
		return nil, err
	}
	return nc.Cameras, nil
}

func isControl(param string, cameras []string) bool {
	for _, c := range cameras {
		if strings.HasPrefix(param, c+"."+ControlPrefix) {
			return true
		}
	}
	return false
}
