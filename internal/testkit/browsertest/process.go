package browsertest

import (
	"context"
	"os/exec"
	"syscall"
	"testing"

	"github.com/chromedp/chromedp"
)

// OwnGroup starts Chromium in a process group of its own (its browser,
// renderer, network and GPU processes), so that Signal reaches every one
// of them, as `kill -STOP -PGID` would; the kernel still kills it when the
// test's thread that started it exits (chromedp's default).
var OwnGroup = chromedp.ModifyCmdFunc(func(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
})

// Signal sends sig to the process group of the browser started by Start
// with OwnGroup: SIGSTOP freezes the whole browser (a hung machine, a
// paused debugger), SIGCONT resumes it, SIGKILL kills it.
func Signal(t testing.TB, browser context.Context, sig syscall.Signal) {
	t.Helper()
	c := chromedp.FromContext(browser)
	if c == nil || c.Browser == nil || c.Browser.Process() == nil {
		t.Fatal("browsertest: no browser process to signal")
	}
	pid := c.Browser.Process().Pid
	pgid, err := syscall.Getpgid(pid)
	if err != nil {
		t.Fatalf("browsertest: process group of %d: %v", pid, err)
	}
	if pgid != pid {
		t.Fatalf("browsertest: browser %d is in group %d, not its own: start it with OwnGroup", pid, pgid)
	}
	if err := syscall.Kill(-pgid, sig); err != nil {
		t.Fatalf("browsertest: kill -%d -%d: %v", sig, pgid, err)
	}
}

// SignalMain sends sig to the browser's main process only (not its
// renderer, GPU or network processes).
func SignalMain(t testing.TB, browser context.Context, sig syscall.Signal) {
	t.Helper()
	if err := chromedp.FromContext(browser).Browser.Process().Signal(sig); err != nil {
		t.Fatalf("browsertest: %v", err)
	}
}
