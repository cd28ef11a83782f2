// Package mailertest is a tiny SMTP server for tests: it listens on loopback, accepts
// whatever it is sent (with AUTH PLAIN for one user when asked) and records it.
package mailertest

import (
	"bufio"
	"encoding/base64"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Server is a running test SMTP server.
type Server struct {
	Host string
	Port int

	user, password string
	mu             sync.Mutex
	log            []string
	data           []string
}

// Start starts a server on a free loopback port, stopped when the test ends. With a user,
// it offers AUTH PLAIN and accepts only that user and password.
func Start(t testing.TB, user, password string) *Server {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	host, port, _ := net.SplitHostPort(l.Addr().String())
	s := &Server{Host: host, user: user, password: password}
	s.Port, _ = strconv.Atoi(port)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go s.serve(c)
		}
	}()
	return s
}

// Log returns the commands received.
func (s *Server) Log() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.log...)
}

// Messages returns the messages received (as sent after DATA, dot-stuffing undone).
func (s *Server) Messages() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.data...)
}

func (s *Server) serve(c net.Conn) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(c)
	say := func(line string) { io.WriteString(c, line+"\r\n") }
	say("220 mailertest ESMTP")
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		s.mu.Lock()
		s.log = append(s.log, line)
		s.mu.Unlock()
		switch strings.ToUpper(strings.Fields(line + " x")[0]) {
		case "EHLO", "HELO":
			if s.user != "" {
				say("250-mailertest\r\n250 AUTH PLAIN")
			} else {
				say("250 mailertest")
			}
		case "AUTH":
			f := strings.Fields(line)
			cred, _ := base64.StdEncoding.DecodeString(f[len(f)-1])
			if string(cred) == "\x00"+s.user+"\x00"+s.password {
				say("235 ok")
			} else {
				say("535 authentication failed")
			}
		case "MAIL", "RCPT", "RSET", "NOOP":
			say("250 ok")
		case "DATA":
			say("354 go ahead")
			var b strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
				b.WriteString(strings.TrimPrefix(l, "."))
			}
			s.mu.Lock()
			s.data = append(s.data, b.String())
			s.mu.Unlock()
			say("250 queued")
		case "QUIT":
			say("221 bye")
			return
		default:
			say("502 not implemented")
		}
	}
}
