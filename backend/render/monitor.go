package render

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/performance"
)

// monitorEvery is how often the browser's memory is measured.
const monitorEvery = 200 * time.Millisecond

// monitor measures b's processes until it ends: the peak goes into the stats, and when
// they hold more than the cap together, the tab that holds most is closed.
func (r *Renderer) monitor(b *browserProc) {
	defer close(b.monitorDone)
	tick := time.NewTicker(monitorEvery)
	defer tick.Stop()
	for {
		select {
		case <-b.ctx.Done():
			return
		case <-tick.C:
		}
		m := treeMemory(b.pid)
		r.mu.Lock()
		pk := &r.stats.Peak
		pk.PSS, pk.RSS, pk.Processes = max(pk.PSS, m.PSS), max(pk.RSS, m.RSS), max(pk.Processes, m.Processes)
		var pages []*pageRun
		if m.PSS > r.opts.MemoryCap {
			for p := range r.active {
				if p.tab.gen == b.gen {
					pages = append(pages, p)
				}
			}
		}
		r.mu.Unlock()
		if len(pages) > 0 {
			r.overCap(pages, m)
		}
	}
}

// overCap closes the tab whose page holds most (its JavaScript heap and its DOM, as the
// tab tells them; a tab too busy to tell counts as holding all).
func (r *Renderer) overCap(pages []*pageRun, m Memory) {
	var worst *pageRun
	most := -1.0
	for _, p := range pages {
		if s := pageWeight(p); s > most {
			worst, most = p, s
		}
	}
	if worst == nil {
		return
	}
	r.tabsClosed.Add(1)
	worst.fail(&Error{Cause: CauseMemory, Detail: fmt.Sprintf("the browser's processes held %d MB together, over the cap of %d MB: the tab holding most was closed",
		m.PSS>>20, r.opts.MemoryCap>>20)})
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
