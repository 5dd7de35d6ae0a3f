//go:build unix

package mjpeg

import (
	"syscall"
	"time"
)

// cpuTime returns the process's user + system CPU time (getrusage), the
// cost measure that does not depend on how loaded the machine is.
func cpuTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
