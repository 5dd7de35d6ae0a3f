package graph

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	camnode "github.com/telebridge/telebridge/pkg/camera/node"
	"github.com/telebridge/telebridge/pkg/cmdvel"
	"github.com/telebridge/telebridge/pkg/console"
	furbotnode "github.com/telebridge/telebridge/pkg/furbot/node"
	jognode "github.com/telebridge/telebridge/pkg/jog/node"
	"github.com/telebridge/telebridge/pkg/rosparam"
	servosilanode "github.com/telebridge/telebridge/pkg/servosila/node"
)

// NodeName is the ROS 2 node name of the console.
const NodeName = "operator_console"

// ErrConfig is wrapped by every configuration error.
var ErrConfig = errors.New("graph: invalid configuration")

// NodeConfig configures the operator_console node.
type NodeConfig struct {
	// Listen is the console's HTTP address. Default "127.0.0.1:8080"; any
	// other address needs a token (see pkg/console).
	Listen string
	// Token is the console's access token (an operator with every role,
	// made by `telebridge token new`); empty off loopback without TokensFile makes the
	// console generate one and log it. Default empty.
	Token string
	// TokensFile is a tokens file of operators with roles
	// (access.LoadOperators). Default empty.
	TokensFile string
	// TLS serves HTTPS with a self-signed certificate kept in StateDir
	// (the default off loopback unless CertFile or Insecure); CertFile
	// and KeyFile serve this certificate instead; Insecure allows plain
	// HTTP off loopback. Defaults false, "", "", false.
	TLS               bool
	CertFile, KeyFile string
	Insecure          bool
	// StateDir keeps the certificate and the audit log; empty:
	// os.UserConfigDir()/telebridge. AuditFile is the audit log (JSON
	// lines); empty: audit.jsonl in StateDir; "off": none.
	StateDir, AuditFile string
	// ICEServers are STUN/TURN servers for the cameras' WebRTC, comma
	// separated (console.ParseICEServer's forms); empty: host candidates
	// only. Default "".
	ICEServers string
	// WebRTC sends the cameras as H.264 over WebRTC where a page can
	// connect (MJPEG otherwise, and always when false). Default true.
	WebRTC bool
	// WebRTCLoopback offers loopback ICE candidates only: for a page on
	// this machine whose browser gathers loopback candidates (tests), as
	// Chromium does not by default. Default false.
	WebRTCLoopback bool
	// Servosila, Furbot and Jog switch each machine's panel on. Defaults
	// true, false, false: one robot per graph is the common case; the
	// launch file (launch/console.launch.py) switches the others on.
	Servosila, Furbot, Jog bool
	// ServosilaNamespace and FurbotNamespace are the namespaces the two
	// robots' launch files were started in (e.g. "/engineer"); empty is
	// the root namespace. Both machines in one namespace would share
	// cmd_vel, so New refuses that. Defaults "" and "".
	ServosilaNamespace, FurbotNamespace string
	// ServosilaDriver and FurbotBridge are the driver node names (their
	// private topics and services hang below them). Defaults
	// servosilanode.Name and furbotnode.BridgeName.
	ServosilaDriver, FurbotBridge string
	// JogURDF is the jog arm's URDF file: joint names, limits and the
	// tool pose (forward kinematics) come from it. Required with Jog.
	// JogBase and JogTip bound the chain (empty: root and longest chain).
	JogURDF, JogBase, JogTip string
	// JogNamespace is jog_server's interface_namespace (jog.launch.py's
	// namespace): its services and joint_states are under it
	// (jognode.NamesIn). Default "": drag&bot's names.
	JogNamespace string
	// JogParamsFile is the jog server's parameters file (what jog.launch.py
	// gives it as params_file); its joint_limits narrow the URDF's limits
	// and give the joint steps, as jog_server reads them (jog.JointRanges).
	// Empty: the URDF's limits, no steps.
	JogParamsFile string
	// JogFrames are the tf frames a Cartesian jog may be relative to;
	// empty offers the chain's base and tip links.
	JogFrames []string
	// Cameras are camera names as camera_publisher names them; their
	// image topics are CameraNamespace/<name>/image_raw. Default none.
	Cameras []string
	// CameraNamespace is the namespace of the camera_publisher node.
	// Default "".
	CameraNamespace string
	// CameraTransport is which image topic of each camera the console
	// subscribes to: TransportAuto (image_raw where published, else
	// image_raw/compressed: MJPG cameras), TransportCompressed
	// (image_raw/compressed, every camera) or TransportRaw (image_raw).
	// Default TransportAuto (also when empty).
	CameraTransport string
	// ServiceTimeout bounds every service call [s]. Default 0.5 s.
	ServiceTimeout time.Duration
	// FurbotMaxSpeed [m/s] and FurbotMaxYawRate [rad/s] bound the page's
	// Twist commands to the Furbot. Defaults 3 and 0.8.
	FurbotMaxSpeed, FurbotMaxYawRate float64
	// TwistMux sends the page's Twist commands to twist_mux's operator
	// input (cmdvel.TopicTeleop, in the robot's namespace) instead of
	// cmd_vel, and publishes the console's e-stop as twist_mux's lock
	// (cmdvel.TopicLock, std_msgs/Bool): the robots' launch files with
	// twist_mux:=true (params/twist_mux.yaml). Default false.
	TwistMux bool
	// Joy publishes the page's gamepad as sensor_msgs/Joy on TopicJoy in
	// the namespace of the machine the pad drives (for teleop_twist_joy
	// and the like). Default true.
	Joy bool
	// BalanceThreshold is the Servosila's static stability margin [m]
	// below which the page warns (console.Config.BalanceThreshold).
	// Default console.DefaultBalanceThreshold.
	BalanceThreshold float64
}

// DefaultNodeConfig returns the node's defaults.
func DefaultNodeConfig() NodeConfig {
	return NodeConfig{
		Listen: "127.0.0.1:8080", Servosila: true, WebRTC: true, Joy: true,
		ServosilaDriver: servosilanode.Name, FurbotBridge: furbotnode.BridgeName,
		CameraTransport: TransportAuto,
		ServiceTimeout:  500 * time.Millisecond, FurbotMaxSpeed: 3, FurbotMaxYawRate: console.DefaultFurbotMaxYawRate,
		BalanceThreshold: console.DefaultBalanceThreshold,
	}
}

// NodeBindings is the node's parameter table; every row is read-only (the
// graph is wired once at start-up).
func NodeBindings() rosparam.Bindings[NodeConfig] {
	ro := rosparam.ReadOnly()
	return rosparam.Bindings[NodeConfig]{
		rosparam.BindString("listen", "address of the console (off loopback a token and TLS are required, plain HTTP only with insecure)", func(c *NodeConfig) *string { return &c.Listen }, ro),
		rosparam.BindString("token", "access token of an operator with every role, made by `telebridge token new` (empty: generated and logged off loopback without tokens_file)", func(c *NodeConfig) *string { return &c.Token }, ro),
		rosparam.BindString("tokens_file", "tokens file (YAML, mode 0600): operators with name, token and roles (view, drive, arm, admin)", func(c *NodeConfig) *string { return &c.TokensFile }, ro),
		rosparam.BindBool("tls", "serve HTTPS with a self-signed certificate kept in state_dir (the default off loopback)", func(c *NodeConfig) *bool { return &c.TLS }, ro),
		rosparam.BindString("cert_file", "serve HTTPS with this certificate (PEM, with key_file)", func(c *NodeConfig) *string { return &c.CertFile }, ro),
		rosparam.BindString("key_file", "key of cert_file (PEM)", func(c *NodeConfig) *string { return &c.KeyFile }, ro),
		rosparam.BindBool("insecure", "allow plain HTTP off loopback", func(c *NodeConfig) *bool { return &c.Insecure }, ro),
		rosparam.BindString("state_dir", "directory of the self-signed certificate and the audit log (empty: os.UserConfigDir()/telebridge)", func(c *NodeConfig) *string { return &c.StateDir }, ro),
		rosparam.BindString("ice_servers", "STUN/TURN servers for the cameras' WebRTC, comma separated: stun:HOST[:PORT], turn:USER:SECRET@HOST[:PORT] (empty: host candidates only)", func(c *NodeConfig) *string { return &c.ICEServers }, ro),
		rosparam.BindBool("webrtc", "send the cameras as H.264 over WebRTC where a page can connect (false: MJPEG only)", func(c *NodeConfig) *bool { return &c.WebRTC }, ro),
		rosparam.BindBool("webrtc_loopback", "offer loopback ICE candidates only (a page on this machine whose browser gathers them: tests)", func(c *NodeConfig) *bool { return &c.WebRTCLoopback }, ro),
		rosparam.BindString("audit_file", "audit log, JSON lines (empty: audit.jsonl in state_dir; off: none)", func(c *NodeConfig) *string { return &c.AuditFile }, ro),
		rosparam.BindBool("servosila", "show and drive the Servosila Engineer", func(c *NodeConfig) *bool { return &c.Servosila }, ro),
		rosparam.BindBool("furbot", "show and drive the Furbot", func(c *NodeConfig) *bool { return &c.Furbot }, ro),
		rosparam.BindBool("jog", "show and drive the jog arm (needs jog_urdf)", func(c *NodeConfig) *bool { return &c.Jog }, ro),
		rosparam.BindString("servosila_namespace", "namespace of the Servosila stack (empty: root)", func(c *NodeConfig) *string { return &c.ServosilaNamespace }, ro),
		rosparam.BindString("furbot_namespace", "namespace of the Furbot stack", func(c *NodeConfig) *string { return &c.FurbotNamespace }, ro),
		rosparam.BindString("servosila_driver", "node name of the Servosila driver", func(c *NodeConfig) *string { return &c.ServosilaDriver }, ro),
		rosparam.BindString("furbot_bridge", "node name of the Furbot bridge", func(c *NodeConfig) *string { return &c.FurbotBridge }, ro),
		rosparam.BindString("jog_urdf", "URDF file of the jog arm (joint names, limits, tool pose)", func(c *NodeConfig) *string { return &c.JogURDF }, ro),
		rosparam.BindString("jog_namespace", "interface_namespace of jog_server (empty: drag&bot's absolute names)", func(c *NodeConfig) *string { return &c.JogNamespace }, ro),
		rosparam.BindString("jog_params_file", "jog_server's parameters file: its joint_limits (range, step) as the jog panel's (empty: the URDF's limits, no steps)", func(c *NodeConfig) *string { return &c.JogParamsFile }, ro),
		rosparam.BindString("jog_base_link", "first link of the jog chain (empty: the URDF's root)", func(c *NodeConfig) *string { return &c.JogBase }, ro),
		rosparam.BindString("jog_tip_link", "last link of the jog chain (empty: the end of the longest chain)", func(c *NodeConfig) *string { return &c.JogTip }, ro),
		rosparam.BindStrings("jog_frames", "tf frames offered for Cartesian jogs (empty: the chain's base and tip)", func(c *NodeConfig) *[]string { return &c.JogFrames }, ro),
		rosparam.BindStrings("cameras", "camera names (topics <camera_namespace>/<name>/image_raw[/compressed])", func(c *NodeConfig) *[]string { return &c.Cameras }, ro),
		rosparam.BindString("camera_namespace", "namespace of camera_publisher", func(c *NodeConfig) *string { return &c.CameraNamespace }, ro),
		rosparam.BindString("camera_transport", "camera topics to show: auto (<name>/image_raw where published, else <name>/image_raw/compressed: MJPG cameras), compressed (JPEG from camera_publisher for every camera: for a console off the robot) or raw", func(c *NodeConfig) *string { return &c.CameraTransport }, ro,
			rosparam.Constraint("auto, compressed or raw")),
		rosparam.BindSeconds("service_timeout", "bound of every service call", func(c *NodeConfig) *time.Duration { return &c.ServiceTimeout }, rosparam.Within(0.01, 10), ro),
		rosparam.BindDouble("furbot_max_speed", "m/s", "bound of the page's Furbot speed", func(c *NodeConfig) *float64 { return &c.FurbotMaxSpeed }, rosparam.Within(0.01, 20), ro),
		rosparam.BindDouble("furbot_max_yaw_rate", "rad/s", "bound of the page's Furbot yaw rate", func(c *NodeConfig) *float64 { return &c.FurbotMaxYawRate }, rosparam.Within(0.01, 5), ro),
		rosparam.BindBool("twist_mux", "drive through twist_mux: the page's Twist on cmd_vel_teleop and the e-stop as the lock e_stop (std_msgs/Bool), in each robot's namespace, instead of cmd_vel", func(c *NodeConfig) *bool { return &c.TwistMux }, ro),
		rosparam.BindBool("joy", "publish the page's gamepad as sensor_msgs/Joy on joy in the namespace of the machine it drives", func(c *NodeConfig) *bool { return &c.Joy }, ro),
		rosparam.BindDouble("balance_threshold", "m", "the Servosila's static stability margin below which the 3-D page warns (from robot_description and joint_states)", func(c *NodeConfig) *float64 { return &c.BalanceThreshold }, rosparam.Within(0.001, 1), ro),
	}
}

// NodeParameterTable returns the node's declarations with their defaults.
func NodeParameterTable() rosparam.Table { return NodeBindings().Table(DefaultNodeConfig()) }

// LoadNodeConfig builds the node's configuration from its parameters and
// checks it (see NodeConfig.Names).
func LoadNodeConfig(s *rosparam.Store) (NodeConfig, error) {
	c := DefaultNodeConfig()
	if err := NodeBindings().Load(&c, s); err != nil {
		return NodeConfig{}, fmt.Errorf("graph: node parameters: %w", err)
	}
	if _, err := c.Names(); err != nil {
		return NodeConfig{}, err
	}
	return c, nil
}

// Names are the absolute names of every topic and service the console
// uses. Empty names belong to a machine that is switched off.
type Names struct {
	ServosilaCmdVel, ServosilaJointVel, ServosilaJointTarget string // out
	ServosilaOdom, ServosilaJointStates, ServosilaTelemetry  string // in
	ServosilaDescription                                     string // in: robot_description
	ServosilaEStop, ServosilaRelease, ServosilaHeadlight     string // services
	FurbotCmdVel                                             string // out
	FurbotOdom, FurbotTraction, FurbotSteering, FurbotStatus string // in
	FurbotBMS, FurbotBattery, FurbotControlSent              string // in
	FurbotDescription                                        string // in: robot_description
	FurbotEStop, FurbotRelease                               string // services
	// ServosilaLock and FurbotLock are twist_mux's e-stop locks
	// (std_msgs/Bool out), with TwistMux; ServosilaJoy and FurbotJoy the
	// gamepad's sensor_msgs/Joy (out), with Joy.
	ServosilaLock, FurbotLock, ServosilaJoy, FurbotJoy      string
	JogJointStates                                          string // in
	JogStartJoint, JogStartCartesian, JogStop, JogHeartbeat string // services
	Diagnostics                                             string // in
	// ServosilaDriverNode is the driver's fully qualified node name, which
	// its /diagnostics statuses start with (diag.StatusName).
	ServosilaDriverNode string
	// Images maps each camera name to its sensor_msgs/Image topic.
	Images map[string]string
	// Cameras maps each camera name to its image topics and the
	// transport choosing between them (camera_transport).
	Cameras map[string]CameraTopics
}

// Names resolves every name from the configuration and the drivers' own
// constants, and checks that the two machines do not share a command
// topic.
func (c NodeConfig) Names() (Names, error) {
	var n Names
	for _, ns := range []string{c.ServosilaNamespace, c.FurbotNamespace, c.CameraNamespace} {
		if ns != "" && !validName(ns) {
			return n, fmt.Errorf("%w: namespace %q (want e.g. /robot1)", ErrConfig, ns)
		}
	}
	n.Diagnostics = servosilanode.TopicDiagnostics
	if c.Servosila {
		if !validName(c.ServosilaDriver) {
			return n, fmt.Errorf("%w: servosila_driver %q", ErrConfig, c.ServosilaDriver)
		}
		ns, node := c.ServosilaNamespace, c.ServosilaDriver
		n.ServosilaDriverNode = rosparam.FullyQualifiedName(ns, node)
		n.ServosilaCmdVel = resolve(ns, node, servosilanode.TopicCmdVel)
		n.ServosilaLock, n.ServosilaJoy = c.muxNames(&n.ServosilaCmdVel, ns, node)
		n.ServosilaJointVel = resolve(ns, node, servosilanode.TopicJointVel)
		n.ServosilaJointTarget = resolve(ns, node, servosilanode.TopicJointTarget)
		n.ServosilaOdom = resolve(ns, node, servosilanode.TopicOdom)
		n.ServosilaJointStates = resolve(ns, node, servosilanode.TopicJointStates)
		n.ServosilaTelemetry = resolve(ns, node, servosilanode.TopicTelemetry)
		n.ServosilaDescription = resolve(ns, node, TopicRobotDescription)
		n.ServosilaEStop = resolve(ns, node, servosilanode.ServiceEStop)
		n.ServosilaRelease = resolve(ns, node, servosilanode.ServiceRelease)
		n.ServosilaHeadlight = resolve(ns, node, servosilanode.ServiceHeadlight)
	}
	if c.Furbot {
		if !validName(c.FurbotBridge) {
			return n, fmt.Errorf("%w: furbot_bridge %q", ErrConfig, c.FurbotBridge)
		}
		ns, node := c.FurbotNamespace, c.FurbotBridge
		n.FurbotCmdVel = resolve(ns, node, furbotnode.TopicCmdVel)
		n.FurbotLock, n.FurbotJoy = c.muxNames(&n.FurbotCmdVel, ns, node)
		n.FurbotOdom = resolve(ns, node, furbotnode.TopicOdom)
		n.FurbotTraction = resolve(ns, node, furbotnode.TopicTraction)
		n.FurbotSteering = resolve(ns, node, furbotnode.TopicSteering)
		n.FurbotStatus = resolve(ns, node, furbotnode.TopicStatus)
		n.FurbotBMS = resolve(ns, node, furbotnode.TopicBMS)
		n.FurbotBattery = resolve(ns, node, furbotnode.TopicBattery)
		n.FurbotControlSent = resolve(ns, node, furbotnode.TopicControlSent)
		n.FurbotDescription = resolve(ns, node, TopicRobotDescription)
		n.FurbotEStop = resolve(ns, node, furbotnode.ServiceEStop)
		n.FurbotRelease = resolve(ns, node, furbotnode.ServiceRelease)
	}
	if c.Servosila && c.Furbot {
		for _, p := range [][2]string{{n.ServosilaCmdVel, n.FurbotCmdVel}, {n.ServosilaOdom, n.FurbotOdom}} {
			if p[0] == p[1] {
				return n, fmt.Errorf("%w: the Servosila and the Furbot would share %s: start them in different namespaces (servosila_namespace, furbot_namespace)", ErrConfig, p[0])
			}
		}
	}
	if c.Jog {
		if c.JogURDF == "" {
			return n, fmt.Errorf("%w: jog is on but jog_urdf is empty (give the arm's URDF file, or set jog false)", ErrConfig)
		}
		jn, err := jognode.NamesIn(c.JogNamespace)
		if err != nil {
			return n, fmt.Errorf("%w: jog_namespace: %v", ErrConfig, err)
		}
		n.JogJointStates, n.JogStartJoint, n.JogStartCartesian = jn.JointStates, jn.StartJointMove, jn.StartCartesianMove
		n.JogStop, n.JogHeartbeat = jn.Stop, jn.Heartbeat
	}
	transport := c.CameraTransport
	if transport == "" {
		transport = TransportAuto
	}
	if transport != TransportAuto && transport != TransportCompressed && transport != TransportRaw {
		return n, fmt.Errorf("%w: camera_transport %q: want %s, %s or %s", ErrConfig, c.CameraTransport, TransportAuto, TransportCompressed, TransportRaw)
	}
	n.Images = make(map[string]string, len(c.Cameras))
	n.Cameras = make(map[string]CameraTopics, len(c.Cameras))
	for _, name := range c.Cameras {
		if !validName(name) || strings.Contains(name, "/") {
			return n, fmt.Errorf("%w: camera name %q", ErrConfig, name)
		}
		if _, dup := n.Images[name]; dup {
			return n, fmt.Errorf("%w: camera %q listed twice", ErrConfig, name)
		}
		n.Images[name] = resolve(c.CameraNamespace, camnode.Name, camnode.TopicsFor(name).Image)
		n.Cameras[name] = CameraTopics{Raw: n.Images[name], Transport: transport,
			Compressed: resolve(c.CameraNamespace, camnode.Name, camnode.TopicsFor(name).Compressed)}
	}
	if !(c.ServiceTimeout > 0) || !(c.FurbotMaxSpeed > 0) || !(c.FurbotMaxYawRate > 0) {
		return n, fmt.Errorf("%w: service_timeout %v, furbot_max_speed %g, furbot_max_yaw_rate %g must be positive", ErrConfig, c.ServiceTimeout, c.FurbotMaxSpeed, c.FurbotMaxYawRate)
	}
	return n, nil
}

// TopicJoy is the console's sensor_msgs/Joy topic, relative to the
// namespace of the machine the pad drives.
const TopicJoy = "joy"

// muxNames returns a machine's lock and Joy topics (empty when off) and,
// with TwistMux, points its Twist at twist_mux's operator input.
func (c NodeConfig) muxNames(cmdVel *string, ns, node string) (lock, joy string) {
	if c.TwistMux {
		*cmdVel = resolve(ns, node, cmdvel.TopicTeleop)
		lock = resolve(ns, node, cmdvel.TopicLock)
	}
	if c.Joy {
		joy = resolve(ns, node, TopicJoy)
	}
	return lock, joy
}

// resolve expands a ROS name as rcl does for a node named node in
// namespace ns: absolute names stay, "~/x" is private to the node, others
// are relative to the namespace.
func resolve(ns, node, name string) string {
	switch {
	case strings.HasPrefix(name, "/"):
		return name
	case strings.HasPrefix(name, "~/"):
		return path.Join("/", ns, node, name[2:])
	}
	return path.Join("/", ns, name)
}

// validName accepts ROS name characters: letters, digits, '_' and '/'.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '/' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return !strings.Contains(s, "//")
}
