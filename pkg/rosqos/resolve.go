package rosqos

import (
	"fmt"
	"strings"

	"github.com/telebridge/telebridge/pkg/rosparam"
)

// Resolve returns the fully qualified name of topic as the node named name
// in namespace ns sees it, as rcl_node_resolve_name does for a publisher:
// a relative name is put in the namespace, "~" stands for the node's fully
// qualified name, and then the first remap rule (`-r [node:]from:=to`,
// from and to expanded the same way) whose from is the expanded name and
// whose node prefix is empty or the node's name replaces it. Rules that
// rename or move the node (__node, __name, __ns) are skipped.
func Resolve(topic, name, ns string, remaps []rosparam.Remap) (string, error) {
	full, err := expand(topic, name, ns)
	if err != nil {
		return "", err
	}
	for _, r := range remaps {
		if strings.HasPrefix(r.From, "__") || r.Node != "" && r.Node != name {
			continue
		}
		from, err := expand(r.From, name, ns)
		if err != nil || from != full {
			continue
		}
		to, err := expand(r.To, name, ns)
		if err != nil {
			return "", fmt.Errorf("rosqos: remap %s:=%s: %w", r.From, r.To, err)
		}
		return to, nil
	}
	return full, nil
}

// expand makes topic absolute and checks its tokens (letters, digits and
// '_', not starting with a digit, separated by single '/').
func expand(topic, name, ns string) (string, error) {
	node := rosparam.FullyQualifiedName(ns, name)
	space := strings.TrimSuffix(node, "/"+name)
	full := topic
	switch {
	case topic == "":
		return "", fmt.Errorf("rosqos: empty topic name")
	case topic == "~":
		full = node
	case strings.HasPrefix(topic, "~/"):
		full = node + topic[1:]
	case strings.HasPrefix(topic, "/"):
	default:
		full = space + "/" + topic
	}
	for _, tok := range strings.Split(full[1:], "/") {
		if !validToken(tok) {
			return "", fmt.Errorf("rosqos: invalid topic name %q (resolved %q)", topic, full)
		}
	}
	return full, nil
}

func validToken(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}
