package index

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

const canAdvise = true

// cachePage reads size bytes at off of the file at path into the OS's cache, with no
// reading ahead, and returns them.
func cachePage(path string, off, size int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	_ = unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_RANDOM)
	b := make([]byte, size)
	n, err := f.ReadAt(b, off)
	if n == len(b) {
		err = nil
	}
	return b[:n], err
}

// adviseMapped marks every map of the files at paths in this process (SQLite's, one per
// connection and file) for random reads, and returns how many it marked.
func adviseMapped(paths ...string) int {
	want := map[string]bool{}
	for _, p := range paths {
		if abs, err := filepath.Abs(p); err == nil {
			if r, err := filepath.EvalSymlinks(abs); err == nil {
				abs = r
			}
			want[abs] = true
		}
	}
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return 0
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// start-end perms offset dev inode path
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || !want[strings.Join(fields[5:], " ")] {
			continue
		}
		lo, hi, ok := strings.Cut(fields[0], "-")
		if !ok {
			continue
		}
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil || end <= start {
			continue
		}
		if _, _, e := unix.Syscall(unix.SYS_MADVISE, uintptr(start), uintptr(end-start), unix.MADV_RANDOM); e == 0 {
			n++
		}
	}
	return n
}
