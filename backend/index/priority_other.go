//go:build !linux

package index

// makeRoom does nothing where a thread's priority cannot be set on its own (see
// priority.Lower): the stage then competes with the crawl as an equal.
func makeRoom() {}
