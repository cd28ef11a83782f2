// Package mailer sends a plain-text e-mail through an SMTP server: the news of a
// maintenance task to whom it is for, as MOMspider mailed infostructure owners.
//
// Header fields are checked for line breaks (a crawled title in a subject must not add
// headers), non-ASCII text is encoded (RFC 2047 in headers, quoted-printable in the body),
// and every exchange is bounded by the context's deadline.
package mailer

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"strconv"
	"strings"
	"time"
)

// TLS modes.
const (
	StartTLS = "starttls" // plain connection upgraded with STARTTLS (required)
	TLS      = "tls"      // TLS from the first byte (port 465)
	None     = "none"     // no encryption: for a relay on the same machine
)

// Server is an SMTP server and how to log in to it.
type Server struct {
	Host     string
	Port     int
	TLS      string // StartTLS (default), TLS or None
	Username string // empty: no login
	Password string
	// TLSConfig overrides the TLS settings (tests trust their own certificate with it).
	TLSConfig *tls.Config
}

// Message is one e-mail.
type Message struct {
	From    string
	To      []string
	Subject string
	Body    string // plain text
}

// ErrHeader is returned for an address or subject that cannot go in a header as given.
var ErrHeader = errors.New("bad mail header")

// Send delivers msg through srv.
func Send(ctx context.Context, srv Server, msg Message) error {
	data, err := compose(msg, time.Now())
	if err != nil {
		return err
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Minute)
		defer cancel()
	}
	addr := net.JoinHostPort(srv.Host, strconv.Itoa(srv.Port))
	tcfg := srv.TLSConfig
	if tcfg == nil {
		tcfg = &tls.Config{ServerName: srv.Host, MinVersion: tls.VersionTLS12}
	}
	var conn net.Conn
	d := &net.Dialer{}
	if srv.TLS == TLS {
		conn, err = (&tls.Dialer{NetDialer: d, Config: tcfg}).DialContext(ctx, "tcp", addr)
	} else {
		conn, err = d.DialContext(ctx, "tcp", addr)
	}
	if err != nil {
		return fmt.Errorf("mail: connect to %s: %w", addr, err)
	}
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	c, err := smtp.NewClient(conn, srv.Host)
	if err != nil {
		conn.Close()
		return fmt.Errorf("mail: %s: %w", addr, err)
	}
	defer c.Close()
	if err := c.Hello("localhost"); err != nil {
		return fmt.Errorf("mail: hello: %w", err)
	}
	if srv.TLS == StartTLS || srv.TLS == "" {
		if ok, _ := c.Extension("STARTTLS"); !ok {
			return fmt.Errorf("mail: %s does not offer STARTTLS (set TLS to tls, or none for a local relay)", addr)
		}
		if err := c.StartTLS(tcfg); err != nil {
			return fmt.Errorf("mail: starttls: %w", err)
		}
	}
	if srv.Username != "" {
		if err := c.Auth(smtp.PlainAuth("", srv.Username, srv.Password, srv.Host)); err != nil {
			return fmt.Errorf("mail: login: %w", err)
		}
	}
	from, _ := mail.ParseAddress(msg.From)
	if err := c.Mail(from.Address); err != nil {
		return fmt.Errorf("mail: from: %w", err)
	}
	for _, to := range msg.To {
		a, _ := mail.ParseAddress(to)
		if err := c.Rcpt(a.Address); err != nil {
			return fmt.Errorf("mail: to %s: %w", a.Address, err)
		}
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("mail: data: %w", err)
	}
	if _, err := w.Write(data); err != nil {
		return fmt.Errorf("mail: data: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("mail: data: %w", err)
	}
	return c.Quit()
}

// compose builds the message: headers, then the quoted-printable body.
func compose(msg Message, now time.Time) ([]byte, error) {
	from, err := mail.ParseAddress(msg.From)
	if err != nil {
		return nil, fmt.Errorf("%w: from %q: %v", ErrHeader, msg.From, err)
	}
	if len(msg.To) == 0 {
		return nil, fmt.Errorf("%w: no recipient", ErrHeader)
	}
	var tos []string
	for _, t := range msg.To {
		a, err := mail.ParseAddress(t)
		if err != nil {
			return nil, fmt.Errorf("%w: to %q: %v", ErrHeader, t, err)
		}
		tos = append(tos, a.String())
	}
	subject := strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, msg.Subject)
	if len(subject) > 250 {
		subject = subject[:250]
	}
	var id [12]byte
	rand.Read(id[:])
	var b bytes.Buffer
	fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nSubject: %s\r\nDate: %s\r\nMessage-ID: <%s@%s>\r\n",
		from.String(), strings.Join(tos, ", "), mime.QEncoding.Encode("utf-8", subject), now.Format(time.RFC1123Z),
		hex.EncodeToString(id[:]), domainOf(from.Address))
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n")
	b.WriteString("Auto-Submitted: auto-generated\r\n\r\n")
	qp := quotedprintable.NewWriter(&b)
	body := strings.ReplaceAll(strings.ReplaceAll(msg.Body, "\r\n", "\n"), "\n", "\r\n")
	if _, err := qp.Write([]byte(body)); err != nil {
		return nil, err
	}
	if err := qp.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func domainOf(addr string) string {
	if i := strings.LastIndexByte(addr, '@'); i >= 0 {
		return addr[i+1:]
	}
	return "localhost"
}
