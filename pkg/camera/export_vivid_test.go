//go:build vivid && linux && cgo

package camera

// WaitFor and CPUTime are waitFor and cpuTime for the external vivid
// tests that pair a Camera with pkg/camera/node.
var (
	WaitFor = waitFor
	CPUTime = cpuTime
)
