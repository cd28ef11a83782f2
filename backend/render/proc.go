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

// treeMemory measures the process pid and all its descendants from /proc (Linux). It
// returns the zero Memory where /proc cannot be read.
func treeMemory(pid int) Memory {
	if pid <= 0 {
		return Memory{}
	}
	var m Memory
	for _, p := range descendants(pid) {
		pss, rss, ok := processMemory(p)
		if !ok {
			continue
		}
		m.Processes++
		m.PSS += pss
		m.RSS += rss
	}
	return m
}

// descendants returns pid and every process below it.
func descendants(pid int) []int {
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

// processMemory reads a process's Pss and Rss in bytes from /proc/PID/smaps_rollup.
func processMemory(pid int) (pss, rss int64, ok bool) {
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
