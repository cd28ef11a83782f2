package summary

import (
	"bytes"
	"context"
	"strings"

	"github.com/klauspost/compress/gzip"
)

// gzip: a compressed document is summarised as its content is (a .tar.gz as a tar, a
// .txt.gz as text), within the decoding budget; the attribute "inner" names the content's
// summariser.
func init() {
	Register(&Kind{Name: "gzip", Type: "gz", Binary: true,
		Media: []string{"application/gzip", "application/x-gzip", "application/x-gunzip", "application/gzipped",
			"application/x-gtar-compressed", // a .tgz in Debian's /etc/mime.types
			"application/x-compressed-tar"}, // and in freedesktop's shared-mime-info
		Exts:  []string{"gz", "tgz"},
		Magic: func(h []byte) bool { return len(h) >= 3 && h[0] == 0x1f && h[1] == 0x8b && h[2] == 8 },
		Run:   gzipSummary})
}

func gzipSummary(ctx context.Context, in Input, b *Budget) (*Result, error) {
	zr, err := gzip.NewReader(bytes.NewReader(in.Body))
	if err != nil {
		return titled(archiveName(in)), err
	}
	zr.Multistream(true)
	data, err := b.inflate(zr)
	if err != nil && data == nil {
		return titled(archiveName(in)), err
	}
	name := innerName(in, zr.Name)
	inner := Input{Body: data, Name: name}
	if in.URL != nil && zr.Name == "" {
		u := *in.URL
		u.Path = name
		inner = Input{Body: data, URL: &u}
	}
	k, known := choose(inner)
	if !known && !looksText(data) {
		r := titled(archiveName(in))
		r.addAttr(AttrInner, "none")
		return r, err
	}
	if !known {
		k = byName("text")
	}
	if b.depth >= b.MaxDepth {
		r := titled(archiveName(in))
		return r, problemError(ProblemTooDeep)
	}
	b.depth++
	r := b.run(ctx, k, inner)
	b.depth--
	if r.Title == "" {
		r.Title = archiveName(in)
	}
	r.Attrs = append([]Attr{{AttrInner, k.Name}}, r.Attrs...)
	return r, err
}

// innerName is the compressed file's name: the gzip header's, else the outer name without
// .gz (a .tgz holds a .tar).
func innerName(in Input, header string) string {
	if header != "" {
		return header
	}
	p := in.Name
	if p == "" && in.URL != nil {
		p = in.URL.Path
	}
	lp := strings.ToLower(p)
	switch {
	case strings.HasSuffix(lp, ".tgz"):
		return p[:len(p)-4] + ".tar"
	case strings.HasSuffix(lp, ".gz"):
		return p[:len(p)-3]
	}
	return p
}
