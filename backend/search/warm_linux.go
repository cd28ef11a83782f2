package search

import (
	"bufio"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// lowerPriority gives the calling thread (locked to its goroutine) the lowest CPU priority
// (nice 19: on Linux a thread's own) and the idle I/O class: its reads wait until no one
// else reads the disk.
func lowerPriority() {
	tid := unix.Gettid()
	_ = unix.Setpriority(unix.PRIO_PROCESS, tid, 19)
	const whoProcess, classIdle, classShift = 1, 3, 13
	_, _, _ = unix.Syscall(unix.SYS_IOPRIO_SET, whoProcess, uintptr(tid), classIdle<<classShift)
}

// availableMemory is the memory the OS says is available for new pages (MemAvailable), 2
// GiB when it cannot say.
func availableMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 2 << 30
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 2 << 30
}
