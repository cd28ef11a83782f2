//go:build !linux

package search

// lowerPriority is only implemented on Linux; elsewhere the warming reads at the
// process's priority.
func lowerPriority() {}

// availableMemory is 2 GiB where the OS's figure is not read.
func availableMemory() int64 { return 2 << 30 }
