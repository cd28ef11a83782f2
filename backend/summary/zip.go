package summary

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
)

// zip: the listing, and the members of known types summarised. A zip's declared sizes are
// not trusted: every member is inflated within the decoding budget.
func init() {
	Register(&Kind{Name: "zip", Type: "zip", Binary: true,
		Media: []string{"application/zip", "application/x-zip-compressed", "application/x-zip"},
		Exts:  []string{"zip"},
		Magic: func(h []byte) bool {
			return bytes.HasPrefix(h, []byte("PK\x03\x04")) || bytes.HasPrefix(h, []byte("PK\x05\x06"))
		},
		Run: zipSummary})
}

func zipSummary(ctx context.Context, in Input, b *Budget) (*Result, error) {
	a := newArchive(b, in)
	zr, err := zip.NewReader(bytes.NewReader(in.Body), int64(len(in.Body)))
	if err != nil {
		return a.done(), err
	}
	for _, f := range zr.File {
		if ctx.Err() != nil {
			break
		}
		a.list(f.Name)
		if f.FileInfo().IsDir() || !f.Mode().IsRegular() || !a.wants(ctx) {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			a.r.problem(ProblemUnreadable)
			continue
		}
		err = a.add(ctx, f.Name, rc)
		rc.Close()
		if errors.Is(err, problemError(ProblemBomb)) {
			break
		}
	}
	return a.done(), ctx.Err()
}
