package web

// The event stream: what outlives a read timeout and what a shutdown ends.

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

// openStream opens the event stream and reads up to its first blank line.
func openStream(t *testing.T, ctx context.Context, srv *Server, base string) (*http.Response, *bufio.Scanner) {
	t.Helper()
	hr, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/events?token="+srv.Token(), nil)
	res, err := http.DefaultClient.Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 {
		t.Fatalf("events = %d", res.StatusCode)
	}
	lines := bufio.NewScanner(res.Body)
	for lines.Scan() && lines.Text() != "" {
	}
	return res, lines
}

func TestStreamOutlivesReadTimeout(t *testing.T) {
	old := readTimeout
	readTimeout = 100 * time.Millisecond
	defer func() { readTimeout = old }()
	srv, base := start(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, lines := openStream(t, ctx, srv, base)
	defer res.Body.Close()
	time.Sleep(400 * time.Millisecond)
	srv.Emit("late", 1)
	for lines.Scan() {
		if lines.Text() == `data: {"name":"late","data":1}` {
			return
		}
	}
	t.Fatalf("the stream ended before the event: %v", lines.Err())
}

func TestShutdownEndsStreams(t *testing.T) {
	srv, err := New(Options{Assets: testAssets(), Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	ln, _, err := Listen("127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	res, lines := openStream(t, context.Background(), srv, strings.TrimSuffix(URL(ln), "/"))
	defer res.Body.Close()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return with a stream open")
	}
	for lines.Scan() {
	}
}
