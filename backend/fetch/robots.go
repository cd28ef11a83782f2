package fetch

import (
	"context"
	"fmt"
)

// GetRobots fetches a robots.txt, following up to RobotsMaxRedirects redirects
// (RFC 9309 2.3.1.2), and returns the final status and, for a 2xx, the decoded body
// capped at RobotsMaxBody (a longer file is cut, not refused). A chain that is still
// redirecting after the last hop returns that 3xx status and no body, which RFC
// 9309 lets the caller treat as "unavailable". It implements the robots.Getter
// shape.
func (c *Client) GetRobots(ctx context.Context, robotsURL string) (int, []byte, error) {
	target := robotsURL
	for hop := 0; ; hop++ {
		resp, err := c.do(ctx, Request{URL: target}, &c.robots)
		if err != nil {
			return 0, nil, fmt.Errorf("robots: %w", err)
		}
		if resp.Status < 300 || resp.Status >= 400 || resp.Location == "" || hop == RobotsMaxRedirects {
			return resp.Status, resp.Body, nil
		}
		target = resp.Location
	}
}
