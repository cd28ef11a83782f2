// Package render reads pages that scripts build: it says whether an HTML page as served
// is an empty shell (Detect), and renders one in the system's Chromium over the DevTools
// protocol, giving the DOM after its scripts settle and a screenshot (Renderer).
//
// A Renderer is one browser, started on the first page that needs it (again after it
// dies), with a fixed number of tabs kept from page to page and a fresh profile in the
// temporary folder, removed when it ends. The browser is never downloaded: FindBrowser
// finds Debian's chromium or says how to install it.
//
// A page costs at most its budget. Its document is not fetched again: the browser gets the
// caller's response (Fetch.fulfillRequest). Every other request the page makes, its
// workers' included, is paused (the Fetch domain) and put to the caller's Gate, which
// admits it or refuses it: the crawl's scope, robots.txt and per-host politeness decide.
// Dialogs, popups, sockets, beacons, service workers and downloads are off; a script's
// navigation elsewhere is answered with a 204, so the document stays, and reported. The
// page is read from an isolated world (its scripts cannot see or change the reader): a
// MutationObserver says when the DOM is quiet, and the page's own fetches and XHRs are
// told to it as they start, so that a page is settled only when neither its network nor
// its DOM has moved for Options.Quiet after it loaded. A page whose scripts never yield,
// whose tab crashes, that holds the most when the browser's processes together go over
// the memory cap (their PSS, see monitor.go), or whose browser dies, fails with the
// cause (Error), and its tab is closed.
//
// Why chromedp (v0.23) rather than go-rod (v0.116): rendering the same script-built pages
// with two reused tabs, both ran within noise of each other (2.7 and 3.2 pages/s on a
// machine at load 25; a tab per page, 0.6 and 1.4: tabs are reused here), so the choice
// fell on what else they bring: chromedp talks to the browser over a pipe (no debugging
// port any local process could drive), needs two modules besides the standard library,
// and has no code that downloads a browser; go-rod's launcher fetches one when it finds
// none, extracts a helper binary (leakless) to the temporary folder, and brings six
// modules. docs/benchmarks.md has the figures.
//
// MUNDANEUM_RENDER_TRACE=1 logs each page's steps and requests with their times.
package render
