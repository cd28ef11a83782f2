package index

import (
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
