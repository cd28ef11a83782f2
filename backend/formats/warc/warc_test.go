package warc

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

type readRec struct {
	typ, uri string
	body     string
	err      error // from reading the body
}

// readAll reads every record, returning them and the *FormatErrors met on the way.
func readAll(t testing.TB, data []byte) ([]readRec, []*FormatError) {
	r, err := NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("NewReader: %v", err)
	}
	var recs []readRec
	var bad []*FormatError
	for i := 0; ; i++ {
		if i > len(data)+10 {
			t.Fatalf("Next does not end")
		}
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			return recs, bad
		}
		var fe *FormatError
		if errors.As(err, &fe) {
			bad = append(bad, fe)
			continue
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		b, err := io.ReadAll(rec.Body)
		recs = append(recs, readRec{rec.Header.Type(), rec.Header.TargetURI(), string(b), err})
	}
}

func record(typ, uri, body string) (Header, []byte) {
	h := Header{{"WARC-Type", typ}, {"WARC-Date", FormatDate(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))}}
	if uri != "" {
		h.Set("WARC-Target-URI", uri)
	}
	return h, []byte(body)
}

func write(t testing.TB, compress bool, recs ...[2]string) []byte {
	var buf bytes.Buffer
	w := NewWriter(&buf, compress)
	for _, r := range recs {
		h, b := record(r[0], "http://example.com/"+r[0], r[1])
		if err := w.WriteRecord(h, b); err != nil {
			t.Fatal(err)
		}
	}
	if w.Offset() != int64(buf.Len()) {
		t.Fatalf("Offset %d, wrote %d", w.Offset(), buf.Len())
	}
	return buf.Bytes()
}

func TestRoundTrip(t *testing.T) {
	in := [][2]string{{"warcinfo", "software: test\r\n"}, {"response", "HTTP/1.1 200 OK\r\n\r\nhello"}, {"metadata", ""}}
	for _, compress := range []bool{false, true} {
		data := write(t, compress, in...)
		recs, bad := readAll(t, data)
		if len(bad) != 0 || len(recs) != len(in) {
			t.Fatalf("compress=%v: %d records, %v bad", compress, len(recs), bad)
		}
		for i, r := range recs {
			if r.typ != in[i][0] || r.body != in[i][1] || r.err != nil || r.uri != "http://example.com/"+in[i][0] {
				t.Errorf("record %d: %+v", i, r)
			}
		}
	}
}

func TestHeaderFields(t *testing.T) {
	h, b := record("response", "http://a/", "x")
	h.Add("WARC-Concurrent-To", "<urn:uuid:1>")
	var buf bytes.Buffer
	if err := NewWriter(&buf, false).WriteRecord(h, b); err != nil {
		t.Fatal(err)
	}
	s := buf.String()
	for _, want := range []string{"WARC/1.1\r\n", "WARC-Type: response\r\n", "Content-Length: 1\r\n",
		"WARC-Block-Digest: sha1:", "WARC-Record-ID: <urn:uuid:", "\r\n\r\nx\r\n\r\n"} {
		if !strings.Contains(s, want) {
			t.Errorf("record lacks %q:\n%s", want, s)
		}
	}
	r, _ := NewReader(strings.NewReader(s))
	rec, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if rec.Header.Date().IsZero() || rec.ContentLength != 1 || rec.Header.Get("warc-concurrent-to") != "<urn:uuid:1>" {
		t.Errorf("header read back: %+v", rec.Header)
	}
	// Line breaks in a value would forge fields.
	h2, _ := record("response", "http://a/\r\nWARC-Type: x", "")
	if err := NewWriter(io.Discard, false).WriteRecord(h2, nil); err == nil {
		t.Error("a value with a line break was written")
	}
}

func TestWARC10(t *testing.T) {
	s := "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: <http://old.example/>\r\nWARC-Date: 2008-04-30T20:48:25Z\r\n" +
		"WARC-Profile: http://netpreserve.org/warc/1.0/revisit/identical-payload-digest\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n"
	r, _ := NewReader(strings.NewReader(s))
	rec, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if rec.Header.TargetURI() != "http://old.example/" || rec.Version != "WARC/1.0" ||
		rec.Header.Profile() != "identical-payload-digest" || rec.Header.Date().Year() != 2008 {
		t.Errorf("%+v", rec)
	}
}

func TestMalformedRecordsAreSkipped(t *testing.T) {
	good := func(uri, body string) string {
		return "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: " + uri + "\r\nWARC-Date: 2026-01-01T00:00:00Z\r\n" +
			"Content-Length: " + itoa(len(body)) + "\r\n\r\n" + body + "\r\n\r\n"
	}
	cases := []struct {
		name   string
		data   string
		want   []string // bodies read whole
		nBad   int
		broken int // bodies whose read fails (truncated)
	}{
		{"junk before", "hello\r\nworld\r\n" + good("a", "1"), []string{"1"}, 1, 0},
		{"junk between", good("a", "1") + "garbage\r\n" + good("b", "2"), []string{"1", "2"}, 1, 0},
		{"no content-length", "WARC/1.1\r\nWARC-Type: response\r\n\r\nxx\r\n\r\n" + good("b", "2"), []string{"2"}, 1, 0},
		{"bad content-length", "WARC/1.1\r\nContent-Length: -4\r\n\r\n" + good("b", "2"), []string{"2"}, 1, 0},
		{"line without a name", "WARC/1.1\r\n: x\r\nContent-Length: 0\r\n\r\n" + good("b", "2"), []string{"2"}, 1, 0},
		{"header cut by the end", good("a", "1") + "WARC/1.1\r\nWARC-Type: res", []string{"1"}, 1, 0},
		{"block cut by the end", good("a", "1") + "WARC/1.1\r\nContent-Length: 100\r\n\r\nshort", []string{"1"}, 0, 1},
		{"bare newlines", strings.ReplaceAll(good("a", "1"), "\r\n", "\n"), []string{"1"}, 0, 0},
		{"content-length too short", good("a", "1")[:len(good("a", "1"))-4] + "xyz\r\n\r\n" + good("b", "2"), []string{"1", "2"}, 1, 0},
		{"empty", "", nil, 0, 0},
		{"only newlines", "\r\n\r\n\n", nil, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			recs, bad := readAll(t, []byte(c.data))
			var whole []string
			broken := 0
			for _, r := range recs {
				if r.err != nil {
					broken++
				} else {
					whole = append(whole, r.body)
				}
			}
			if strings.Join(whole, ",") != strings.Join(c.want, ",") || len(bad) != c.nBad || broken != c.broken {
				t.Errorf("read %q, %d bad %v, %d broken; want %q, %d bad, %d broken", whole, len(bad), bad, broken, c.want, c.nBad, c.broken)
			}
		})
	}
}

func TestHugeHeaderIsRefused(t *testing.T) {
	s := "WARC/1.1\r\nX: " + strings.Repeat("a", MaxHeaderBytes+10) + "\r\nContent-Length: 0\r\n\r\n\r\n\r\n" +
		"WARC/1.1\r\nWARC-Type: resource\r\nWARC-Date: 2026-01-01T00:00:00Z\r\nContent-Length: 1\r\n\r\nz\r\n\r\n"
	recs, bad := readAll(t, []byte(s))
	if len(recs) != 1 || recs[0].body != "z" || len(bad) != 1 {
		t.Errorf("records %+v, bad %v", recs, bad)
	}
}

// A corrupt or cut gzip member costs its record only; the next member is read.
func TestCorruptGzipMember(t *testing.T) {
	one := write(t, true, [2]string{"response", strings.Repeat("first record ", 200)})
	two := write(t, true, [2]string{"response", "second"})
	three := write(t, true, [2]string{"response", "third"})

	corrupt := append([]byte{}, two...)
	for i := 20; i < len(corrupt)-10; i += 7 {
		corrupt[i] ^= 0x55
	}
	data := bytes.Join([][]byte{one, corrupt, three}, nil)
	recs, bad := readAll(t, data)
	var whole []string
	for _, r := range recs {
		if r.err == nil {
			whole = append(whole, r.body[:min(len(r.body), 5)])
		}
	}
	if strings.Join(whole, ",") != "first,third" || len(bad)+len(recs)-len(whole) < 1 {
		t.Errorf("read %q with %d bad, %d records", whole, len(bad), len(recs))
	}
	for _, b := range bad {
		if b.Offset != int64(len(one)) {
			t.Errorf("bad record at %d, want %d", b.Offset, len(one))
		}
	}

	// A file cut inside its last member.
	cut := bytes.Join([][]byte{one, three[:len(three)/2]}, nil)
	recs, bad = readAll(t, cut)
	if len(recs) == 0 || recs[0].err != nil || (len(recs) == 1 && len(bad) != 1) || (len(recs) == 2 && recs[1].err == nil) {
		t.Errorf("cut file: %+v, bad %v", recs, bad)
	}
	// Junk between members.
	recs, bad = readAll(t, bytes.Join([][]byte{one, []byte("junk\x1f\x8bjunk"), three}, nil))
	if len(recs) != 2 || len(bad) != 0 {
		t.Errorf("junk between members: %d records, bad %v", len(recs), bad)
	}
}

// One gzip member holding every record (gzip of a whole file).
func TestWholeFileGzip(t *testing.T) {
	plain := write(t, false, [2]string{"response", "a"}, [2]string{"request", "b"})
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(plain)
	zw.Close()
	recs, bad := readAll(t, buf.Bytes())
	if len(recs) != 2 || len(bad) != 0 || recs[1].body != "b" {
		t.Errorf("%+v %v", recs, bad)
	}
	if d := Digest([]byte("")); d != "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ" {
		t.Errorf("digest of nothing %s", d)
	}
}

func itoa(n int) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
		if n == 0 {
			return string(b)
		}
	}
}
