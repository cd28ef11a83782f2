package urlnorm

import (
	"strings"
	"testing"
)

func TestTrap(t *testing.T) {
	long := "http://a/" + strings.Repeat("x", MaxTrapLength)
	tests := []struct {
		in, want string
	}{
		{"http://a/", ""},
		{"http://a/b/c/d?x=1", ""},
		{long, TrapURLTooLong},
		{"http://a/" + strings.Repeat("x", MaxTrapLength-len("http://a/")), ""},
		{"http://a/a/b/a/b/a/b", TrapRepeatedSegment},
		{"http://a/x/x/x", TrapRepeatedSegment},
		{"http://a/x/y/x/z/x/", TrapRepeatedSegment},
		{"http://a/x/x/", ""},
		{"http://a/a/b/a/b", ""},
		{"http://a/x//y//z//w", ""},
		{"http://a/" + strings.Repeat("s/", 16), TrapRepeatedSegment},
		{"http://a/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16", ""},
		{"http://a/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16/", ""},
		{"http://a/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16/17", TrapTooDeep},
		{"http://a/?a=1&b=2&c=3&d=4&e=5&f=6&g=7&h=8&i=9&j=10&k=11&l=12", ""},
		{"http://a/?a=1&b=2&c=3&d=4&e=5&f=6&g=7&h=8&i=9&j=10&k=11&l=12&m=13", TrapTooManyParams},
		{"http://a/?a&b&c&d&e&f&g&h&i&j&k&l&m", TrapTooManyParams},
		{"http://a/?a&a&a&a&a&a&a&a&a&a&a&a&a", ""}, // one parameter, repeated
		// Calendars: dates far ahead or long ago.
		{"http://a/cal/2024/05/", ""},
		{"http://a/cal/2190/05/", TrapCalendar},
		{"http://a/cal/1750/12", TrapCalendar},
		{"http://a/events/2199-01-31", TrapCalendar},
		{"http://a/events/20240131", ""},
		{"http://a/events/21990131", ""}, // a number: only a date in a date parameter
		{"http://a/events?date=21990131", TrapCalendar},
		{"http://a/cal?month=2301-02", TrapCalendar},
		{"http://a/cal?year=2990", TrapCalendar},
		{"http://a/cal?year=2025&month=3", ""},
		{"http://a/product/2999", ""}, // a number, not a date
		{"http://a/page/3000/", ""},
		{"http://a/items?id=299912", ""},
		{"http://a/items?id=123401", ""},
	}
	for _, tt := range tests {
		u, err := Parse(tt.in)
		if err != nil {
			t.Fatalf("Parse(%q): %v", abbrev(tt.in), err)
		}
		reason, trapped := Trap(u)
		if reason != tt.want || trapped != (tt.want != "") {
			t.Errorf("Trap(%q) = %q, %v; want %q", abbrev(tt.in), reason, trapped, tt.want)
		}
	}
}
