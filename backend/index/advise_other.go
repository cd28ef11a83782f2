//go:build !linux

package index

import "errors"

// canAdvise is false: maps are left to the OS's reading ahead (see adviseRandom).
const canAdvise = false

func cachePage(path string, off, size int64) ([]byte, error) {
	return nil, errors.New("not supported")
}

func adviseMapped(paths ...string) int { return 0 }
