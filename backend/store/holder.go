package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The process that owns a workspace for writing writes who it is into the lock file
// (<workspace>.lock) once it holds the lock, and empties it before letting go: a second
// owner (a window started while `serve` runs) can then say who holds the workspace
// instead of only that someone does. The record is advisory: the lock itself is the
// flock, and a record left by a process that is gone is never shown.

// Holder is the process that has a workspace open for writing.
type Holder struct {
	PID     int       `json:"pid"`
	Command []string  `json:"command"` // its arguments, the program first
	Since   time.Time `json:"since"`
}

// String is "process 1234 (mundaneum serve --db w.mundaneum)".
func (h Holder) String() string {
	if len(h.Command) == 0 {
		return "process " + strconv.Itoa(h.PID)
	}
	return fmt.Sprintf("process %d (%s)", h.PID, strings.Join(h.Command, " "))
}

// HeldError is the error of opening for writing a workspace another process holds; it
// matches ErrLocked. Holder is nil when the holder is not known (a Mundaneum older than
// the record, or the moment between taking the lock and writing it).
type HeldError struct {
	Path   string
	Holder *Holder
}

func (e *HeldError) Error() string {
	if e.Holder == nil {
		return fmt.Sprintf("%s: %v", e.Path, ErrLocked)
	}
	return fmt.Sprintf("%s: %v: %s", e.Path, ErrLocked, e.Holder)
}

func (e *HeldError) Unwrap() error { return ErrLocked }

// maxHolderRecord bounds what is read of a lock file (a record is a few hundred bytes).
const maxHolderRecord = 64 << 10

// writeHolder records this process in the lock file at lockPath.
func writeHolder(lockPath string) error {
	args := os.Args
	if len(args) > 64 {
		args = args[:64]
	}
	b, err := json.Marshal(Holder{PID: os.Getpid(), Command: args, Since: time.Now().UTC().Truncate(time.Second)})
	if err != nil {
		return err
	}
	return os.WriteFile(lockPath, b, 0o600)
}

// clearHolder empties the lock file before the lock is released.
func clearHolder(lockPath string) { _ = os.Truncate(lockPath, 0) }

// ReadHolder returns the process recorded as holding the workspace at path; false when
// none is recorded or the recorded process is gone. It does not check the lock: ask only
// after an open failed with ErrLocked.
func ReadHolder(path string) (Holder, bool) {
	f, err := os.Open(path + ".lock")
	if err != nil {
		return Holder{}, false
	}
	defer f.Close()
	b := make([]byte, maxHolderRecord)
	n, _ := f.Read(b)
	var h Holder
	if n == 0 || json.Unmarshal(b[:n], &h) != nil || h.PID <= 0 {
		return Holder{}, false
	}
	if !alive(h) {
		return Holder{}, false
	}
	return h, true
}

// alive reports whether h's process still runs, and on Linux that it is the process that
// wrote the record (a pid reused since by another program is not the holder).
func alive(h Holder) bool {
	p, err := os.FindProcess(h.PID)
	if err != nil {
		return false
	}
	if err := p.Signal(syscall.Signal(0)); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	if runtime.GOOS != "linux" {
		return true
	}
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(h.PID) + "/cmdline")
	if err != nil {
		return true // no /proc to check against
	}
	args := strings.Split(strings.TrimSuffix(string(cmdline), "\x00"), "\x00")
	n := min(len(args), len(h.Command))
	return n > 0 && slices.Equal(args[:n], h.Command[:n])
}
