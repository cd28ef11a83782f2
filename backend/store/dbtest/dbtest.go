// Package dbtest is for tests that read a workspace's SQL to check what a run left: its
// Scan fails the test on any error of the query, so that a check of a count cannot pass
// because the query itself is broken (a column that does not exist, a row that is not
// there). Only tests import it.
package dbtest

import (
	"database/sql"
	"testing"
)

// Scan scans row into dest, and fails the test at the caller's line when the query gives
// an error or no row.
func Scan(t testing.TB, row *sql.Row, dest ...any) {
	t.Helper()
	if err := row.Scan(dest...); err != nil {
		t.Fatalf("query: %v", err)
	}
}
