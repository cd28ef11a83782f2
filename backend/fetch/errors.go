package fetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
)

// Sentinel errors returned (wrapped) by Do; compare with errors.Is.
var (
	// ErrTooLarge: the body exceeded MaxBody bytes on the wire.
	ErrTooLarge = errors.New("body too large")
	// ErrBomb: the body exceeded MaxDecoded bytes after content decoding.
	ErrBomb = errors.New("decoded body too large (compression bomb)")
	// ErrScheme: the URL's scheme is not http or https.
	ErrScheme = errors.New("scheme not http or https")
	// ErrBadEncoding: the Content-Encoding is unknown or the body does not decode.
	ErrBadEncoding = errors.New("bad content encoding")

	errNoUserAgent = errors.New("no user agent configured")
)

// Failure codes returned by Classify: a closed set to record why a fetch failed.
const (
	CodeTimeout     = "timeout"
	CodeDNS         = "dns"
	CodeRefused     = "refused"
	CodeReset       = "reset"
	CodeTLS         = "tls"
	CodeTooLarge    = "too-large"
	CodeBomb        = "bomb"
	CodeBadEncoding = "bad-encoding"
	CodeScheme      = "scheme"
	CodeCanceled    = "canceled"
	CodeNetwork     = "network"
	CodeOther       = "other"
)

// Classify maps an error from Do or GetRobots to one of the Code constants; it
// returns "" for a nil error.
func Classify(err error) string {
	if err == nil {
		return ""
	}
	var dnsErr *net.DNSError
	switch {
	case errors.Is(err, ErrTooLarge):
		return CodeTooLarge
	case errors.Is(err, ErrBomb):
		return CodeBomb
	case errors.Is(err, ErrBadEncoding):
		return CodeBadEncoding
	case errors.Is(err, ErrScheme):
		return CodeScheme
	case errors.Is(err, context.Canceled):
		return CodeCanceled
	case errors.Is(err, context.DeadlineExceeded):
		return CodeTimeout
	case errors.As(err, &dnsErr):
		return CodeDNS
	case isTLS(err):
		return CodeTLS
	case errors.Is(err, syscall.ECONNREFUSED):
		return CodeRefused
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, syscall.ECONNABORTED), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, io.EOF):
		// io.EOF from a round trip: the server closed the connection before answering.
		return CodeReset
	}
	var ne net.Error
	if errors.As(err, &ne) {
		if ne.Timeout() {
			return CodeTimeout
		}
		return CodeNetwork
	}
	var op *net.OpError
	if errors.As(err, &op) {
		return CodeNetwork
	}
	return CodeOther
}

// isTLS reports whether err comes from the TLS handshake or certificate checks.
func isTLS(err error) bool {
	var (
		verify    *tls.CertificateVerificationError
		header    tls.RecordHeaderError
		alert     tls.AlertError
		unknownCA x509.UnknownAuthorityError
		invalid   x509.CertificateInvalidError
		hostname  x509.HostnameError
	)
	if errors.As(err, &verify) || errors.As(err, &header) || errors.As(err, &alert) ||
		errors.As(err, &unknownCA) || errors.As(err, &invalid) || errors.As(err, &hostname) {
		return true
	}
	// crypto/tls reports most handshake failures as plain errors prefixed "tls: ".
	for e := err; e != nil; e = errors.Unwrap(e) {
		if strings.HasPrefix(e.Error(), "tls: ") {
			return true
		}
	}
	return false
}

// descriptions are the words for each failure code, for people (CLI output, error
// messages); the codes themselves are what is recorded and matched.
var descriptions = map[string]string{
	CodeTimeout:     "timed out",
	CodeDNS:         "DNS name not found",
	CodeRefused:     "connection refused",
	CodeReset:       "connection closed by the server",
	CodeTLS:         "TLS handshake or certificate failed",
	CodeTooLarge:    "body too large",
	CodeBomb:        "body too large once decompressed",
	CodeBadEncoding: "unreadable content encoding",
	CodeScheme:      "not an http or https URL",
	CodeCanceled:    "stopped",
	CodeNetwork:     "network error",
	CodeOther:       "failed",
}

// Describe returns the words for a failure code from Classify ("connection refused",
// "DNS name not found", ...), or the code itself when it is not one of them.
func Describe(code string) string {
	if d, ok := descriptions[code]; ok {
		return d
	}
	return code
}
