package node_test

import (
	"testing"

	"github.com/telebridge/telebridge/pkg/jog/node"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

// interface_namespace is declared read-only; a bad one is refused at
// start-up (at declaration or by LoadConfig), a good one reaches Config.
func TestInterfaceNamespaceParameter(t *testing.T) {
	var found bool
	for _, p := range node.ParameterTable() {
		if p.Name == node.ParamInterfaceNamespace {
			found = true
			if !p.ReadOnly || p.Type != rosparam.ParameterString {
				t.Errorf("%s: %+v, want a read-only string", p.Name, p)
			}
		}
	}
	if !found {
		t.Fatalf("%s is not in the parameter table", node.ParamInterfaceNamespace)
	}
	urdf := quoted(ur5URDF(t))
	for ns, ok := range map[string]bool{"": true, "/arm2": true, "arm2": false, "/arm2/": false, "/a b": false} {
		var ov rosparam.Overrides
		y := "jog_server:\n  ros__parameters:\n    robot_description: " + urdf + "\n    " + node.ParamInterfaceNamespace + ": " + quoted(ns) + "\n"
		if err := ov.AddYAML([]byte(y)); err != nil {
			t.Fatal(err)
		}
		s, err := rosparam.New(rosparam.Config{Node: "/jog_server", Table: node.ParameterTable(), Overrides: &ov, Validate: node.ValidateUpdate})
		var cfg node.Config
		if err == nil {
			cfg, err = node.LoadConfig(s)
		}
		switch {
		case ok && err != nil:
			t.Errorf("%q refused: %v", ns, err)
		case ok && cfg.InterfaceNamespace != ns:
			t.Errorf("%q: Config has %q", ns, cfg.InterfaceNamespace)
		case !ok && err == nil:
			t.Errorf("%q accepted", ns)
		}
	}
}
