// Package store owns the workspace: one SQLite file (modernc.org/sqlite) holding crawls,
// pages, links, their extracted text, the object cache and the library. It applies pragmas
// on every pooled connection, runs the numbered embedded migrations, funnels every write
// through one writer goroutine that batches transactions, and serves reads from a separate
// pool under WAL. The full-text index is derived from it by backend/index, which the store
// tells what changed through its index log (indexlog.go).
//
// # Where each domain's methods are
//
// The Store's methods are grouped by domain, one or a few files each, listed below; a
// file opens with a line on what it keeps. A package with records of its own declares the interface it
// needs in its own types (library.Store and library.Tx; check's CheckStore, TaskStore,
// RuleStore and SiteStore over check/record; exchange's TokenStore, SourceStore and
// SummaryStore over exchange/record), and the store implements it in that domain's files:
// those packages run no SQL of their own.
//
//   - The workspace: opening, pools, migrations, closing (store.go); the one writer
//     (writer.go); short writes beside the process that owns it (shared.go); who holds it
//     (holder.go); the helpers reads share (collect.go).
//   - Crawls and their runs (crawls.go), a crawl's own retention (crawlretention.go); the
//     crawl queue (frontier.go) and the URLs a crawl holds, kept in memory (queued.go).
//   - Pages as a crawl saves them (pages.go, elements.go, attrs.go, text.go, render.go);
//     links committed packed and expanded behind the crawl (linkpack.go,
//     linkpack_parse.go, queued_expand.go); a page's detail (detail.go).
//   - Versions and how many are kept (versions.go, retention.go); reading offline
//     (offline.go, requisites.go).
//   - Hosts and their robots.txt (hosts.go, robotsites.go).
//   - What feeds the full-text index (indexlog.go, indexinput.go); the workspace's counts
//     (counts.go).
//   - Archives in and out (archive.go); the exchange of summaries: tokens, sources, the
//     summary log (exchange.go).
//   - The library (library.go for its writes, library_read.go for its reads: methods Lib*).
//   - Link checking: tasks and rules (checktasks.go), runs, tests and health
//     (checkruns.go), reports (checkreports.go).
//   - Browsers paired for capture (capture.go); settings (settings.go, settingkeys.go) and
//     saved views (views.go).
package store
