//go:build !linux

package main

import (
	"errors"
	"time"
)

// evictCache is only implemented on Linux; elsewhere the cold open runs with the OS cache
// as it is.
func evictCache(string) error { return errors.New("dropping the page cache is not supported here") }

// cpuTime is not measured here.
func cpuTime() time.Duration { return 0 }

// threadCPU is not measured here.
func threadCPU() time.Duration { return 0 }

// diskReads is not measured here.
func diskReads() int64 { return -1 }

// cached is not measured here.
func cached(string) (in, size int64) { return 0, 0 }
