package peer

// Share is one watched camera's claim on a peer's bandwidth estimate.
type Share struct {
	Chosen bool // the operator's chosen camera (at most one per call)
	Max    int  // cap [bit/s]; 0 means no cap
}

// ChosenFraction is the part of the estimate the chosen camera gets [0, 1]
// when other cameras are watched too; it gets more only what the others'
// caps leave unused.
const ChosenFraction = 0.6

// Split divides total [bit/s] over the cameras in shares and writes each
// camera's budget [bit/s] to out (len(out) == len(shares)). The chosen
// camera gets up to ChosenFraction of total (all of it when alone), the
// others share the rest equally, each within its Max; what a capped camera
// cannot use goes to the uncapped others, the chosen one first. The sum of
// out never exceeds total. It allocates nothing.
func Split(total int, shares []Share, out []int) {
	for i := range out {
		out[i] = 0
	}
	if total <= 0 || len(shares) == 0 {
		return
	}
	chosen := -1
	for i, s := range shares {
		if s.Chosen {
			chosen = i
			break
		}
	}
	rest := total
	if chosen >= 0 {
		first := total
		if len(shares) > 1 {
			first = int(float64(total) * ChosenFraction)
		}
		out[chosen] = capped(first, shares[chosen].Max)
		rest -= out[chosen]
	}
	rest = fill(rest, shares, out, chosen)
	if chosen >= 0 && rest > 0 { // the others are capped: back to the chosen one
		add := capped(out[chosen]+rest, shares[chosen].Max) - out[chosen]
		out[chosen] += add
	}
}

// fill shares budget equally (water-filling) over the cameras other than
// skip, each within its Max, and returns what is left over.
func fill(budget int, shares []Share, out []int, skip int) int {
	for budget > 0 {
		open := 0
		for i, s := range shares {
			if i != skip && (s.Max == 0 || out[i] < s.Max) {
				open++
			}
		}
		if open == 0 {
			return budget
		}
		each := budget / open
		if each == 0 {
			return budget
		}
		for i, s := range shares {
			if i == skip || (s.Max != 0 && out[i] >= s.Max) {
				continue
			}
			add := capped(out[i]+each, s.Max) - out[i]
			out[i] += add
			budget -= add
		}
	}
	return budget
}

func capped(v, max int) int {
	if max > 0 && v > max {
		return max
	}
	return v
}
