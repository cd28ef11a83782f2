package web

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"mundaneum/app"
	"mundaneum/backend/formats/warc"
)

// An archive goes in as an upload (imported as a job) and out as a streamed download,
// through the door's token check, over a real listener.
func TestArchiveUploadAndDownload(t *testing.T) {
	a, _ := openApp(t)
	srv, err := New(Options{Assets: testAssets(), Bind: []any{a}, Files: app.ArchiveHandler(a), Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	base := serveOn(t, srv)

	var file bytes.Buffer
	w := warc.NewWriter(&file, true)
	const n = 40
	for i := range n {
		body := fmt.Sprintf("<title>Uploaded %d</title><p>page number %d</p>", i, i)
		block := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n%s", body)
		if err := w.WriteRecord(warc.Header{{Name: "WARC-Type", Value: "response"}, {Name: "WARC-Record-ID", Value: warc.NewRecordID()},
			{Name: "WARC-Date", Value: "2025-01-02T03:04:05Z"}, {Name: "WARC-Target-URI", Value: fmt.Sprintf("http://up.example/%d", i)},
			{Name: "Content-Type", Value: "application/http; msgtype=response"}}, []byte(block)); err != nil {
			t.Fatal(err)
		}
	}
	send := func(method, path string, body io.Reader, token string) (*http.Response, []byte) {
		req, _ := http.NewRequest(method, base+path, body)
		if token != "" {
			req.Header.Set(tokenHeader, token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, b
	}
	if res, _ := send("POST", "/files/import?name=x.warc.gz", bytes.NewReader(file.Bytes()), ""); res.StatusCode != http.StatusForbidden {
		t.Errorf("an upload without the token: %d", res.StatusCode)
	}
	if res, _ := send("POST", "/files/import?name=x.warc.gz&token="+srv.Token(), bytes.NewReader(file.Bytes()), ""); res.StatusCode != http.StatusForbidden {
		t.Errorf("an upload with the token in the query (a form could send it): %d", res.StatusCode)
	}
	res, body := send("POST", "/files/import?name="+url.QueryEscape("../evil name.warc.gz"), bytes.NewReader(file.Bytes()), srv.Token())
	var job app.ArchiveJob
	if res.StatusCode != http.StatusAccepted || json.Unmarshal(body, &job) != nil || job.Op != "import" || job.Name != "evil name.warc.gz" || job.Path != "" {
		t.Fatalf("upload = %d %s", res.StatusCode, body)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		jobs := a.ArchiveJobs()
		if jobs[0].State != app.JobRunning {
			if jobs[0].State != app.JobDone || jobs[0].Pages != n {
				t.Fatalf("import ended %+v", jobs[0])
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the import did not end")
		}
	}
	if res, body := send("POST", "/files/import?name=notes.txt", strings.NewReader("just some notes"), srv.Token()); res.StatusCode != http.StatusBadRequest ||
		!strings.Contains(string(body), "not a file in") {
		t.Errorf("upload of a file in no format = %d %s", res.StatusCode, body)
	}

	if res, _ := send("GET", "/files/export?format=warc", nil, ""); res.StatusCode != http.StatusForbidden {
		t.Errorf("a download without the token: %d", res.StatusCode)
	}
	if res, _ := send("GET", "/files/export?format=arc&token="+srv.Token(), nil, ""); res.StatusCode != http.StatusBadRequest {
		t.Errorf("a download in no format: %d", res.StatusCode)
	}
	res, body = send("GET", "/files/export?format=warc&token="+srv.Token(), nil, "")
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Disposition"), `attachment; filename="mundaneum-workspace-`) {
		t.Fatalf("download = %d %v", res.StatusCode, res.Header)
	}
	rd, err := warc.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	responses := 0
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the download is not a whole WARC: %v", err)
		}
		if rec.Header.Type() == warc.TypeResponse {
			responses++
		}
	}
	if responses != n {
		t.Errorf("the download holds %d responses, want %d", responses, n)
	}
	// The pages to read offline, as a zip of their folder.
	res, body = send("GET", "/files/export?format=html-site&token="+srv.Token(), nil, "")
	if res.StatusCode != http.StatusOK || !strings.HasSuffix(res.Header.Get("Content-Disposition"), `.zip"`) {
		t.Fatalf("html-site download = %d %v", res.StatusCode, res.Header)
	}
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatalf("the html-site download is not a zip: %v", err)
	}
	pages := 0
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, ".html") && f.Name != "index.html" {
			pages++
		}
	}
	if pages != n {
		t.Errorf("the html-site zip holds %d pages, want %d", pages, n)
	}
}
