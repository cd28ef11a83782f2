package web

import (
	"context"
	"net"
	"net/http"
	"reflect"
	"testing"
)

// FuzzDecodeArgs feeds request bodies to the strict decoder for a method taking an int, a
// struct and a pointer: it must never panic, and what it accepts has one value per
// parameter.
func FuzzDecodeArgs(f *testing.F) {
	for _, s := range []string{
		`[1, {"words":["a"],"inner":{"n":2}}, 3]`, `[1, null, null]`, `[]`, `null`, `[1,{},3] `,
		`[1,{"inner":{"n":1e400}},3]`, `[1,{"words":[null]},"3"]`, `[[[[[[[[[[[[`, `[1,{"Words":[]},3]`,
		"[1,{\"words\":[\"\xff\"]},3]", `[1,{},3]]`, `[-0, {}, -9223372036854775808]`,
	} {
		f.Add([]byte(s))
	}
	in := []reflect.Type{reflect.TypeFor[int](), reflect.TypeFor[Req](), reflect.TypeFor[*int64]()}
	f.Fuzz(func(t *testing.T, body []byte) {
		args, err := decodeArgs(body, in)
		if err != nil {
			return
		}
		if len(args) != len(in) {
			t.Fatalf("%d args for %d parameters", len(args), len(in))
		}
		for i, a := range args {
			if a.Type() != in[i] {
				t.Fatalf("argument %d has type %s", i, a.Type())
			}
		}
	})
}

// FuzzHostOK checks Host and Origin headers against a server on 127.0.0.1:8080: only
// loopback IPs and localhost with that port pass, and never a name an attacker can point
// at the machine.
func FuzzHostOK(f *testing.F) {
	for _, s := range []string{
		"127.0.0.1:8080", "localhost:8080", "[::1]:8080", "evil.example:8080", "127.0.0.1", "127.0.0.1:80",
		"[::ffff:127.0.0.1]:8080", "127.1:8080", "0x7f.1:8080", "LocalHost:8080", "localhost.:8080",
		"[fe80::1%25lo]:8080", "127.0.0.1:08080", "127.0.0.1:8080:8080", "", ":8080", "[]:8080",
	} {
		f.Add(s, "http://"+s)
	}
	local := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	f.Fuzz(func(t *testing.T, host, origin string) {
		r, err := http.NewRequest("GET", "http://127.0.0.1:8080/", nil)
		if err != nil {
			t.Fatal(err)
		}
		r.Host = host
		r.Header.Set("Origin", origin)
		r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, local))
		if !hostOK(r) {
			return
		}
		h, port, err := net.SplitHostPort(host)
		if err != nil || port != "8080" {
			t.Fatalf("accepted host %q", host)
		}
		if !loopbackLiteral(h) && !equalFoldASCII(h, "localhost") {
			t.Fatalf("accepted host %q", host)
		}
		if originOK(r) && origin != "http://"+host && !equalFoldASCII(origin, "http://"+host) {
			t.Fatalf("accepted origin %q for host %q", origin, host)
		}
	})
}

func loopbackLiteral(h string) bool {
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
