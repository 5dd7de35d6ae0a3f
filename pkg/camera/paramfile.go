package camera

import (
	"fmt"
	"strconv"
)

// ParseParamsFile reads the cameras of node from a ROS 2 parameter file
// (`<node>: ros__parameters: cameras: [...]`, then one mapping per camera
// with the parameters of Params and an optional `controls:` mapping) and
// returns their normalized configurations in the order of `cameras`. The
// ROS node gets the same values through its parameters; this reader lets
// tools and tests use the file without ROS.
func ParseParamsFile(data []byte, node string) ([]Config, error) {
	root, err := parseYAML(data)
	if err != nil {
		return nil, fmt.Errorf("camera: parameter file: %w: %w", ErrBadParam, err)
	}
	params := root.get(node).get("ros__parameters")
	if params == nil {
		return nil, fmt.Errorf("camera: parameter file: no %s.ros__parameters: %w", node, ErrBadParam)
	}
	names := params.get("cameras")
	if names == nil || names.kind != yamlSeq || len(names.items) == 0 {
		return nil, fmt.Errorf("camera: parameter file: %s.cameras: want a list of camera names: %w", node, ErrBadParam)
	}
	var out []Config
	for _, n := range names.items {
		c := Config{Name: n.value}
		sect := params.get(n.value)
		if sect == nil || sect.kind != yamlMap {
			return nil, fmt.Errorf("camera: parameter file: no section for camera %q: %w", n.value, ErrBadParam)
		}
		for i, key := range sect.keys {
			v := sect.vals[i]
			if key == "controls" {
				if v.kind != yamlMap {
					return nil, fmt.Errorf("camera %s: controls: want a mapping: %w", c.Name, ErrBadParam)
				}
				for j, ck := range v.keys {
					if err := c.Set(ControlPrefix+ck, scalarValue(v.vals[j])); err != nil {
						return nil, fmt.Errorf("camera %s: %w", c.Name, err)
					}
				}
				continue
			}
			if v.kind != yamlScalar {
				return nil, fmt.Errorf("camera %s: %s: want a scalar: %w", c.Name, key, ErrBadParam)
			}
			if err := c.Set(key, scalarValue(v)); err != nil {
				return nil, fmt.Errorf("camera %s: %w", c.Name, err)
			}
		}
		nc, err := c.Normalize()
		if err != nil {
			return nil, err
		}
		out = append(out, nc)
	}
	return out, nil
}

// scalarValue types a YAML scalar the way ROS 2 does: integer, then
// double, else string (quoted scalars are always strings).
func scalarValue(n *yamlNode) any {
	if n.quoted {
		return n.value
	}
	if i, err := strconv.ParseInt(n.value, 10, 64); err == nil {
		return i
	}
	if f, err := strconv.ParseFloat(n.value, 64); err == nil {
		return f
	}
	return n.value
}
