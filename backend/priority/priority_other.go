//go:build !linux

package priority

// Lower does nothing where a thread's priority cannot be set on its own: the background
// work competes with the rest as an equal.
func Lower() (int, error) { return 0, nil }

// IdleIO does nothing: see Lower.
func IdleIO() {}
