package store

import "testing"

// TestMigrationNumbersAreUnique guards merges of branches developed in parallel: two
// migrations with one number would leave one of them unapplied, and a migration numbered at
// or below one a released schema already has would never run on such a workspace, so each
// merged migration takes the next number above the newest.
func TestMigrationNumbersAreUnique(t *testing.T) {
	seen := map[int]string{}
	for _, m := range migrations() {
		if other, ok := seen[m.version]; ok {
			t.Errorf("migrations %s and %s share the number %d", other, m.name, m.version)
		}
		seen[m.version] = m.name
	}
	if len(seen) == 0 {
		t.Fatal("no migrations embedded")
	}
}
