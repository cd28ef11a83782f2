package index

import (
	"fmt"
	"math"
	"reflect"
	"testing"
)

func TestVarints(t *testing.T) {
	vs := []int64{0, 1, 127, 128, 16383, 16384, 1 << 35, 1<<56 - 1, 1 << 56, math.MaxInt64}
	b := encodeVarints(vs)
	if got := decodeVarints(b); !reflect.DeepEqual(got, vs) {
		t.Fatalf("round trip: %v, want %v", got, vs)
	}
	// SQLite's own encoding of 300 and of 2^56 (sqlite3PutVarint).
	if got := encodeVarints([]int64{300}); !reflect.DeepEqual(got, []byte{0x82, 0x2c}) {
		t.Fatalf("300 = % x", got)
	}
	if got := encodeVarints([]int64{1 << 56}); len(got) != 9 || got[8] != 0 {
		t.Fatalf("2^56 = % x", got)
	}
}

// TestTotalsNeverOvercount rewrites indexed rows again and again while a reader watches
// FTS5's averages record: bm25's row count must always be the rows there are. The fix for
// the rows a contentless_delete table leaves counted is taken off in the batch's own
// transaction, so no reader ever sees a rewritten row counted twice.
func TestTotalsNeverOvercount(t *testing.T) {
	f := newFixture(t)
	var pages []page
	for i := range 20 {
		pages = append(pages, page{url: fmt.Sprintf("http://a.test/%d", i), title: "page", body: "cards and catalogues"})
	}
	f.visit(pages...)
	f.wait()
	db := f.idx.SearchDB()
	stop, done := make(chan struct{}), make(chan error, 1)
	reads := 0
	go func() {
		for {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			var block []byte
			var rows int64
			if err := db.QueryRow(`SELECT (SELECT block FROM page_fts_data WHERE id = 1), (SELECT count(*) FROM page_fts_docsize)`).Scan(&block, &rows); err != nil {
				done <- err
				return
			}
			reads++
			if vs := decodeVarints(block); len(vs) == 0 || vs[0] != rows {
				done <- fmt.Errorf("read %d: the averages record counts %v rows, the table has %d", reads, vs, rows)
				return
			}
		}
	}()
	for range 30 {
		f.visit(pages...)
		f.wait()
	}
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if reads == 0 {
		t.Fatal("the reader never read")
	}
	t.Logf("%d reads", reads)
}
