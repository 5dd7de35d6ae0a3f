// Package diag holds a node's health report in the shape of
// diagnostic_msgs/DiagnosticStatus, so that what a driver reports (level,
// message, key values) is decided and tested in its core package and the
// ROS layer only copies it onto /diagnostics, each status named after the
// node that reports it ("/f1/furbot_bridge: vehicle link", StatusName).
package diag

import (
	"fmt"
	"strconv"
	"time"

	"github.com/telebridge/telebridge/pkg/qos"
)

// Topic is where every node publishes its statuses
// (diagnostic_msgs/DiagnosticArray), and Period how often: once a second,
// as diagnostic_updater does by default.
const (
	Topic  = "/diagnostics"
	Period = time.Second
)

// QoS is the profile of Topic: reliable, volatile, keep last 10, as
// diagnostic_updater publishes and diagnostic_aggregator subscribes.
var QoS = qos.Default

// Level is the severity of a status, with diagnostic_msgs' values.
type Level uint8

// Levels.
const (
	OK    Level = 0
	Warn  Level = 1
	Error Level = 2
	Stale Level = 3
)

// String returns the level's name.
func (l Level) String() string {
	switch l {
	case OK:
		return "OK"
	case Warn:
		return "WARN"
	case Error:
		return "ERROR"
	case Stale:
		return "STALE"
	}
	return fmt.Sprintf("Level(%d)", uint8(l))
}

// KeyValue is one named value of a status.
type KeyValue struct {
	Key, Value string // a name and its value, as text
}

// Status is the health of one component.
type Status struct {
	Level      Level      // OK, WARN, ERROR or STALE
	Name       string     // the component ("robot link"); on /diagnostics StatusName's "<node>: <component>"
	Message    string     // one line for operators
	HardwareID string     // e.g. the robot's address
	Values     []KeyValue // named values for the operator, in display order
}

// Raise sets the level to l with msg if l is more severe than the current
// one, so that checks can be run in any order and the worst one wins.
func (s *Status) Raise(l Level, msg string) {
	if l > s.Level || s.Message == "" {
		s.Level, s.Message = l, msg
	}
}

// Add appends a key with a value formatted for display.
func (s *Status) Add(key string, v any) {
	var text string
	switch x := v.(type) {
	case string:
		text = x
	case float64:
		text = strconv.FormatFloat(x, 'g', 6, 64)
	case time.Duration:
		text = strconv.FormatFloat(x.Seconds(), 'f', 3, 64) + " s"
	default:
		text = fmt.Sprint(x)
	}
	s.Values = append(s.Values, KeyValue{Key: key, Value: text})
}
