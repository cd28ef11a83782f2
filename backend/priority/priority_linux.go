package priority

import "golang.org/x/sys/unix"

// Lower gives the calling thread a CPU priority Step nice levels below the process's (at
// most 19), and reports the nice value it set. On Linux a thread's nice value is its own:
// the caller must have locked its goroutine to the thread (runtime.LockOSThread), and the
// priority goes with the thread.
func Lower() (int, error) {
	nice := min(processNice+Step, 19)
	return nice, unix.Setpriority(unix.PRIO_PROCESS, unix.Gettid(), nice)
}

// processNice is the process's nice value, read when it starts: later, a goroutine locked
// to the main thread (whose id is the process's) may have lowered it.
var processNice = niceOf(unix.Getpid())

// niceOf reads a thread's nice value (0 when the kernel will not say).
func niceOf(tid int) int {
	// The kernel's getpriority returns 20 - nice (1..40), which x/sys passes through.
	raw, err := unix.Getpriority(unix.PRIO_PROCESS, tid)
	if err != nil {
		return 0
	}
	return 20 - raw
}

// IdleIO puts the calling thread (locked to its goroutine) in the idle I/O class: its
// reads wait until no one else reads the disk. A thread blocked in a read holds no Go
// processor, so this cannot hold the process back as a low CPU priority can.
func IdleIO() {
	const whoProcess, classIdle, classShift = 1, 3, 13
	_, _, _ = unix.Syscall(unix.SYS_IOPRIO_SET, whoProcess, uintptr(unix.Gettid()), classIdle<<classShift)
}
