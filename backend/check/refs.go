package check

import (
	"encoding/binary"
	"errors"
)

// A document's references are stored packed: for each, the check_urls id as a varint
// delta from the previous one (zigzag), then the kind byte. A large site's report has
// millions of references; packed they take two to four bytes each.

var errRefs = errors.New("corrupt packed references")

// packedRef is a reference as stored: a URL id and a kind.
type packedRef struct {
	ID   int64
	Kind uint8
}

func packRefs(refs []packedRef) []byte {
	b := make([]byte, 0, len(refs)*4)
	var prev int64
	for _, r := range refs {
		b = binary.AppendVarint(b, r.ID-prev)
		b = append(b, r.Kind)
		prev = r.ID
	}
	return b
}

func unpackRefs(b []byte) ([]packedRef, error) {
	var out []packedRef
	var prev int64
	for len(b) > 0 {
		d, n := binary.Varint(b)
		if n <= 0 || n >= len(b) {
			return nil, errRefs
		}
		prev += d
		out = append(out, packedRef{ID: prev, Kind: b[n]})
		b = b[n+1:]
	}
	return out, nil
}
