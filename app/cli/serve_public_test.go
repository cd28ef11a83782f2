package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Issue 29, item 5: serve --public has an owner who signs in; without signing in nothing
// but the app's page (its sign-in) is served. As curl would do it, from the command line's
// own serve.
func TestServePublicNeedsTheOwner(t *testing.T) {
	Frontend = testFrontend
	defer func() { Frontend = nil }()
	dir := t.TempDir()
	db := filepath.Join(dir, "w.mundaneum")

	// With no owner password and no terminal to ask on, it refuses to start.
	code, _, errOut := run(t, "serve", "--db", db, "--public", "--addr", "127.0.0.1:0")
	if code != ExitUsage || !strings.Contains(errOut, "--owner-password-file") {
		t.Fatalf("serve --public without an owner: exit %d: %s", code, errOut)
	}
	pwFile := filepath.Join(dir, "owner")
	os.WriteFile(pwFile, []byte("short\n"), 0o600)
	if code, _, errOut := run(t, "serve", "--db", db, "--public", "--addr", "127.0.0.1:0", "--owner-password-file", pwFile); code != ExitUsage {
		t.Fatalf("a short owner password: exit %d: %s", code, errOut)
	}
	os.WriteFile(pwFile, []byte("the-owners-pass\n"), 0o600)

	var out, errBuf syncBuffer
	exit := make(chan int, 1)
	go func() {
		exit <- Main([]string{"serve", "--db", db, "--json", "--public", "--addr", "127.0.0.1:0", "--owner-password-file", pwFile},
			&out, &errBuf, func(string) error { return fmt.Errorf("no desktop") })
	}()
	var info serveInfo
	deadline := time.Now().Add(20 * time.Second)
	for json.Unmarshal([]byte(out.String()), &info) != nil {
		select {
		case code := <-exit:
			t.Fatalf("serve exited %d: %s", code, errBuf.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve printed no URL: %q %q", out.String(), errBuf.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !info.Public || info.Guests != "none" {
		t.Errorf("serve --json = %+v", info)
	}
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	res, err := client.Get(info.URL)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	m := regexp.MustCompile(`<meta name="mundaneum-token" content="([0-9a-f]{64})"`).FindSubmatch(page)
	if res.StatusCode != 200 || m == nil {
		t.Fatalf("GET / = %d %s", res.StatusCode, page)
	}
	post := func(path, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest("POST", info.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Mundaneum-Token", string(m[1]))
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res.StatusCode, string(b)
	}
	for _, call := range []struct{ path, body string }{
		{"api/App.Status", "[]"},
		{"api/App.StartCrawl", `[{"seeds":["http://127.0.0.1:1/"],"scope":"site"}]`},
		{"api/App.SaveSettings", `[{}]`},
		{"api/App.LibraryCreate", `[1, {"title": "Mine"}]`},
	} {
		if code, body := post(call.path, call.body); code != 401 {
			t.Errorf("%s before signing in = %d %s", call.path, code, body)
		}
	}
	if code, body := post("_mundaneum/auth/sign-in", `{"password": "guess"}`); code != 403 {
		t.Errorf("a wrong owner password = %d %s", code, body)
	}
	if code, body := post("_mundaneum/auth/sign-in", `{"password": "the-owners-pass"}`); code != 200 {
		t.Fatalf("sign-in = %d %s", code, body)
	}
	if code, body := post("api/App.Status", "[]"); code != 200 || !strings.Contains(body, `"path":`) {
		t.Errorf("App.Status as the owner = %d %s", code, body)
	}

	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-exit:
		if code != ExitOK {
			t.Fatalf("serve exited %d after Ctrl-C: %s", code, errBuf.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop on Ctrl-C")
	}
}
