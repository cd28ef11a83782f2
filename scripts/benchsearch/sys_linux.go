package main

import (
	"errors"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"mundaneum/backend/index"
)

// evictCache asks the kernel to drop the cached pages of the workspace files, so that the
// next open reads from disk (a cold start after a reboot, or after other work pushed the
// workspace out of memory). Dirty pages stay: the files are written and closed by then.
func evictCache(path string) error {
	var errs []error
	for _, p := range append([]string{path, path + "-wal", path + "-shm"}, index.Files(path)...) {
		f, err := os.Open(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
			errs = append(errs, err)
		}
		f.Close()
	}
	return errors.Join(errs...)
}

// cpuTime is the CPU time (user and system) this process has used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// threadCPU is the CPU time the calling OS thread has used (the caller locks its goroutine
// to the thread): a query's own cost, apart from what other processes take of the cores.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
