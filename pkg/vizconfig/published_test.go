package vizconfig_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/telebridge/telebridge/pkg/diag"

	"github.com/telebridge/telebridge/internal/testkit/urdftest"
	armsimnode "github.com/telebridge/telebridge/pkg/armsim/node"
	cameranode "github.com/telebridge/telebridge/pkg/camera/node"
	"github.com/telebridge/telebridge/pkg/camera/wire"
	"github.com/telebridge/telebridge/pkg/console/graph"
	furbotnode "github.com/telebridge/telebridge/pkg/furbot/node"
	"github.com/telebridge/telebridge/pkg/qos"
	servosilanode "github.com/telebridge/telebridge/pkg/servosila/node"
)

// graphOf is what a robot's nodes publish in the default namespace, read
// from the nodes' packages (not from vizconfig): topics with their
// publishers' profiles, and the tf frames (the description's links, which
// robot_state_publisher broadcasts, and the odometry's frames).
type graphOf struct {
	topics map[string]qos.Profile
	frames map[string]bool
}

func abs(name string) string {
	if strings.HasPrefix(name, "/") {
		return name
	}
	return "/" + name
}

func publishedBy(t *testing.T, robot string) graphOf {
	t.Helper()
	g := graphOf{topics: map[string]qos.Profile{abs(graph.TopicRobotDescription): graph.QoSRobotDescription}, frames: map[string]bool{}}
	links := func(file string) {
		r, err := urdftest.Load(urdftest.Path(file))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range r.Links {
			g.frames[l.Name] = true
		}
	}
	switch robot {
	case "servosila":
		links(servosilanode.DescriptionFile)
		g.frames[servosilanode.DefaultConfig().OdomFrame] = true
		g.topics[abs(servosilanode.TopicOdom)] = servosilanode.QoSOdom
		g.topics[abs(servosilanode.TopicJointStates)] = servosilanode.QoSJointStates
		g.topics[abs(servosilanode.TopicDiagnostics)] = servosilanode.QoSDiagnostics
		b, err := os.ReadFile(filepath.Join(root, "params", "camera_publisher.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		cams, err := cameranode.ParseParamsFile(b, cameranode.Name)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cams {
			f, err := wire.ParsePixelFormat(c.PixelFormat)
			if err != nil {
				t.Fatal(err)
			}
			names := cameranode.TopicsFor(c.Name)
			image := names.Image
			if f.Compressed {
				image = names.Compressed
			}
			g.topics[abs(image)] = cameranode.ImageQoS
			g.topics[abs(names.CameraInfo)] = cameranode.ImageQoS
		}
	case "furbot":
		links(furbotnode.DescriptionFile)
		for _, tp := range furbotnode.Topics {
			if tp.Publish {
				g.topics[abs(tp.Name)] = tp.QoS
			}
		}
		for _, tf := range furbotnode.TF {
			g.frames[tf[0]], g.frames[tf[1]] = true, true
		}
	case "arm":
		links("ur5_like.urdf")
		g.topics[abs(armsimnode.TopicJointStates)] = armsimnode.QoSJointStates
		g.topics[diag.Topic] = diag.QoS // jog_server's and arm_sim's (rosnode.PublishDiagnostics)
	default:
		t.Fatalf("unknown robot %q", robot)
	}
	return g
}

// checkTopic fails unless name is published and, for a subscriber
// profile, the subscriber matches the publisher.
func (g graphOf) checkTopic(name string, sub *qos.Profile) error {
	pub, ok := g.topics[name]
	if !ok {
		return fmt.Errorf("topic %s is published by none of the robot's nodes", name)
	}
	if sub != nil && !qos.Compatible(pub, *sub) {
		return fmt.Errorf("topic %s: subscriber %+v does not match the publisher's %+v", name, *sub, pub)
	}
	return nil
}

func (g graphOf) checkFrame(name string) error {
	if !g.frames[name] {
		return fmt.Errorf("frame %q is on nobody's tf", name)
	}
	return nil
}

var robots = []string{"servosila", "furbot", "arm"}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
