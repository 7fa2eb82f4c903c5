package gitread

// split finds where to divide the box [lo1, hi1) x [lo2, hi2): the middle
// snake of a shortest edit path, searched from both corners at once.
func (m *myers) split(lo1, hi1, lo2, hi2 int, needMin bool) splitPoint {
	x := &splitBox{m: m, ca: m.a.class, cb: m.b.class, lo1: lo1, hi1: hi1, lo2: lo2, hi2: hi2}
	x.dmin, x.dmax = lo1-hi2, hi1-lo2
	x.fmid, x.bmid = lo1-lo2, hi1-hi2
	x.odd = (x.fmid-x.bmid)&1 != 0
	x.fmin, x.fmax = x.fmid, x.fmid
	x.bmin, x.bmax = x.bmid, x.bmid
	*x.kf(x.fmid) = lo1
	*x.kb(x.bmid) = hi1
	for ec := 1; ; ec++ {
		fSnake, sp, ok := x.forward()
		if ok {
			return sp
		}
		bSnake, sp, ok := x.backward()
		if ok {
			return sp
		}
		if needMin {
			continue
		}
		// Past heurMin, a diagonal that got far from its corner through a
		// long run of equal lines is taken as it is.
		if (fSnake || bSnake) && ec > heurMin {
			if sp, ok := x.longSnake(ec); ok {
				return sp
			}
		}
		// Enough: take the furthest reaching path either way.
		if ec >= m.maxCost {
			return x.furthest()
		}
	}
}

// splitBox is split's search: the box, the diagonals' range (d = i1 -
// i2) and where the forward and backward searches start, and the
// diagonals each has reached so far.
type splitBox struct {
	m                      *myers
	ca, cb                 []int32
	lo1, hi1, lo2, hi2     int
	dmin, dmax, fmid, bmid int
	odd                    bool
	fmin, fmax, bmin, bmax int
}

// kf and kb are how far the forward and the backward search reached on
// diagonal d.
func (x *splitBox) kf(d int) *int { return &x.m.fwd[x.m.off+d] }
func (x *splitBox) kb(d int) *int { return &x.m.bwd[x.m.off+d] }

// forward takes the forward search one edit further, and reports whether
// a diagonal ran through a long run of equal lines, and the split when
// it met the backward search.
func (x *splitBox) forward() (snake bool, sp splitPoint, ok bool) {
	// Widen the forward diagonals by one on each side that stays in
	// the box; the one outside is a guard.
	if x.fmin > x.dmin {
		x.fmin--
		*x.kf(x.fmin - 1) = -1
	} else {
		x.fmin++
	}
	if x.fmax < x.dmax {
		x.fmax++
		*x.kf(x.fmax + 1) = -1
	} else {
		x.fmax--
	}
	for d := x.fmax; d >= x.fmin; d -= 2 {
		var i1 int
		if *x.kf(d - 1) >= *x.kf(d + 1) {
			i1 = *x.kf(d - 1) + 1
		} else {
			i1 = *x.kf(d + 1)
		}
		prev := i1
		i2 := i1 - d
		for i1 < x.hi1 && i2 < x.hi2 && x.ca[i1] == x.cb[i2] {
			i1++
			i2++
		}
		if i1-prev > snakeLen {
			snake = true
		}
		*x.kf(d) = i1
		if x.odd && x.bmin <= d && d <= x.bmax && *x.kb(d) <= i1 {
			return snake, splitPoint{i1, i2, true, true}, true
		}
	}
	return snake, splitPoint{}, false
}

// backward is forward's twin from the box's far corner.
func (x *splitBox) backward() (snake bool, sp splitPoint, ok bool) {
	if x.bmin > x.dmin {
		x.bmin--
		*x.kb(x.bmin - 1) = lineMax
	} else {
		x.bmin++
	}
	if x.bmax < x.dmax {
		x.bmax++
		*x.kb(x.bmax + 1) = lineMax
	} else {
		x.bmax--
	}
	for d := x.bmax; d >= x.bmin; d -= 2 {
		var i1 int
		if *x.kb(d - 1) < *x.kb(d + 1) {
			i1 = *x.kb(d - 1)
		} else {
			i1 = *x.kb(d + 1) - 1
		}
		prev := i1
		i2 := i1 - d
		for i1 > x.lo1 && i2 > x.lo2 && x.ca[i1-1] == x.cb[i2-1] {
			i1--
			i2--
		}
		if prev-i1 > snakeLen {
			snake = true
		}
		*x.kb(d) = i1
		if !x.odd && x.fmin <= d && d <= x.fmax && i1 <= *x.kf(d) {
			return snake, splitPoint{i1, i2, true, true}, true
		}
	}
	return snake, splitPoint{}, false
}

// longSnake is the split at the diagonal that got furthest from its
// corner (past heurK per edit) through snakeLen equal lines, forward
// first; ok is false when none did.
func (x *splitBox) longSnake(ec int) (splitPoint, bool) {
	ca, cb := x.ca, x.cb
	best := 0
	var sp splitPoint
	for d := x.fmax; d >= x.fmin; d -= 2 {
		dd := d - x.fmid
		if dd < 0 {
			dd = -dd
		}
		i1 := *x.kf(d)
		i2 := i1 - d
		v := (i1 - x.lo1) + (i2 - x.lo2) - dd
		if v > heurK*ec && v > best && x.lo1+snakeLen <= i1 && i1 < x.hi1 && x.lo2+snakeLen <= i2 && i2 < x.hi2 {
			for k := 1; ca[i1-k] == cb[i2-k]; k++ {
				if k == snakeLen {
					best = v
					sp = splitPoint{i1: i1, i2: i2}
					break
				}
			}
		}
	}
	if best > 0 {
		sp.minLo, sp.minHi = true, false
		return sp, true
	}
	for d := x.bmax; d >= x.bmin; d -= 2 {
		dd := d - x.bmid
		if dd < 0 {
			dd = -dd
		}
		i1 := *x.kb(d)
		i2 := i1 - d
		v := (x.hi1 - i1) + (x.hi2 - i2) - dd
		if v > heurK*ec && v > best && x.lo1 < i1 && i1 <= x.hi1-snakeLen && x.lo2 < i2 && i2 <= x.hi2-snakeLen {
			for k := 0; ca[i1+k] == cb[i2+k]; k++ {
				if k == snakeLen-1 {
					best = v
					sp = splitPoint{i1: i1, i2: i2}
					break
				}
			}
		}
	}
	if best > 0 {
		sp.minLo, sp.minHi = false, true
		return sp, true
	}
	return splitPoint{}, false
}

// furthest is the split at the furthest reaching path either way, when
// the search has cost enough.
func (x *splitBox) furthest() splitPoint {
	fbest, fbest1 := -1, -1
	for d := x.fmax; d >= x.fmin; d -= 2 {
		i1 := min(*x.kf(d), x.hi1)
		i2 := i1 - d
		if x.hi2 < i2 {
			i1 = x.hi2 + d
			i2 = x.hi2
		}
		if fbest < i1+i2 {
			fbest = i1 + i2
			fbest1 = i1
		}
	}
	bbest, bbest1 := lineMax, lineMax
	for d := x.bmax; d >= x.bmin; d -= 2 {
		i1 := max(x.lo1, *x.kb(d))
		i2 := i1 - d
		if i2 < x.lo2 {
			i1 = x.lo2 + d
			i2 = x.lo2
		}
		if i1+i2 < bbest {
			bbest = i1 + i2
			bbest1 = i1
		}
	}
	if (x.hi1+x.hi2)-bbest < fbest-(x.lo1+x.lo2) {
		return splitPoint{fbest1, fbest - fbest1, true, false}
	}
	return splitPoint{bbest1, bbest - bbest1, false, true}
}
