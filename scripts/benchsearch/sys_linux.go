package main

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

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

// diskReads is how many bytes this process has had read from storage so far
// (/proc/self/io's read_bytes: what its reads and page faults brought into the OS cache,
// reading ahead included), -1 when the kernel does not say.
func diskReads() int64 {
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "read_bytes: "); ok {
			if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
				return n
			}
		}
	}
	return -1
}

// cached says how many bytes of the file at path are in the OS cache (mincore over a map
// of it), and its size.
func cached(path string) (in, size int64) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return 0, 0
	}
	size = fi.Size()
	m, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return 0, size
	}
	defer unix.Munmap(m)
	page := int64(os.Getpagesize())
	vec := make([]byte, (size+page-1)/page)
	if _, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		return 0, size
	}
	for _, v := range vec {
		if v&1 != 0 {
			in += page
		}
	}
	return in, size
}
