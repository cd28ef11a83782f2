package render

import (
	"context"
	"fmt"
	"math"
	"syscall"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/performance"
)

// The monitor's rhythm. Reading a process's PSS walks its mappings in the kernel, a few
// milliseconds each for a browser's, so it is read every pssEvery (the peak in the stats)
// and when a cheap estimate from /proc/PID/statm, read every monitorEvery, says the cap
// may be passed: the processes' resident memory less their file-backed pages, summed,
// plus the largest file-backed set (the browser's binary and libraries, shared by all).
// The estimate is at least the PSS but for shared anonymous pages. A tab's JavaScript
// heap is bounded apart (--max-old-space-size).
const (
	monitorEvery = 250 * time.Millisecond
	pssEvery     = 2 * time.Second
	// memoryGrace bounds how long a tab closed for memory shields the others: until the
	// browser's memory falls under the cap again (the closed tab's process has gone), or
	// this long, after which a tab that still holds most is closed too. How soon the
	// memory comes back depends on the machine's load (over 3 s at a load of 30 on 2 cores).
	memoryGrace = 15 * time.Second
)

// monitor measures b's processes until it ends: the peak goes into the stats, and when
// they hold more than the cap together (PSS), the renderer holding most is killed (overCap).
func (r *Renderer) monitor(b *browserProc) {
	defer close(b.monitorDone)
	tick := time.NewTicker(monitorEvery)
	defer tick.Stop()
	var pids []int
	var last time.Time
	shielded := false // a tab was closed for memory and the memory has not come back since
	for {
		select {
		case <-b.ctx.Done():
			return
		case <-tick.C:
		}
		if b.pid <= 0 {
			continue
		}
		now := time.Now()
		due := now.Sub(last) >= pssEvery
		if due || pids == nil {
			pids = Descendants(b.pid)
		}
		if !due && estimate(pids) <= r.opts.MemoryCap {
			continue // (the estimate may undershoot the PSS: only a measured PSS ends the shield)
		}
		last = now
		m := treeMemory(pids)
		r.mu.Lock()
		pk := &r.stats.Peak
		pk.PSS, pk.RSS, pk.Processes = max(pk.PSS, m.PSS), max(pk.RSS, m.RSS), max(pk.Processes, m.Processes)
		var pages []*pageRun
		// A tab closed for memory takes a moment to give it back: the pages running then
		// are not blamed for it until it has (the browser is started again once they end).
		if m.PSS <= r.opts.MemoryCap || time.Duration(now.UnixNano()-b.overCap.Load()) >= memoryGrace {
			shielded = false
		}
		if m.PSS > r.opts.MemoryCap && !shielded {
			for p := range r.active {
				if p.tab.gen == b.gen && p.ctx.Err() == nil { // not one already ending (closed for memory, say)
					pages = append(pages, p)
				}
			}
		}
		r.mu.Unlock()
		if len(pages) > 0 {
			r.overCap(b, pids, pages, m)
			b.overCap.Store(time.Now().UnixNano())
			shielded = true
			pids = nil // a closed tab takes its process with it
		}
	}
}

// overCap frees the memory the browser holds over the cap. Where /proc says which of the
// browser's processes are renderers (Linux), the renderer holding most (PSS) is killed: a
// tab's memory is its renderer process's, so the measure, not an estimate, says whose it
// is, and a tab too busy to answer (an endless loop) is judged by what it holds too. Its
// tab reports the crash, and the page in it fails for memory (crashLoop). Elsewhere the
// page whose tab says it holds most is stopped.
func (r *Renderer) overCap(b *browserProc, pids []int, pages []*pageRun, m Memory) {
	detail := fmt.Sprintf("the browser's processes held %d MB together, over the cap of %d MB: the tab holding most was closed",
		m.PSS>>20, r.opts.MemoryCap>>20)
	pid, _ := largestRenderer(pids)
	if pid > 0 {
		b.memoryKills.Add(1)
		if syscall.Kill(pid, syscall.SIGKILL) == nil {
			r.tabsClosed.Add(1)
			b.memoryDetail.Store(&detail)
			traceLog("render: renderer %d killed for memory (%s)", pid, detail)
			return
		}
		b.memoryKills.Add(-1) // gone already: its memory with it
		return
	}
	// A tab too busy to tell counts as holding all; among several such, the page that has
	// held its tab longest (a page just begun has had no time to grow).
	var worst *pageRun
	most := -1.0
	for _, p := range pages {
		if s := pageWeight(p); s > most || s == most && p.start.Before(worst.start) {
			worst, most = p, s
		}
	}
	if worst == nil {
		return
	}
	r.tabsClosed.Add(1)
	worst.fail(&Error{Cause: CauseMemory, Detail: detail})
}

// pageWeight estimates what a page holds from its tab's metrics: the JavaScript heap, and
// about 200 bytes per DOM node and layout object.
func pageWeight(p *pageRun) float64 {
	ctx, cancel := context.WithTimeout(p.ctx, 300*time.Millisecond)
	defer cancel()
	if _, err := cdp.Call(ctx, p.tab.target, performance.Enable, performance.EnableParams{}); err != nil {
		return math.Inf(1)
	}
	res, err := cdp.Call(ctx, p.tab.target, performance.GetMetrics, cdp.Empty{})
	if err != nil {
		return math.Inf(1)
	}
	w := 0.0
	for _, mt := range res.Metrics {
		switch mt.Name {
		case "JSHeapTotalSize":
			w += mt.Value
		case "Nodes", "LayoutObjects":
			w += 200 * mt.Value
		}
	}
	return w
}
