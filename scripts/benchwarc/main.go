// Command benchwarc writes a synthetic WARC file of about -mb megabytes, shaped like a
// crawler's output, for timing `mundaneum import` (issue 15's figure: a 1 GB WARC's import
// in pages/s and peak RSS). `make bench-warc` generates it once (cached under -dir) and
// times the real command under /usr/bin/time.
//
// The synthetic crawl: sites of pages in a tree, each page an HTML document of 300 to 3,000
// words drawn from the word list with Zipf frequencies, 10 to 40 links to pages of its site
// and others, with for each page a request, a response and a metadata record (as Heritrix
// and Mundaneum write them); a third of the bodies gzip-encoded as they came off the wire,
// one page in ten a duplicate written as an identical-payload revisit, one in twenty a 404,
// one in fifty an image.
//
//	go run ./scripts/benchwarc -mb 1024            # prints the file's path
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"mundaneum/backend/formats/warc"
)

func main() {
	mb := flag.Int("mb", 1024, "size of the file to write, in MiB")
	dir := flag.String("dir", filepath.Join(os.TempDir(), "mundaneum-benchwarc"), "where generated files are cached")
	seed := flag.Uint64("seed", 1, "seed of the synthetic crawl")
	regen := flag.Bool("regen", false, "generate the file again")
	flag.Parse()
	path := filepath.Join(*dir, fmt.Sprintf("synthetic-%dmb-s%d.warc.gz", *mb, *seed))
	if _, err := os.Stat(path); err == nil && !*regen {
		fmt.Println(path)
		return
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		fail(err)
	}
	start := time.Now()
	pages, err := generate(path, int64(*mb)<<20, *seed)
	if err != nil {
		fail(err)
	}
	fmt.Fprintf(os.Stderr, "benchwarc: wrote %d page records to %s in %s\n", pages, path, time.Since(start).Round(time.Second))
	fmt.Println(path)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "benchwarc:", err)
	os.Exit(1)
}

func words() []string {
	var out []string
	if b, err := os.ReadFile("/usr/share/dict/words"); err == nil {
		for _, w := range strings.Fields(string(b)) {
			if !strings.ContainsAny(w, "'&<>\"") && len(w) > 1 {
				out = append(out, strings.ToLower(w))
			}
		}
	}
	if len(out) < 1000 { // no word list: syllables make words
		syl := []string{"ka", "to", "ri", "me", "su", "lo", "an", "ve", "di", "po", "ne", "ul", "sa", "ti", "ro"}
		for i := 0; len(out) < 50000; i++ {
			w := ""
			for n := i; ; n /= len(syl) {
				w += syl[n%len(syl)]
				if n < len(syl) {
					break
				}
			}
			out = append(out, w)
		}
	}
	return out
}

func generate(path string, size int64, seed uint64) (int, error) {
	tmp := path + ".part"
	f, err := os.Create(tmp)
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp)
	bw := bufio.NewWriterSize(f, 1<<20)
	w := warc.NewWriter(bw, true)
	r := rand.New(rand.NewPCG(seed, 2))
	vocab := words()
	zipf := rand.NewZipf(r, 1.1, 2, uint64(len(vocab)-1))
	word := func() string { return vocab[zipf.Uint64()] }
	at := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	if err := w.WriteRecord(warc.Header{{Name: "WARC-Type", Value: "warcinfo"}, {Name: "WARC-Date", Value: warc.FormatDate(at)},
		{Name: "Content-Type", Value: warc.ContentFields}},
		warc.Fields([]warc.Field{{Name: "software", Value: "benchwarc (synthetic crawl)"}})); err != nil {
		return 0, err
	}
	const sites = 200
	type seen struct{ uri, digest, date string }
	var earlier []seen
	pages := 0
	var body, gz bytes.Buffer
	for n := 0; w.Offset() < size; n++ {
		site := n % sites
		page := n / sites
		uri := fmt.Sprintf("http://site%d.example/p/%d.html", site, page)
		link := func() string {
			if r.IntN(4) == 0 {
				return fmt.Sprintf("http://site%d.example/p/%d.html", r.IntN(sites), r.IntN(page+50))
			}
			return fmt.Sprintf("/p/%d.html", r.IntN(page+50))
		}
		at = at.Add(time.Duration(50+r.IntN(200)) * time.Millisecond)
		date := warc.FormatDate(at)
		respID := warc.NewRecordID()
		req := fmt.Sprintf("GET /p/%d.html HTTP/1.1\r\nHost: site%d.example\r\nUser-Agent: benchwarc\r\n\r\n", page, site)
		if err := w.WriteRecord(warc.Header{{Name: "WARC-Type", Value: "request"}, {Name: "WARC-Date", Value: date},
			{Name: "WARC-Target-URI", Value: uri}, {Name: "WARC-Concurrent-To", Value: respID},
			{Name: "Content-Type", Value: warc.ContentHTTPRequest}}, []byte(req)); err != nil {
			return pages, err
		}
		kind := r.IntN(100)
		switch {
		case kind < 10 && len(earlier) > 0:
			// A duplicate of an earlier page: an identical-payload revisit.
			of := earlier[r.IntN(len(earlier))]
			if err := w.WriteRecord(warc.Header{{Name: "WARC-Type", Value: "revisit"}, {Name: "WARC-Record-ID", Value: respID},
				{Name: "WARC-Date", Value: date}, {Name: "WARC-Target-URI", Value: uri},
				{Name: "WARC-Profile", Value: warc.ProfileIdenticalPayload}, {Name: "WARC-Payload-Digest", Value: of.digest},
				{Name: "WARC-Refers-To-Target-URI", Value: of.uri}, {Name: "WARC-Refers-To-Date", Value: of.date},
				{Name: "Content-Type", Value: warc.ContentHTTPResponse}},
				[]byte("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n")); err != nil {
				return pages, err
			}
			pages++
			continue
		case kind < 15:
			msg := "<title>Not found</title><p>No such page.</p>"
			if err := w.WriteRecord(warc.Header{{Name: "WARC-Type", Value: "response"}, {Name: "WARC-Record-ID", Value: respID},
				{Name: "WARC-Date", Value: date}, {Name: "WARC-Target-URI", Value: uri},
				{Name: "Content-Type", Value: warc.ContentHTTPResponse}, {Name: "WARC-Payload-Digest", Value: warc.Digest([]byte(msg))}},
				[]byte(fmt.Sprintf("HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(msg), msg))); err != nil {
				return pages, err
			}
			continue
		case kind < 17:
			img := make([]byte, 2000+r.IntN(30000))
			for i := range img {
				img[i] = byte(r.UintN(256))
			}
			if err := w.WriteRecord(warc.Header{{Name: "WARC-Type", Value: "response"}, {Name: "WARC-Record-ID", Value: respID},
				{Name: "WARC-Date", Value: date}, {Name: "WARC-Target-URI", Value: strings.TrimSuffix(uri, ".html") + ".jpg"},
				{Name: "Content-Type", Value: warc.ContentHTTPResponse}, {Name: "WARC-Payload-Digest", Value: warc.Digest(img)}},
				append([]byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n", len(img))), img...)); err != nil {
				return pages, err
			}
			continue
		}
		body.Reset()
		title := word() + " " + word() + " " + word()
		fmt.Fprintf(&body, "<!doctype html><html><head><meta charset=utf-8><title>%s</title></head><body><h1>%s</h1>\n", title, title)
		nlinks := 10 + r.IntN(31)
		nwords := 300 + r.IntN(2701)
		for i := 0; i < nwords; i++ {
			if i%12 == 0 {
				body.WriteString("\n<p>")
			}
			if nlinks > 0 && r.IntN(nwords/nlinks+1) == 0 {
				fmt.Fprintf(&body, `<a href="%s">%s %s</a> `, link(), word(), word())
				nlinks--
				continue
			}
			body.WriteString(word())
			body.WriteByte(' ')
		}
		body.WriteString("</body></html>\n")
		payload := body.Bytes()
		digest := warc.Digest(payload)
		head := "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
		wire := payload
		if r.IntN(3) == 0 {
			gz.Reset()
			zw := gzip.NewWriter(&gz)
			zw.Write(payload)
			zw.Close()
			wire = gz.Bytes()
			head += "Content-Encoding: gzip\r\n"
		}
		head += fmt.Sprintf("Content-Length: %d\r\n\r\n", len(wire))
		if err := w.WriteRecord(warc.Header{{Name: "WARC-Type", Value: "response"}, {Name: "WARC-Record-ID", Value: respID},
			{Name: "WARC-Date", Value: date}, {Name: "WARC-Target-URI", Value: uri},
			{Name: "Content-Type", Value: warc.ContentHTTPResponse}, {Name: "WARC-Payload-Digest", Value: digest}},
			append([]byte(head), wire...)); err != nil {
			return pages, err
		}
		if len(earlier) < 5000 {
			earlier = append(earlier, seen{uri, digest, date})
		} else {
			earlier[r.IntN(len(earlier))] = seen{uri, digest, date}
		}
		if err := w.WriteRecord(warc.Header{{Name: "WARC-Type", Value: "metadata"}, {Name: "WARC-Date", Value: date},
			{Name: "WARC-Target-URI", Value: uri}, {Name: "WARC-Concurrent-To", Value: respID},
			{Name: "Content-Type", Value: warc.ContentFields}},
			warc.Fields([]warc.Field{{Name: "hopsFromSeed", Value: "L"}})); err != nil {
			return pages, err
		}
		pages++
	}
	if err := bw.Flush(); err != nil {
		return pages, err
	}
	if err := f.Close(); err != nil {
		return pages, err
	}
	return pages, os.Rename(tmp, path)
}
