package consoletest

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
)

// Log is a console's log kept for a test: pass Logger() as
// console.Config.Logger and read what the console wrote with Lines. Safe
// for the console's goroutines and the test at once.
type Log struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p to the log (the handler's io.Writer).
func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// Logger returns a logger that writes to l in slog's text format
// (`time=… level=… msg=… key=value …`, one line a record).
func (l *Log) Logger() *slog.Logger { return slog.New(slog.NewTextHandler(l, nil)) }

// Lines returns the lines written from byte offset from on (none: an
// empty slice) and the offset of the log's end, the from of the next
// call.
func (l *Log) Lines(from int) ([]string, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := strings.TrimSuffix(l.b.String()[from:], "\n")
	if s == "" {
		return nil, l.b.Len()
	}
	return strings.Split(s, "\n"), l.b.Len()
}
