package rules

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Family is an element's family index (the paper's III.A): the position of its seed among
// the seeds, then the position of each link followed from there, each from 1. The
// documents reached from 03.02 are 03.02.01, 03.02.02, ...; the index identifies one
// element, and the same URL reached by two paths has two.
type Family []uint32

// String writes the positions with two digits each, dot-separated: 03.02.01.
func (f Family) String() string {
	var b strings.Builder
	for i, p := range f {
		if i > 0 {
			b.WriteByte('.')
		}
		if p < 10 {
			b.WriteByte('0')
		}
		b.WriteString(strconv.FormatUint(uint64(p), 10))
	}
	return b.String()
}

// ParseFamily reads a family index written as String writes it, or in the paper's form of
// two digits per position without dots (030201).
func ParseFamily(s string) (Family, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, errors.New("empty family index")
	}
	var parts []string
	if strings.Contains(s, ".") {
		parts = strings.Split(s, ".")
	} else {
		if len(s)%2 != 0 {
			return nil, fmt.Errorf("family index %q: two digits per position, or dots between positions", s)
		}
		for i := 0; i < len(s); i += 2 {
			parts = append(parts, s[i:i+2])
		}
	}
	f := make(Family, 0, len(parts))
	for _, p := range parts {
		n, err := strconv.ParseUint(p, 10, 32)
		if err != nil || n == 0 {
			return nil, fmt.Errorf("family index %q: positions are numbers from 1", s)
		}
		f = append(f, uint32(n))
	}
	return f, nil
}

// Child is the family index of the element at link position pos (from 1) of f.
func (f Family) Child(pos int) Family {
	c := make(Family, len(f)+1)
	copy(c, f)
	c[len(f)] = uint32(pos)
	return c
}

// Parent is f without its last position (nil for a seed).
func (f Family) Parent() Family {
	if len(f) <= 1 {
		return nil
	}
	return f[:len(f)-1]
}

// Encode writes f so that the byte order of encodings is the tree's pre-order (a parent
// sorts before its children, siblings by position): a position below 0xF0 is one byte,
// a larger one 0xF0+n followed by its n big-endian bytes.
func (f Family) Encode() []byte {
	b := make([]byte, 0, len(f))
	for _, p := range f {
		switch {
		case p < 0xF0:
			b = append(b, byte(p))
		case p <= 0xFF:
			b = append(b, 0xF1, byte(p))
		case p <= 0xFFFF:
			b = append(b, 0xF2, byte(p>>8), byte(p))
		case p <= 0xFFFFFF:
			b = append(b, 0xF3, byte(p>>16), byte(p>>8), byte(p))
		default:
			b = append(b, 0xF4, byte(p>>24), byte(p>>16), byte(p>>8), byte(p))
		}
	}
	return b
}

// DecodeFamily reads an encoding written by Encode.
func DecodeFamily(b []byte) (Family, error) {
	f := make(Family, 0, len(b))
	for i := 0; i < len(b); {
		c := b[i]
		i++
		if c < 0xF0 {
			f = append(f, uint32(c))
			continue
		}
		n := int(c - 0xF0)
		if n < 1 || n > 4 || i+n > len(b) {
			return nil, errors.New("bad family index encoding")
		}
		var p uint32
		for _, x := range b[i : i+n] {
			p = p<<8 | uint32(x)
		}
		i += n
		f = append(f, p)
	}
	return f, nil
}
