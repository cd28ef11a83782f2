package index

import "strings"

// Switches for measurement builds only, set at link time and never by a user:
//
//	go build -ldflags "-X mundaneum/backend/index.benchHold=1"      # scripts/crawl-floor.sh
//	go build -ldflags "-X mundaneum/backend/index.benchNoPrefix=1"  # scripts/index-floor.sh
//
// They measure how far the speed bars of issue 30 are from what this machine allows: the
// crawl with no index beside it, and the index without its prefix index. A shipped binary
// leaves both empty and behaves as if this file did not exist.
var (
	// benchHold: the stage does no work until someone waits for it (the end of a crawl, a
	// search catching up, a rebuild): the crawl runs alone, then the index catches up.
	benchHold string
	// benchNoPrefix: page_fts is created without its prefix index ("prefix = '2'"), in an
	// index format of its own (schemaVersion + 1000), so that no other build takes it for
	// its own.
	benchNoPrefix string
)

// held reports whether a measurement build holds the stage back while nobody waits.
func (s *stage) held() bool { return benchHold != "" && !s.waited() }

// formatVersion is the index format this build writes (PRAGMA user_version).
func formatVersion() int {
	if benchNoPrefix != "" {
		return schemaVersion + 1000
	}
	return schemaVersion
}

// schema is the index's schema this build creates.
func schema() string {
	if benchNoPrefix != "" {
		return strings.Replace(schemaSQL, "    prefix = '2',\n", "", 1)
	}
	return schemaSQL
}
