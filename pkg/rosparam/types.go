package rosparam

// The types in this file mirror the messages of the ROS 2 Humble package
// rcl_interfaces field for field (Go names are the CamelCase of the message
// fields, as rclgo-gen spells them), so that the ROS layer converts them with
// plain field copies. They are ordinary Go structs, not generated code.

// Parameter types, the constants of rcl_interfaces/msg/ParameterType.
const (
	ParameterNotSet       uint8 = 0 // PARAMETER_NOT_SET
	ParameterBool         uint8 = 1 // PARAMETER_BOOL
	ParameterInteger      uint8 = 2 // PARAMETER_INTEGER
	ParameterDouble       uint8 = 3 // PARAMETER_DOUBLE
	ParameterString       uint8 = 4 // PARAMETER_STRING
	ParameterByteArray    uint8 = 5 // PARAMETER_BYTE_ARRAY
	ParameterBoolArray    uint8 = 6 // PARAMETER_BOOL_ARRAY
	ParameterIntegerArray uint8 = 7 // PARAMETER_INTEGER_ARRAY
	ParameterDoubleArray  uint8 = 8 // PARAMETER_DOUBLE_ARRAY
	ParameterStringArray  uint8 = 9 // PARAMETER_STRING_ARRAY
)

// DepthRecursive is ListParameters.Request.DEPTH_RECURSIVE: list every
// parameter whatever the number of '.' separators in its name.
const DepthRecursive uint64 = 0

// ParameterValue mirrors rcl_interfaces/msg/ParameterValue: Type says which
// one of the other fields holds the value; the others are zero. The zero
// value is a value of type ParameterNotSet.
type ParameterValue struct {
	Type              uint8     // one of the Parameter* constants
	BoolValue         bool      // with ParameterBool
	IntegerValue      int64     // with ParameterInteger
	DoubleValue       float64   // with ParameterDouble
	StringValue       string    // with ParameterString
	ByteArrayValue    []byte    // with ParameterByteArray
	BoolArrayValue    []bool    // with ParameterBoolArray
	IntegerArrayValue []int64   // with ParameterIntegerArray
	DoubleArrayValue  []float64 // with ParameterDoubleArray
	StringArrayValue  []string  // with ParameterStringArray
}

// Parameter mirrors rcl_interfaces/msg/Parameter: a name and a value.
type Parameter struct {
	Name  string         // the parameter's name, '.'-separated
	Value ParameterValue // its value and type
}

// FloatingPointRange mirrors rcl_interfaces/msg/FloatingPointRange. A value
// is valid when it is From or To, or lies within [From, To] and, when Step is
// not 0, is From plus a whole number of steps (compared to 100 ULP, as
// rclcpp does).
type FloatingPointRange struct {
	FromValue float64 // the lower bound (From)
	ToValue   float64 // the upper bound (To)
	Step      float64 // 0: any value in the range
}

// IntegerRange mirrors rcl_interfaces/msg/IntegerRange, with the same rule
// as FloatingPointRange and an exact step.
type IntegerRange struct {
	FromValue int64  // the lower bound
	ToValue   int64  // the upper bound
	Step      uint64 // 0: any value in the range
}

// ParameterDescriptor mirrors rcl_interfaces/msg/ParameterDescriptor. At
// most one of FloatingPointRange and IntegerRange holds one element.
type ParameterDescriptor struct {
	Name                  string               // the parameter's name
	Type                  uint8                // one of the Parameter* constants
	Description           string               // what it is, with its unit
	AdditionalConstraints string               // constraints in words, beyond the ranges
	ReadOnly              bool                 // set only at start-up
	DynamicTyping         bool                 // its type may change
	FloatingPointRange    []FloatingPointRange // the allowed range of a double
	IntegerRange          []IntegerRange       // the allowed range of an integer
}

// SetParametersResult mirrors rcl_interfaces/msg/SetParametersResult.
type SetParametersResult struct {
	Successful bool   // the change was accepted
	Reason     string // why not
}

// ListParametersResult mirrors rcl_interfaces/msg/ListParametersResult.
type ListParametersResult struct {
	Names    []string // the parameters found
	Prefixes []string // the prefixes of their names
}

// Time mirrors builtin_interfaces/msg/Time: seconds and nanoseconds since the
// epoch of the clock (the Unix epoch for the wall clock, the simulation's
// start for /clock).
type Time struct {
	Sec     int32  // [s]
	Nanosec uint32 // [ns], below 1e9
}

// ParameterEvent mirrors rcl_interfaces/msg/ParameterEvent, published on
// /parameter_events after every accepted change. Node is the fully
// qualified node name.
type ParameterEvent struct {
	Stamp             Time        // when the change was accepted
	Node              string      // see above
	NewParameters     []Parameter // parameters declared by the change
	ChangedParameters []Parameter // parameters whose value changed
	DeletedParameters []Parameter // parameters undeclared by the change
}

// Names of the parameter services, relative to the node's fully qualified
// name (the service of node /ns/drv is /ns/drv/list_parameters), and the
// topic of parameter events.
const (
	ServiceDescribeParameters      = "describe_parameters"       // rcl_interfaces/srv/DescribeParameters
	ServiceGetParameterTypes       = "get_parameter_types"       // rcl_interfaces/srv/GetParameterTypes
	ServiceGetParameters           = "get_parameters"            // rcl_interfaces/srv/GetParameters
	ServiceListParameters          = "list_parameters"           // rcl_interfaces/srv/ListParameters
	ServiceSetParameters           = "set_parameters"            // rcl_interfaces/srv/SetParameters
	ServiceSetParametersAtomically = "set_parameters_atomically" // rcl_interfaces/srv/SetParametersAtomically
	TopicParameterEvents           = "/parameter_events"         // rcl_interfaces/msg/ParameterEvent
)

// QoSDepthParameters is the history depth rclcpp uses for the parameter
// services and for /parameter_events (rmw_qos_profile_parameters and
// ParameterEventsQoS: reliable, volatile, keep last 1000).
const QoSDepthParameters = 1000
