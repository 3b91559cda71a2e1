// Package same tells a list given again from another: by identity, its
// first element's place in memory and its length. A followed run's
// readers keep what did not change from one reading to the next and make
// new lists where a reading changes something, so what was made of a
// list is kept while the list is the same list.
package same

// List is a list by identity; the zero List is every empty list.
type List[T any] struct {
	first *T
	n     int
}

// Of is list s by identity.
func Of[T any](s []T) List[T] {
	if len(s) == 0 {
		return List[T]{}
	}
	return List[T]{&s[0], len(s)}
}

// Empty reports whether the list had no element.
func (l List[T]) Empty() bool { return l.first == nil }
