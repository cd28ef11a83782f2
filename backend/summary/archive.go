package summary

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"mundaneum/backend/extract"
)

// Archives are unnested as Harvest's Essence unnested them: the listing of their members
// is kept as text, and each member of a known type is summarised in turn (an archive inside
// an archive too, down to Budget.MaxDepth), its text added to the archive's. All members
// share the document's budget of decoded bytes, members and time.

// maxListed caps the member names an archive's listing keeps.
const maxListed = 10000

// archive accumulates an archive's summary from its members.
type archive struct {
	r       *Result
	out     textOut
	b       *Budget
	listed  int
	members int
	summed  int
}

func newArchive(b *Budget, in Input) *archive {
	a := &archive{r: &Result{}, b: b, out: textOut{max: b.MaxText}}
	a.r.Title = archiveName(in)
	return a
}

// archiveName is the archive's file name, its title.
func archiveName(in Input) string {
	p := in.Name
	if p == "" && in.URL != nil {
		p = in.URL.Path
	}
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		p = p[i+1:]
	}
	return clip(p, extract.MaxTitle)
}

// list records a member's name in the listing.
func (a *archive) list(name string) {
	a.members++
	if a.listed < maxListed {
		a.listed++
		a.out.add(name)
	}
}

// wants reports whether another member may be summarised: the member budget, the nesting
// depth and the time are left.
func (a *archive) wants(ctx context.Context) bool {
	switch {
	case ctx.Err() != nil:
		return false
	case a.b.depth >= a.b.MaxDepth:
		a.r.problem(ProblemTooDeep)
		return false
	case a.summed >= a.b.MaxMembers:
		a.r.problem(ProblemTooMany)
		return false
	}
	return true
}

// add summarises one member read from body (within the decoding budget) and adds its text.
func (a *archive) add(ctx context.Context, name string, body io.Reader) error {
	data, err := a.b.inflate(body)
	if err != nil {
		a.r.problem(problemOf(err))
		if problemOf(err) != ProblemIncomplete {
			return err
		}
	}
	in := Input{Body: data, Name: name}
	k, known := choose(in)
	if !known && !looksText(data) {
		return nil // an image, a binary: listed only
	}
	if !known {
		k = byName("text")
	}
	a.summed++
	a.b.depth++
	s := a.b.run(ctx, k, in)
	a.b.depth--
	a.out.add(s.Title)
	a.out.add(s.Text)
	for _, p := range s.Problems {
		if p != extract.ProblemTruncated && p != extract.ProblemNoTitle {
			a.r.problem(p)
		}
	}
	return nil
}

// done finishes the summary.
func (a *archive) done() *Result {
	a.r.Text = a.out.String()
	if a.out.full {
		a.r.problem(extract.ProblemTruncated)
	}
	a.r.addAttr(AttrMembers, strconv.Itoa(a.members))
	return a.r
}

// inflate reads r whole, within what is left of the budget of decoded bytes: a member that
// would pass it is a bomb.
func (b *Budget) inflate(r io.Reader) ([]byte, error) {
	left := b.MaxDecoded - b.decoded
	if left <= 0 {
		return nil, problemError(ProblemBomb)
	}
	data, err := io.ReadAll(io.LimitReader(r, left+1))
	b.decoded += int64(len(data))
	if int64(len(data)) > left {
		return nil, problemError(ProblemBomb)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return data, problemError(ProblemIncomplete) // cut off: what came is still read
	}
	return data, err
}

// looksText reports whether a member of no known type is text worth reading: valid UTF-8
// without control bytes in its first kilobytes.
func looksText(b []byte) bool {
	h := b[:min(len(b), 4096)]
	for len(h) > 0 && !utf8.Valid(h) && len(b) > len(h) {
		h = h[:len(h)-1] // a rune cut at the sample's end
	}
	if !utf8.Valid(h) {
		return false
	}
	for _, c := range h {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' {
			return false
		}
	}
	return len(b) > 0
}

// titled is an empty Result with a title.
func titled(title string) *Result {
	r := &Result{}
	r.Title = title
	return r
}
