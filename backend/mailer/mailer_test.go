package mailer

import (
	"bufio"
	"context"
	"encoding/base64"
	"io"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"
)

// smtpServer is a tiny SMTP server on loopback that records what it is sent.
type smtpServer struct {
	addr string
	mu   sync.Mutex
	log  []string // commands
	data []string // messages
}

func startSMTP(t *testing.T, auth bool) *smtpServer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &smtpServer{addr: l.Addr().String()}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go s.serve(c, auth)
		}
	}()
	return s
}

func (s *smtpServer) serve(c net.Conn, auth bool) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(c)
	say := func(line string) { io.WriteString(c, line+"\r\n") }
	say("220 test ESMTP")
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		s.mu.Lock()
		s.log = append(s.log, line)
		s.mu.Unlock()
		cmd := strings.ToUpper(strings.Fields(line + " x")[0])
		switch cmd {
		case "EHLO", "HELO":
			if auth {
				say("250-test\r\n250 AUTH PLAIN")
			} else {
				say("250 test")
			}
		case "AUTH":
			f := strings.Fields(line)
			cred, _ := base64.StdEncoding.DecodeString(f[len(f)-1])
			if string(cred) == "\x00user\x00secret" {
				say("235 ok")
			} else {
				say("535 no")
			}
		case "MAIL", "RCPT", "RSET", "NOOP":
			say("250 ok")
		case "DATA":
			say("354 go")
			var b strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
				b.WriteString(l)
			}
			s.mu.Lock()
			s.data = append(s.data, b.String())
			s.mu.Unlock()
			say("250 queued")
		case "QUIT":
			say("221 bye")
			return
		default:
			say("502 what")
		}
	}
}

func (s *smtpServer) server() Server {
	host, port, _ := net.SplitHostPort(s.addr)
	p := 0
	for _, c := range port {
		p = p*10 + int(c-'0')
	}
	return Server{Host: host, Port: p, TLS: None}
}

func TestSendThroughALocalRelay(t *testing.T) {
	s := startSMTP(t, true)
	srv := s.server()
	srv.Username, srv.Password = "user", "secret"
	body := "3 dead links in “docs”:\n\n.leading dot\nhttp://a.example/missing\n" + strings.Repeat("x", 120)
	err := Send(context.Background(), srv, Message{From: "Mundaneum <mund@example.org>", To: []string{"owner@example.org"},
		Subject: "docs: 3 dead links\r\nBcc: victim@example.org", Body: body})
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.data) != 1 {
		t.Fatalf("messages: %d (log %q)", len(s.data), s.log)
	}
	joined := strings.Join(s.log, "\n")
	if !strings.Contains(joined, "MAIL FROM:<mund@example.org>") || !strings.Contains(joined, "RCPT TO:<owner@example.org>") {
		t.Errorf("envelope: %s", joined)
	}
	m, err := mail.ReadMessage(strings.NewReader(strings.ReplaceAll(s.data[0], "\r\n..", "\r\n.")))
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
	s := startSMTP(t, false)
	srv := s.server()
	srv.TLS = StartTLS
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
