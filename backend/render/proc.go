package render

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
)

// Memory is what the browser's processes hold together at one moment.
type Memory struct {
	Processes int
	// PSS is their proportional set size summed: each shared page counted once among them
	// (the browser's binary and libraries are mapped by every one of its processes). The
	// cap is on this figure.
	PSS int64
	// RSS is their resident set sizes summed, shared pages counted in each: an upper bound.
	RSS int64
}

// treeMemory measures the processes pids (a tree from Descendants) from /proc (Linux).
// It returns the zero Memory where /proc cannot be read. Reading a process's PSS walks
// its mappings (thousands for a browser): a few milliseconds a process.
func treeMemory(pids []int) Memory {
	var m Memory
	for _, p := range pids {
		pss, rss, ok := ProcessMemory(p)
		if !ok {
			continue
		}
		m.Processes++
		m.PSS += pss
		m.RSS += rss
	}
	return m
}

// Descendants returns pid and every process below it (Linux; nil without /proc).
func Descendants(pid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp := parentOf(n); pp > 0 {
			children[pp] = append(children[pp], n)
		}
	}
	out := []int{pid}
	for i := 0; i < len(out) && len(out) < 4096; i++ {
		out = append(out, children[out[i]]...)
	}
	return out
}

// parentOf reads a process's parent from /proc/PID/stat (after the command's closing
// parenthesis: state, then ppid).
func parentOf(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return 0
	}
	pp, _ := strconv.Atoi(f[1])
	return pp
}

// estimate is a cheap bound on the PSS of the processes pids together (see monitorEvery),
// from /proc/PID/statm: size, resident and file-backed resident pages.
func estimate(pids []int) int64 {
	var private, shared int64
	page := int64(os.Getpagesize())
	for _, p := range pids {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/statm")
		if err != nil {
			continue
		}
		f := strings.Fields(string(b))
		if len(f) < 3 {
			continue
		}
		res, _ := strconv.ParseInt(f[1], 10, 64)
		sh, _ := strconv.ParseInt(f[2], 10, 64)
		private += (res - sh) * page
		shared = max(shared, sh*page)
	}
	return private + shared
}

// ProcessMemory reads a process's Pss and Rss in bytes from /proc/PID/smaps_rollup.
func ProcessMemory(pid int) (pss, rss int64, ok bool) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/smaps_rollup")
	if err != nil {
		return 0, 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "Pss:"):
			pss = kb(line)
		case strings.HasPrefix(line, "Rss:"):
			rss = kb(line)
		}
	}
	return pss, rss, rss > 0
}

func kb(line string) int64 {
	f := strings.Fields(line)
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.ParseInt(f[1], 10, 64)
	return n << 10
}

// largestRenderer returns the renderer process among pids (a browser's tree) holding the
// most PSS, and that PSS; 0 where none is known (no /proc).
func largestRenderer(pids []int) (pid int, pss int64) {
	for _, p := range pids {
		cmd, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/cmdline")
		// (Chromium rewrites its command line: arguments apart by spaces, not NULs.)
		if err != nil || !bytes.Contains(cmd, []byte("--type=renderer")) {
			continue
		}
		if s, _, ok := ProcessMemory(p); ok && s > pss {
			pid, pss = p, s
		}
	}
	return pid, pss
}
