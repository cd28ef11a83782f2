//go:build !linux

package index

// lowerPriority does nothing where a thread's priority cannot be set on its own: the
// stage then competes with the crawl as an equal.
func lowerPriority() {}

// makeRoom does nothing: see lowerPriority.
func makeRoom() {}
