package mailer

import (
	"context"
	"io"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strings"
	"testing"
	"time"

	"mundaneum/backend/mailer/mailertest"
)

func TestSendThroughALocalRelay(t *testing.T) {
	s := mailertest.Start(t, "user", "secret")
	srv := Server{Host: s.Host, Port: s.Port, TLS: None, Username: "user", Password: "secret"}
	body := "3 dead links in “docs”:\n\n.leading dot\nhttp://a.example/missing\n" + strings.Repeat("x", 120)
	err := Send(context.Background(), srv, Message{From: "Mundaneum <mund@example.org>", To: []string{"owner@example.org"},
		Subject: "docs: 3 dead links\r\nBcc: victim@example.org", Body: body})
	if err != nil {
		t.Fatal(err)
	}
	msgs, log := s.Messages(), s.Log()
	if len(msgs) != 1 {
		t.Fatalf("messages: %d (log %q)", len(msgs), log)
	}
	joined := strings.Join(log, "\n")
	if !strings.Contains(joined, "MAIL FROM:<mund@example.org>") || !strings.Contains(joined, "RCPT TO:<owner@example.org>") {
		t.Errorf("envelope: %s", joined)
	}
	m, err := mail.ReadMessage(strings.NewReader(msgs[0]))
	if err != nil {
		t.Fatal(err)
	}
	if m.Header.Get("Bcc") != "" || !strings.HasPrefix(m.Header.Get("Subject"), "docs: 3 dead links") {
		t.Errorf("headers: %v", m.Header)
	}
	got, err := io.ReadAll(quotedprintable.NewReader(m.Body))
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSuffix(strings.ReplaceAll(string(got), "\r\n", "\n"), "\n") != body {
		t.Errorf("body = %q", got)
	}
}

func TestSendRefusals(t *testing.T) {
	s := mailertest.Start(t, "", "")
	srv := Server{Host: s.Host, Port: s.Port, TLS: StartTLS}
	err := Send(context.Background(), srv, Message{From: "a@example.org", To: []string{"b@example.org"}, Subject: "x", Body: "y"})
	if err == nil || !strings.Contains(err.Error(), "STARTTLS") {
		t.Errorf("a server without STARTTLS: %v", err)
	}
	if err := Send(context.Background(), srv, Message{From: "not an address", To: []string{"b@example.org"}}); err == nil {
		t.Error("a bad From was accepted")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	l, _ := net.Listen("tcp", "127.0.0.1:0") // accepts, never speaks
	defer l.Close()
	host, port, _ := net.SplitHostPort(l.Addr().String())
	p := 0
	for _, c := range port {
		p = p*10 + int(c-'0')
	}
	start := time.Now()
	if err := Send(ctx, Server{Host: host, Port: p, TLS: None}, Message{From: "a@example.org", To: []string{"b@example.org"}}); err == nil || time.Since(start) > 2*time.Second {
		t.Errorf("a silent server: %v after %s", err, time.Since(start))
	}
}
