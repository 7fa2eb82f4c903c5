package tsjs

// Arrays: the element type of T[] followed through for … of, a[i],
// the callbacks of forEach, map, filter and their kin, and the methods
// that return an element or the array.

// arrayMethods are what each array method the resolver follows gives:
// its callback's first parameter is an element (cb), its result is an
// element (elem) or the array (self).
var arrayMethods = map[string]struct{ cb, elem, self bool }{
	"forEach": {cb: true}, "map": {cb: true}, "flatMap": {cb: true}, "some": {cb: true}, "every": {cb: true},
	"findIndex": {cb: true}, "findLastIndex": {cb: true},
	"filter": {cb: true, self: true}, "find": {cb: true, elem: true}, "findLast": {cb: true, elem: true},
	"sort": {self: true}, "slice": {self: true}, "concat": {self: true}, "reverse": {self: true}, "splice": {self: true},
	"pop": {elem: true}, "shift": {elem: true}, "at": {elem: true},
}

// elemOf is an element of the array v.
func elemOf(v val) val {
	switch v.k {
	case vArray:
		return v.alts[0]
	case vUnion:
		out := val{}
		for i, a := range v.alts {
			if i == 0 {
				out = elemOf(a)
			} else {
				out = union(out, elemOf(a))
			}
		}
		return out
	}
	return unknownVal
}

// arrayMember is the member name of the array v: a method the resolver
// follows, else a value of no project type.
func arrayMember(v val, name string) val {
	if _, ok := arrayMethods[name]; ok {
		return val{k: vArrayMethod, alts: []val{v}, name: name}
	}
	return unknownVal
}

// arrayCall is what calling the array method m returns.
func arrayCall(m val) val {
	how := arrayMethods[m.name]
	switch {
	case how.self:
		return m.alts[0]
	case how.elem:
		return elemOf(m.alts[0])
	}
	return unknownVal
}

// arrayParam is the type of the parameter k of the array method m: its
// callback, whose first parameter is an element.
func arrayParam(m val, k int) val {
	if k == 0 && arrayMethods[m.name].cb {
		return val{k: vCallback, alts: []val{elemOf(m.alts[0])}}
	}
	return unknownVal
}
