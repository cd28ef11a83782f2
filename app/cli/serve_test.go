package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/fstest"
	"time"
)

var testFrontend = fstest.MapFS{
	"frontend/dist/index.html": {Data: []byte(`<!doctype html><html><head><title>Mundaneum</title></head><body></body></html>`)},
}

func TestServeAddressChecks(t *testing.T) {
	Frontend = testFrontend
	defer func() { Frontend = nil }()
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	for _, c := range []struct {
		addr, want string
	}{
		{"0.0.0.0:0", "--public"},
		{":0", "--public"},
		{"192.168.1.10:0", "--public"},
		{"example.com:80", "IP address or localhost"},
		{"127.0.0.1", "bad listen address"},
	} {
		code, _, errOut := run(t, "serve", "--db", db, "--addr", c.addr)
		if code != ExitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("serve --addr %s: exit %d, %q (want usage error mentioning %q)", c.addr, code, errOut, c.want)
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("a refused serve created the workspace")
	}
}

func TestServeWithoutFrontend(t *testing.T) {
	Frontend = nil
	code, _, errOut := run(t, "serve", "--db", filepath.Join(t.TempDir(), "w.mundaneum"))
	if code != ExitError || !strings.Contains(errOut, "no frontend") {
		t.Errorf("exit %d, %q", code, errOut)
	}
}

// syncBuffer is a bytes.Buffer safe to read while Main writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestServeAndStop(t *testing.T) {
	Frontend = testFrontend
	defer func() { Frontend = nil }()
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	var out, errOut syncBuffer
	exit := make(chan int, 1)
	go func() {
		exit <- Main([]string{"serve", "--db", db, "--json"}, &out, &errOut, func(string) error { return fmt.Errorf("no desktop") })
	}()
	var info serveInfo
	deadline := time.Now().Add(20 * time.Second)
	for json.Unmarshal([]byte(out.String()), &info) != nil {
		select {
		case code := <-exit:
			t.Fatalf("serve exited %d: %s", code, errOut.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve printed no URL: %q %q", out.String(), errOut.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !regexp.MustCompile(`^http://127\.0\.0\.1:\d+/$`).MatchString(info.URL) || info.Workspace != db || info.Public {
		t.Fatalf("serve --json = %+v", info)
	}

	res, err := http.Get(info.URL)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	m := regexp.MustCompile(`<meta name="mundaneum-token" content="([0-9a-f]{64})"`).FindSubmatch(page)
	if res.StatusCode != 200 || m == nil {
		t.Fatalf("GET / = %d %s", res.StatusCode, page)
	}
	req, _ := http.NewRequest("POST", info.URL+"api/App.Status", strings.NewReader("[]"))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Mundaneum-Token", string(m[1]))
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), `"path":`) {
		t.Fatalf("App.Status = %d %s", res.StatusCode, body)
	}

	// Ctrl-C stops the server cleanly.
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-exit:
		if code != ExitOK {
			t.Fatalf("serve exited %d after Ctrl-C: %s", code, errOut.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop on Ctrl-C")
	}
	if _, err := http.Get(info.URL); err == nil {
		t.Error("still serving after Ctrl-C")
	}
}
