package robots

import (
	"context"
	"net/url"
	"testing"
)

// bodyGetter serves one fixed answer, without a network.
type bodyGetter struct {
	status int
	body   []byte
}

func (g bodyGetter) GetRobots(ctx context.Context, robotsURL string) (int, []byte, error) {
	return g.status, g.body, nil
}

func mustURL(t testing.TB, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func FuzzCheck(f *testing.F) {
	seeds := []struct{ body, path string }{
		{"User-agent: *\nDisallow: /private\n", "/private/x"},
		{"User-agent: *\nDisallow: /*.gif$\nAllow: /a*b\n", "/a/x.gif"},
		{"User-agent: mundaneum\nCrawl-delay: 2.5\nDisallow: /$\n", "/"},
		{"\xEF\xBB\xBFuser-agent : * # x\rdisallow /a\r\n", "/a?b=c"},
		{"Disallow: /x\nCrawl-delay: -1\n", "/x"},
		{"User-agent: *\nDisallow: /%zz%7e$x*\n", "/%25zz~$x"},
		{"\x00\xff<html>", "/%C3%A4"},
	}
	for _, s := range seeds {
		f.Add([]byte(s.body), s.path)
	}
	f.Fuzz(func(t *testing.T, body []byte, path string) {
		if _, ok := compile(body, "mundaneum"); !ok {
			t.Fatalf("canonical form of %q does not parse", body)
		}
		u, err := url.Parse("http://example.com" + path)
		if err != nil || u.Host != "example.com" {
			return
		}
		c := New(bodyGetter{200, body}, newMemStore(), "mundaneum", 0)
		d, err := c.Check(context.Background(), u)
		if err != nil {
			t.Fatalf("Check: %v", err)
		}
		switch d.Reason {
		case ReasonAllowed, ReasonDisallowed, ReasonRobotsFile:
		default:
			t.Fatalf("unexpected reason %q", d.Reason)
		}
		if d.CrawlDelay < 0 {
			t.Fatalf("negative crawl delay %v", d.CrawlDelay)
		}
	})
}
