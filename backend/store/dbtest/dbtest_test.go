package dbtest

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	"mundaneum/backend/store"
)

// recorder is a test that records whether it failed, and stops where Fatalf stops a test.
type recorder struct {
	testing.TB
	msg string
}

type stopped struct{}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.msg = fmt.Sprintf(format, args...)
	panic(stopped{})
}

func scan(db *sql.DB, query string, dest ...any) (msg string) {
	r := &recorder{}
	defer func() {
		if p := recover(); p != nil {
			if _, ok := p.(stopped); !ok {
				panic(p)
			}
			msg = r.msg
		}
	}()
	Scan(r, db.QueryRow(query), dest...)
	return ""
}

// TestScanFailsOnABrokenQuery: a query naming a column that does not exist, or finding no
// row, fails the test; ignoring Scan's error (as about 25 checks once did) let
// `SELECT count(*) FROM pages WHERE status = 304` pass with a misspelt column.
func TestScanFailsOnABrokenQuery(t *testing.T) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "w.mundaneum"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	db := st.ReadDB()
	var n int
	if msg := scan(db, `SELECT count(*) FROM pages WHERE statuss = 304`, &n); msg == "" {
		t.Error("a column that does not exist passed")
	}
	if msg := scan(db, `SELECT count(*) - count(DISTINCT nonesuch) FROM pages`, &n); msg == "" {
		t.Error("a distinct count of a column that does not exist passed")
	}
	var url string
	if msg := scan(db, `SELECT url FROM pages WHERE id = -1`, &url); msg == "" {
		t.Error("no row passed")
	}
	if msg := scan(db, `SELECT count(*) FROM pages WHERE status = 304`, &n); msg != "" || n != 0 {
		t.Errorf("a good query: %q %d", msg, n)
	}
}
