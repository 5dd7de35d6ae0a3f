package node

import (
	"errors"
	"fmt"
	"strings"
)

// ParamInterfaceNamespace is the read-only string parameter that puts
// jog_server's drag&bot services and topics under a namespace (Names):
// empty, the default, keeps drag&bot's absolute names; "/arm1" gives
// /arm1/remotecontrol_start_move_joints and so on, so that two arms
// share one graph. jog.launch.py sets it from its namespace argument.
const ParamInterfaceNamespace = "interface_namespace"

// ErrNamespace is wrapped by CheckNamespace's refusals.
var ErrNamespace = errors.New("jog: invalid interface_namespace")

// Names are the absolute names of jog_server's services and topics in
// one interface namespace. /tf and /tf_static stay global, and the
// targets go to trajectory_topic as given (jog.launch.py names it in the
// namespace).
type Names struct {
	Heartbeat, SetHeartbeatTimeout, StartJointMove, StartCartesianMove, Stop string // services
	HeartbeatTopic, JointStates                                              string // topics
}

// NamesIn returns the drag&bot names under ns ("" keeps them as they
// are), or an error wrapping ErrNamespace for a namespace that is not a
// valid absolute ROS namespace (CheckNamespace).
func NamesIn(ns string) (Names, error) {
	if err := CheckNamespace(ns); err != nil {
		return Names{}, err
	}
	return Names{
		Heartbeat:           ns + HeartbeatService,
		SetHeartbeatTimeout: ns + SetHeartbeatTimeoutService,
		StartJointMove:      ns + StartJointMoveService,
		StartCartesianMove:  ns + StartCartesianMoveService,
		Stop:                ns + StopService,
		HeartbeatTopic:      ns + HeartbeatTopic,
		JointStates:         ns + JointStatesTopic,
	}, nil
}

// CheckNamespace accepts "" and absolute ROS namespaces: "/" followed by
// tokens of letters, digits and '_', each not starting with a digit,
// separated by single slashes, with no slash at the end ("/arm1",
// "/cell_a/left"). "/" alone is refused: it is the default spelled
// differently, and "" says so.
func CheckNamespace(ns string) error {
	if ns == "" {
		return nil
	}
	if !strings.HasPrefix(ns, "/") {
		return fmt.Errorf("%w: %q is not absolute (want e.g. /arm1, or empty for the drag&bot names)", ErrNamespace, ns)
	}
	for _, tok := range strings.Split(ns[1:], "/") {
		if tok == "" {
			return fmt.Errorf("%w: %q has an empty token (a double or trailing slash)", ErrNamespace, ns)
		}
		if tok[0] >= '0' && tok[0] <= '9' {
			return fmt.Errorf("%w: %q: token %q starts with a digit", ErrNamespace, ns, tok)
		}
		for _, r := range tok {
			if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
				return fmt.Errorf("%w: %q: %q is not a ROS name character", ErrNamespace, ns, r)
			}
		}
	}
	return nil
}
