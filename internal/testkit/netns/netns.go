//go:build linux

// Package netns makes sockets inside named network namespaces (the ones
// `ip netns add NAME` creates under /run/netns) from a process that runs
// in another: Do switches the calling thread into the namespace, runs f
// and switches back. A socket belongs to the namespace it was made in for
// its whole life, so one test process can own a console's sockets in one
// namespace, a relay's in a second and a browser in a third
// (internal/testkit/impairedlink, scripts/impaired-link.sh).
//
// Requires CAP_SYS_ADMIN (root). Only tests and checks use it.
package netns

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"golang.org/x/sys/unix"
)

// Dir is where `ip netns` keeps its namespaces.
const Dir = "/run/netns"

// Do runs f on the calling goroutine with its thread in the network
// namespace name (a file in Dir): every socket f creates (net.Listen,
// net.ListenUDP, net.Dial) lives in that namespace. Goroutines f starts
// do not run there. Do returns f's error, or why it could not switch.
func Do(name string, f func() error) error {
	runtime.LockOSThread()
	orig, err := os.Open("/proc/thread-self/ns/net")
	if err != nil {
		runtime.UnlockOSThread()
		return fmt.Errorf("netns: own namespace: %w", err)
	}
	defer orig.Close()
	target, err := os.Open(filepath.Join(Dir, name))
	if err != nil {
		runtime.UnlockOSThread()
		return fmt.Errorf("netns: %w", err)
	}
	defer target.Close()
	if err := unix.Setns(int(target.Fd()), unix.CLONE_NEWNET); err != nil {
		runtime.UnlockOSThread()
		return fmt.Errorf("netns: enter %s: %w", name, err)
	}
	ferr := f()
	if err := unix.Setns(int(orig.Fd()), unix.CLONE_NEWNET); err != nil {
		// The thread stays locked, so it ends with this goroutine instead
		// of running others in the wrong namespace.
		return errors.Join(ferr, fmt.Errorf("netns: leave %s: %w", name, err))
	}
	runtime.UnlockOSThread()
	return ferr
}
