// Package syncbuf is a byte buffer that a process's goroutines write and a
// test reads at the same time: a logger's or a command's output kept for
// the test's judgement.
package syncbuf

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
)

// Buffer is a bytes.Buffer safe for any number of writers and readers at
// once. The zero value is empty and ready.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p (an io.Writer for loggers and commands).
func (l *Buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns everything written so far.
func (l *Buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Logger returns a logger that writes to l in slog's text format
// (`time=… level=… msg=… key=value …`, one line a record).
func (l *Buffer) Logger() *slog.Logger { return slog.New(slog.NewTextHandler(l, nil)) }

// Lines returns the lines written from byte offset from on (none: an
// empty slice) and the offset of the buffer's end, the from of the next
// call.
func (l *Buffer) Lines(from int) ([]string, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := strings.TrimSuffix(l.b.String()[from:], "\n")
	if s == "" {
		return nil, l.b.Len()
	}
	return strings.Split(s, "\n"), l.b.Len()
}
