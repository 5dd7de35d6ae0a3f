package control

// SequenceGap returns how many frames the driver dropped between two
// consecutive dequeued buffers with sequence numbers last and seq: the
// forward distance minus one, across the uint32 wrap. A repeated or
// backward number (a driver restarting its count, e.g. after an error)
// is not a drop and gives 0.
func SequenceGap(last, seq uint32) uint64 {
	d := seq - last // modulo 2^32
	if d == 0 || d >= 1<<31 {
		return 0
	}
	return uint64(d - 1)
}
