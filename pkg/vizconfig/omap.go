package vizconfig

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// kv is one entry of an omap.
type kv struct {
	k string
	v any
}

// omap is a YAML mapping that keeps its keys in the order written, as
// RViz saves its configurations (a Go map would sort them, a struct
// cannot hold keys with spaces per display class).
type omap []kv

// MarshalYAML implements yaml.Marshaler.
func (o omap) MarshalYAML() (any, error) {
	n := &yaml.Node{Kind: yaml.MappingNode}
	for _, e := range o {
		var v yaml.Node
		if err := v.Encode(e.v); err != nil {
			return nil, fmt.Errorf("vizconfig: %s: %w", e.k, err)
		}
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: e.k}, &v)
	}
	return n, nil
}
