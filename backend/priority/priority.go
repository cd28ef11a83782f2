// Package priority runs background work (the index's stage, the warming of the search files
// after open) at a lower CPU priority than the rest of the process, so that what a user
// waits for (a crawl's fetching, a search, the window) runs first when both want a core.
//
// The priority is lowered by Step nice levels from the process's own, not to the lowest
// (19), because a Go process stops as a whole at every garbage collection: the collector
// waits until every thread that runs Go code reaches a safe point, and a background thread
// runs Go code (the SQLite driver is Go). At nice 19 such a thread gets about 1/68 of the
// share of a nice 0 one; on a loaded machine it waited seconds for a core while the whole
// process waited for it. Measured with a crawl on loopback and a status call every 20 ms
// beside it, 12 busy loops on the 2 cores: nice 19 gave calls of up to 6.3 s and 295 pages
// in 40 s, nice +5 calls of up to 1.3 s and 962 pages (docs/benchmarks.md, "The index's
// priority"). At +5 the background thread still gets a third of an equal one's share.
package priority

// Step is how many nice levels below the process a background thread runs.
const Step = 5
