package console

// lease is the one-controller rule: holder is the page that may move the
// machines (0: nobody).
type lease struct{ holder uint64 }

// join gives control to page if nobody holds it, and reports whether page
// controls.
func (l *lease) join(page uint64) bool {
	if l.holder == 0 {
		l.holder = page
	}
	return l.holder == page
}

// leave frees the lease if page held it and reports whether it did.
func (l *lease) leave(page uint64) bool {
	if l.holder != page || page == 0 {
		return false
	}
	l.holder = 0
	return true
}

// take makes page the holder and returns the previous one (0 if none).
func (l *lease) take(page uint64) uint64 {
	prev := l.holder
	l.holder = page
	return prev
}
