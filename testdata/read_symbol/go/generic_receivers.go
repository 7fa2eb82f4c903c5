package generic

type List[T any] struct {
	items []T
}

func (l *List[T]) Push(v T) { l.items = append(l.items, v) }

func (l List[T]) Len() int { return len(l.items) }

type Map[K comparable, V any] map[K]V

func (m Map[K, V]) Get(k K) V { return m[k] }

func (m *Map[K, V]) Set(k K, v V) { (*m)[k] = v }

func (List[_]) Blank() {}
