package summary

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"io"
)

// tar: the listing, and the members of known types summarised.
func init() {
	Register(&Kind{Name: "tar", Type: "tar", Binary: true,
		Media: []string{"application/x-tar", "application/tar"},
		Exts:  []string{"tar"},
		Magic: func(h []byte) bool { return len(h) >= 262 && bytes.Equal(h[257:262], []byte("ustar")) },
		Run:   tarSummary})
}

func tarSummary(ctx context.Context, in Input, b *Budget) (*Result, error) {
	a := newArchive(b, in)
	tr := tar.NewReader(bytes.NewReader(in.Body))
	for ctx.Err() == nil {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				err = problemError(ProblemIncomplete) // cut off inside a member's header
			}
			if a.members == 0 {
				return a.done(), err
			}
			a.r.problem(problemOf(err))
			break
		}
		a.list(h.Name)
		if h.Typeflag != tar.TypeReg || !a.wants(ctx) {
			continue
		}
		if err := a.add(ctx, h.Name, tr); errors.Is(err, problemError(ProblemBomb)) {
			break
		}
	}
	return a.done(), ctx.Err()
}
