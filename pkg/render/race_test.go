//go:build race

package render

// raceDetector: under -race sync.Pool drops some of what is put back (by
// design, to shake out races), and purego keeps its call blocks in a
// pool, so counting allocations means nothing there.
const raceDetector = true
