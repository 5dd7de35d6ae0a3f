package camera

import "sync/atomic"

type countersForTest struct{ c atomic.Uint64 }
