package fetch

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

func utf16LE(s string, bom bool) []byte {
	var b []byte
	if bom {
		b = append(b, 0xff, 0xfe)
	}
	for _, r := range s {
		b = append(b, byte(r), byte(r>>8))
	}
	return b
}

func utf16BE(s string, bom bool) []byte {
	var b []byte
	if bom {
		b = append(b, 0xfe, 0xff)
	}
	for _, r := range s {
		b = append(b, byte(r>>8), byte(r))
	}
	return b
}

func TestDecodeText(t *testing.T) {
	tests := []struct {
		name     string
		body     []byte
		ctype    string
		want     string
		wantName string
	}{
		{"plain utf-8, no hints", []byte("<p>Caf\xc3\xa9</p>"), "text/html", "<p>Café</p>", "utf-8"},
		{"utf-8 header", []byte("<p>Caf\xc3\xa9</p>"), "text/html; charset=UTF-8", "<p>Café</p>", "utf-8"},
		{"utf-8 BOM stripped", []byte("\xef\xbb\xbf<p>Caf\xc3\xa9</p>"), "text/html; charset=iso-8859-1", "<p>Café</p>", "utf-8"},
		{"utf-16le BOM beats header", utf16LE("<p>Café €</p>", true), "text/html; charset=utf-8", "<p>Café €</p>", "utf-16le"},
		{"utf-16be BOM", utf16BE("<p>Ωμέγα</p>", true), "text/html", "<p>Ωμέγα</p>", "utf-16be"},
		{"header latin1", []byte("<p>Caf\xe9 na\xefve</p>"), "text/html; charset=ISO-8859-1", "<p>Café naïve</p>", "windows-1252"},
		{"header quoted charset", []byte("<p>Caf\xe9</p>"), `text/html; foo=bar; charset="latin1"`, "<p>Café</p>", "windows-1252"},
		{"meta windows-1252", []byte("<html><head><meta charset=\"windows-1252\"></head><p>\x93quoted\x94 \x80</p>"), "text/html",
			"<html><head><meta charset=\"windows-1252\"></head><p>“quoted” €</p>", "windows-1252"},
		{"meta http-equiv koi8-r", []byte("<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=koi8-r\"><p>\xf0\xd2\xc9\xd7\xc5\xd4</p>"), "",
			"<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=koi8-r\"><p>Привет</p>", "koi8-r"},
		{"header beats meta", []byte("<meta charset=\"windows-1252\"><p>Caf\xc3\xa9</p>"), "text/html; charset=utf-8",
			"<meta charset=\"windows-1252\"><p>Café</p>", "utf-8"},
		{"header latin1 beats meta utf-8", []byte("<meta charset=\"utf-8\"><p>Caf\xe9</p>"), "text/html; charset=latin1",
			"<meta charset=\"utf-8\"><p>Café</p>", "windows-1252"},
		{"meta utf-8 with bad bytes", []byte("<meta charset=utf-8><p>bad \xff byte</p>"), "text/html",
			"<meta charset=utf-8><p>bad \uFFFD byte</p>", "utf-8"},
		{"invalid utf-8 header", []byte("a\xffb"), "text/plain; charset=utf-8", "a\uFFFDb", "utf-8"},
		{"no hints, not utf-8", []byte("<p>Caf\xe9</p>"), "text/html", "<p>Café</p>", "windows-1252"},
		{"unknown header charset falls through", []byte("<p>Caf\xc3\xa9</p>"), "text/html; charset=x-bogus", "<p>Café</p>", "utf-8"},
		{"shift_jis header", []byte("\x93\xfa\x96\x7b"), "text/plain; charset=Shift_JIS", "日本", "shift_jis"},
		{"empty", nil, "", "", "utf-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, name := DecodeText(tt.body, tt.ctype)
			if string(got) != tt.want || name != tt.wantName {
				t.Errorf("DecodeText = %q, %q; want %q, %q", got, name, tt.want, tt.wantName)
			}
		})
	}
}

func TestDecodeTextNoCopyForCleanUTF8(t *testing.T) {
	body := []byte("<p>clean</p>")
	got, _ := DecodeText(body, "text/html; charset=utf-8")
	if &got[0] != &body[0] {
		t.Error("clean UTF-8 was copied")
	}
}

func TestCharsetParam(t *testing.T) {
	tests := map[string]string{
		"text/html":                          "",
		"text/html; charset=utf-8":           "utf-8",
		"text/html;charset=\"UTF-8\"":        "UTF-8",
		"text/html; q=1; Charset = latin1 ;": "latin1",
		"text/html; charsetx=foo":            "",
		"text/html; charset":                 "",
		";;;":                                "",
	}
	for in, want := range tests {
		if got := charsetParam(in); got != want {
			t.Errorf("charsetParam(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzDecodeText(f *testing.F) {
	f.Add([]byte("<p>Caf\xc3\xa9</p>"), "text/html")
	f.Add([]byte("<p>Caf\xe9</p>"), "text/html; charset=iso-8859-1")
	f.Add(utf16LE("<p>hi</p>", true), "")
	f.Add(utf16BE("<p>hi\x00", true), "text/plain")
	f.Add([]byte("<meta charset=windows-1252>\x80\x81\x82"), "text/html")
	f.Add([]byte("<meta http-equiv=content-type content='text/html;charset=euc-jp'>\xa4\xa2\xff"), "")
	f.Add([]byte("\xef\xbb\xbf\xff\xfe"), "text/html; charset=utf-16")
	f.Add([]byte("\x1b$B\x30\x21"), "text/plain; charset=iso-2022-jp")
	f.Add([]byte("abc"), "text/html; charset=replacement")
	f.Fuzz(func(t *testing.T, body []byte, ctype string) {
		in := bytes.Clone(body)
		out, name := DecodeText(body, ctype)
		if !utf8.Valid(out) {
			t.Fatalf("invalid UTF-8 output for %q (%s)", body, name)
		}
		if name == "" {
			t.Fatal("no encoding name")
		}
		if !bytes.Equal(in, body) {
			t.Fatal("input was modified")
		}
	})
}

func TestDecodeTextASCIIFastPath(t *testing.T) {
	body := []byte("<p>plain ascii</p>")
	got, name := DecodeText(body, "text/html; charset=iso-8859-1")
	if name != "windows-1252" || &got[0] != &body[0] {
		t.Errorf("ASCII body in a latin1 page was copied or misnamed: %q", name)
	}
	// ISO-2022-JP is 7-bit but not ASCII: its escapes must still be decoded.
	got, _ = DecodeText([]byte("\x1b$B\x46\x7c\x4b\x5c\x1b(B"), "text/plain; charset=iso-2022-jp")
	if string(got) != "日本" {
		t.Errorf("iso-2022-jp: %q", got)
	}
}
