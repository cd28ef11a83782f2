package store

import (
	"errors"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// parsePack appends the links of a pack (link_packs.data: a JSON array of
// [to_id, kind, anchor, rel, pos]) of page from to out. It reads what linkPack and SQLite's
// json_array write; anything else is an error, never a panic.
func parsePack(data string, from int64, out []packedLink) ([]packedLink, error) {
	p := packParser{s: data}
	if !p.take('[') {
		return out, p.fail()
	}
	if p.take(']') {
		return out, p.end()
	}
	for {
		l := packedLink{from: from}
		ok := p.take('[')
		ok = ok && p.int(&l.to) && p.take(',')
		ok = ok && p.str(&l.kind) && p.take(',')
		ok = ok && p.str(&l.anchor) && p.take(',')
		ok = ok && p.str(&l.rel) && p.take(',')
		ok = ok && p.int(&l.pos) && p.take(']')
		if !ok {
			return out, p.fail()
		}
		out = append(out, l)
		if p.take(']') {
			return out, p.end()
		}
		if !p.take(',') {
			return out, p.fail()
		}
	}
}

var errPack = errors.New("malformed link pack")

type packParser struct {
	s string
	i int
}

func (p *packParser) fail() error { return errPack }

func (p *packParser) end() error {
	p.space()
	if p.i != len(p.s) {
		return errPack
	}
	return nil
}

func (p *packParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *packParser) take(c byte) bool {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *packParser) int(v *int64) bool {
	p.space()
	j := p.i
	if j < len(p.s) && p.s[j] == '-' {
		j++
	}
	for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
		j++
	}
	n, err := strconv.ParseInt(p.s[p.i:j], 10, 64)
	if err != nil {
		return false
	}
	*v, p.i = n, j
	return true
}

// str reads a JSON string; invalid UTF-8 and lone surrogates become U+FFFD.
func (p *packParser) str(v *string) bool {
	if !p.take('"') {
		return false
	}
	start := p.i
	// The common case: no escape, valid UTF-8.
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '"' {
			if s := p.s[start:p.i]; utf8.ValidString(s) {
				*v = s
				p.i++
				return true
			}
			break
		}
		if c == '\\' || c < 0x20 {
			break
		}
		p.i++
	}
	p.i = start
	var b []byte
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			*v = string(b)
			return true
		case c < 0x20:
			return false
		case c == '\\':
			if p.i+1 >= len(p.s) {
				return false
			}
			e := p.s[p.i+1]
			p.i += 2
			switch e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, ok := p.hex4()
				if !ok {
					return false
				}
				if utf16.IsSurrogate(r) {
					r2 := utf8.RuneError
					if p.i+1 < len(p.s) && p.s[p.i] == '\\' && p.s[p.i+1] == 'u' {
						save := p.i
						p.i += 2
						if lo, ok := p.hex4(); ok && utf16.DecodeRune(r, lo) != utf8.RuneError {
							r2 = utf16.DecodeRune(r, lo)
						} else {
							p.i = save
						}
					}
					r = r2
				}
				b = utf8.AppendRune(b, r)
			default:
				return false
			}
		default:
			r, n := utf8.DecodeRuneInString(p.s[p.i:])
			b = utf8.AppendRune(b, r) // RuneError for an invalid byte
			p.i += n
		}
	}
	return false
}

func (p *packParser) hex4() (rune, bool) {
	if p.i+4 > len(p.s) {
		return 0, false
	}
	n, err := strconv.ParseUint(p.s[p.i:p.i+4], 16, 32)
	if err != nil {
		return 0, false
	}
	p.i += 4
	return rune(n), true
}
