package main

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"
)

// blocks is a set of covered statement blocks of a coverage profile, each
// named "file:start,end" as in the profile.
type blocks map[string]bool

// parseProfile reads a coverage profile (go test -coverprofile) and
// returns the blocks whose count is above zero. A block listed more than
// once (one line per test binary run) is covered if any line says so.
func parseProfile(r io.Reader) (blocks, error) {
	out := blocks{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	first := true
	for sc.Scan() {
		line := sc.Text()
		if first {
			first = false
			if !strings.HasPrefix(line, "mode: ") {
				return nil, fmt.Errorf("parse profile: first line %q is not a mode line", line)
			}
			continue
		}
		if line == "" {
			continue
		}
		// file:12.3,14.5 2 1
		f := strings.Fields(line)
		if len(f) != 3 {
			return nil, fmt.Errorf("parse profile: malformed line %q", line)
		}
		if f[2] != "0" {
			out[f[0]] = true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("parse profile: %w", err)
	}
	return out, nil
}

// input is one corpus file with the blocks its run covers.
type input struct {
	name   string
	size   int64
	covers blocks
}

// choose returns the names of a small subset of inputs that, together
// with base (what the seeds added in code cover), covers every block
// that all of them cover. It is the greedy set cover: it repeatedly takes
// the input that adds the most blocks not yet covered (ties: the smaller
// file, then the name), until none adds any. The result is sorted.
func choose(base blocks, inputs []input) []string {
	covered := blocks{}
	for b := range base {
		covered[b] = true
	}
	left := append([]input(nil), inputs...)
	sort.Slice(left, func(i, j int) bool {
		if left[i].size != left[j].size {
			return left[i].size < left[j].size
		}
		return left[i].name < left[j].name
	})
	var kept []string
	for {
		best, bestGain := -1, 0
		for i, in := range left {
			gain := 0
			for b := range in.covers {
				if !covered[b] {
					gain++
				}
			}
			if gain > bestGain {
				best, bestGain = i, gain
			}
		}
		if best < 0 {
			break
		}
		for b := range left[best].covers {
			covered[b] = true
		}
		kept = append(kept, left[best].name)
		left = append(left[:best], left[best+1:]...)
	}
	sort.Strings(kept)
	return kept
}

// union returns the blocks covered by any of sets.
func union(sets ...blocks) blocks {
	out := blocks{}
	for _, s := range sets {
		for b := range s {
			out[b] = true
		}
	}
	return out
}
