package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/telebridge/telebridge/pkg/console/access"
)

func init() {
	register(command{
		name:    "token",
		summary: "console access tokens: `token new` prints a new one (the only kind the console accepts), `token check TOKEN` says whether one is accepted",
		run:     runToken,
	})
}

// runToken makes or checks console access tokens.
func runToken(_ context.Context, args []string, io stdio) error {
	fs := newFlagSet("token", io)
	fs.Usage = func() {
		fmt.Fprintln(io.err, "usage: telebridge token new | telebridge token check TOKEN")
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch a := fs.Args(); {
	case len(a) == 1 && a[0] == "new":
		t, err := access.NewToken()
		if err != nil {
			return err
		}
		fmt.Fprintln(io.out, t)
		return nil
	case len(a) == 2 && a[0] == "check":
		if err := access.CheckToken(strings.TrimSpace(a[1])); err != nil {
			return err
		}
		fmt.Fprintln(io.out, "accepted: "+access.TokenAccepted)
		return nil
	}
	return fmt.Errorf("%w: telebridge token new | telebridge token check TOKEN", errUsage)
}
