package report

import (
	"encoding/binary"
	"errors"

	"mundaneum/backend/extract"
)

// A document's references are stored packed: for each, the check_urls id as a varint
// delta from the previous one (zigzag), then the kind byte. A large site's report has
// millions of references; packed they take two to four bytes each.

var errRefs = errors.New("corrupt packed references")

// PackedRef is a reference as stored: a URL id and a kind.
type PackedRef struct {
	ID   int64
	Kind uint8
}

// PackRefs packs a document's references for the store.
func PackRefs(refs []PackedRef) []byte {
	b := make([]byte, 0, len(refs)*4)
	var prev int64
	for _, r := range refs {
		b = binary.AppendVarint(b, r.ID-prev)
		b = append(b, r.Kind)
		prev = r.ID
	}
	return b
}

// UnpackRefs reads packed references back; a corrupt value is an error.
func UnpackRefs(b []byte) ([]PackedRef, error) {
	var out []PackedRef
	var prev int64
	for len(b) > 0 {
		d, n := binary.Varint(b)
		if n <= 0 || n >= len(b) {
			return nil, errRefs
		}
		prev += d
		out = append(out, PackedRef{ID: prev, Kind: b[n]})
		b = b[n+1:]
	}
	return out, nil
}

// Reference kinds as stored (one byte each); the names are extract's.
var kindNames = []string{"", extract.KindA, extract.KindArea, extract.KindImg, extract.KindFrame, extract.KindIFrame,
	extract.KindLink, extract.KindRefresh, extract.KindScript, extract.KindEmbed, extract.KindObject, extract.KindMedia,
	extract.KindForm, extract.KindText, "pointer"}

var kindCodes = func() map[string]uint8 {
	m := make(map[string]uint8, len(kindNames))
	for i, k := range kindNames {
		m[k] = uint8(i)
	}
	return m
}()

// KindPointer is the stored kind of a library pointer.
const KindPointer = 14

// KindName is the name of a stored reference kind ("a", "img", ...).
func KindName(k uint8) string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "?"
}

// KindCode is the stored kind of a reference kind named as extract names it (0 if it has none).
func KindCode(name string) uint8 { return kindCodes[name] }
