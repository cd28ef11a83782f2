// Package store owns the workspace: one SQLite file (modernc.org/sqlite) holding crawls,
// pages, links, their extracted text, the object cache and the library. It applies pragmas
// on every pooled connection, runs the numbered embedded migrations, funnels every write
// through one writer goroutine that batches transactions, and serves reads from a separate
// pool under WAL. The full-text index is derived from it by backend/index, which the store
// tells what changed through its index log (indexlog.go).
package store
