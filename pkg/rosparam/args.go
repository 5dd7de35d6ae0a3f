package rosparam

import (
	"errors"
	"fmt"
	"strings"
)

// ErrArgs is wrapped by every error about the command line.
var ErrArgs = errors.New("invalid ROS arguments")

// Remap is one `-r [node:]from:=to` rule, kept as given: rcl applies topic
// and service remaps itself; this package only reads the rules that rename
// the node (__node, __name) or move it (__ns).
type Remap struct {
	Node string // optional node-name prefix: the rule applies only to this node
	From string // name, "__node", "__name" or "__ns"
	To   string // the replacement
}

// Args is the result of ParseArgs.
type Args struct {
	// NonROS holds the arguments outside every --ros-args block, in order.
	NonROS []string
	// ROS holds every --ros-args block as given, each one opened by
	// "--ros-args" (the closing "--" dropped).
	ROS []string
	// RCL is ROS without the -p and --params-file rules: what the ROS layer
	// hands to rcl (rclgo.NewContext) so that it applies remaps and logging
	// options, without rcl parsing parameter files a second time (its parser
	// refuses some files this package accepts, such as empty sequences).
	RCL []string
	// Overrides holds the values of --params-file and -p, in command-line
	// order, as rcl stores them (a -p rule without node prefix is under the
	// pattern "/**").
	Overrides Overrides
	// ParamsFiles lists the --params-file arguments, in order.
	ParamsFiles []string
	// Remaps lists the -r/--remap rules, in order.
	Remaps []Remap
	// LogLevels lists the --log-level values ("debug" or "name:=debug").
	LogLevels []string
	// LogConfigFile is the --log-config-file value, if any.
	LogConfigFile string
	// Enclave is the -e/--enclave value, if any.
	Enclave string
	// LogFlags lists the --enable-*/--disable-* logging switches given.
	LogFlags []string
}

// logFlags are the value-less switches rcl accepts in a --ros-args block.
var logFlags = map[string]bool{
	"--enable-rosout-logs": true, "--disable-rosout-logs": true,
	"--enable-stdout-logs": true, "--disable-stdout-logs": true,
	"--enable-external-lib-logs": true, "--disable-external-lib-logs": true,
}

// ParseArgs splits a command line (without the program name, os.Args[1:])
// as rcl_parse_arguments does. ROS arguments sit in blocks opened by
// "--ros-args" and closed by "--" or the end of the line; there may be
// several blocks. In a block:
//
//	-p, --param [node:]name:=value   parameter override (value: see ParseValue)
//	--params-file FILE               parameters YAML file (see Overrides.AddYAML)
//	-r, --remap [node:]from:=to      remap rule (passed through; __node/__ns read)
//	--log-level [name:=]LEVEL        logging level
//	--log-config-file FILE, -e/--enclave NAME, --enable-*/--disable-*-logs
//
// Parameters files are read here, in order with the -p rules, so a later
// rule or file replaces an earlier value for the same node pattern. An
// unknown argument inside a block is an error (rclcpp refuses them too).
func ParseArgs(args []string) (*Args, error) {
	a := &Args{}
	inROS := false
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if !inROS {
			if arg == "--ros-args" {
				inROS = true
				a.ROS = append(a.ROS, arg)
				a.RCL = append(a.RCL, arg)
			} else {
				a.NonROS = append(a.NonROS, arg)
			}
			continue
		}
		switch arg {
		case "--":
			inROS = false
			continue
		case "--ros-args":
			continue
		}
		if logFlags[arg] {
			a.LogFlags = append(a.LogFlags, arg)
			a.ROS = append(a.ROS, arg)
			a.RCL = append(a.RCL, arg)
			continue
		}
		switch arg {
		case "-p", "--param", "--params-file", "-r", "--remap", "--log-level",
			"--log-config-file", "-e", "--enclave":
		default:
			return nil, fmt.Errorf("rosparam: %w: unknown ROS argument %q", ErrArgs, arg)
		}
		if i+1 >= len(args) {
			return nil, fmt.Errorf("rosparam: %w: %s needs a value", ErrArgs, arg)
		}
		i++
		val := args[i]
		a.ROS = append(a.ROS, arg, val)
		if arg != "-p" && arg != "--param" && arg != "--params-file" {
			a.RCL = append(a.RCL, arg, val)
		}
		if err := a.apply(arg, val); err != nil {
			return nil, err
		}
	}
	return a, nil
}

func (a *Args) apply(flag, val string) error {
	switch flag {
	case "-p", "--param":
		node, name, value, err := splitRule(val)
		if err != nil {
			return fmt.Errorf("rosparam: %w: %s %q: %w", ErrArgs, flag, val, err)
		}
		if node == "" {
			node = "/**"
		}
		v, err := parseValue(value)
		if err != nil {
			return fmt.Errorf("rosparam: %w: %s %q: %w", ErrArgs, flag, val, err)
		}
		return a.Overrides.Set(node, name, v)
	case "--params-file":
		a.ParamsFiles = append(a.ParamsFiles, val)
		return a.Overrides.LoadFile(val)
	case "-r", "--remap":
		node, from, to, err := splitRule(val)
		if err != nil {
			return fmt.Errorf("rosparam: %w: %s %q: %w", ErrArgs, flag, val, err)
		}
		if from == "__ns" && !strings.HasPrefix(to, "/") {
			return fmt.Errorf("rosparam: %w: %s %q: the namespace must be absolute", ErrArgs, flag, val)
		}
		a.Remaps = append(a.Remaps, Remap{Node: node, From: from, To: to})
	case "--log-level":
		a.LogLevels = append(a.LogLevels, val)
	case "--log-config-file":
		a.LogConfigFile = val
	case "-e", "--enclave":
		a.Enclave = val
	}
	return nil
}

// splitRule splits "[node:]lhs:=rhs". The node prefix is a single name token
// followed by ':' (not part of ":=" and not a "scheme://").
func splitRule(s string) (node, lhs, rhs string, err error) {
	lhs, rhs, ok := strings.Cut(s, ":=")
	if !ok {
		return "", "", "", errors.New("expected name:=value")
	}
	if p, rest, ok := strings.Cut(lhs, ":"); ok && isToken(p) && !strings.HasPrefix(rest, "//") {
		node, lhs = p, rest
	}
	if lhs == "" {
		return "", "", "", errors.New("empty name before :=")
	}
	return node, lhs, rhs, nil
}

func isToken(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// ResolveNode applies the node's own remap rules to its default name and
// namespace, as rcl does when it creates the node: the first __node (or
// __name) rule and the first __ns rule whose node prefix is empty or equals
// name win. It returns the name and the namespace ("/" for the root).
func (a *Args) ResolveNode(name, namespace string) (string, string) {
	newName, newNS := name, namespace
	var nameSet, nsSet bool
	for _, r := range a.Remaps {
		if r.Node != "" && r.Node != name {
			continue
		}
		switch r.From {
		case "__node", "__name":
			if !nameSet {
				newName, nameSet = r.To, true
			}
		case "__ns":
			if !nsSet {
				newNS, nsSet = r.To, true
			}
		}
	}
	return newName, normaliseNamespace(newNS)
}

// normaliseNamespace gives a namespace a leading '/' and no trailing one.
func normaliseNamespace(ns string) string {
	ns = "/" + strings.Trim(ns, "/")
	return ns
}

// FullyQualifiedName joins a namespace and a node name: ("/", "drv") is
// "/drv", ("/robot1", "drv") is "/robot1/drv".
func FullyQualifiedName(namespace, name string) string {
	ns := normaliseNamespace(namespace)
	if ns == "/" {
		return "/" + name
	}
	return ns + "/" + name
}
