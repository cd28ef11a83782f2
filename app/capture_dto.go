package app

import "mundaneum/backend/store"

// EventCapturePaired is emitted when a browser pairs; its payload is the CaptureClient.
const EventCapturePaired = "capture:paired"

// CaptureInfo is what Settings shows of the capture from the browser.
type CaptureInfo struct {
	// Door is how browsers reach this Mundaneum: "window" (a loopback port of the
	// window's own), "serve" (serve's address) or "none".
	Door      string          `json:"door"`
	Address   string          `json:"address"`   // the address to give the extension ("" when not listening)
	Port      int             `json:"port"`      // the window's port (as set, even when it could not listen)
	Listening bool            `json:"listening"` // the door is open
	Error     string          `json:"error"`     // why the window's door is not open
	Clients   []CaptureClient `json:"clients"`
	Code      *PairingCode    `json:"code"` // the pairing code in force, null when none
}

// CaptureClient is a paired browser.
type CaptureClient struct {
	ID       int64  `json:"id"`
	Origin   string `json:"origin"` // chrome-extension://… or moz-extension://…
	Browser  string `json:"browser"`
	Paired   string `json:"paired"`   // RFC 3339
	LastUsed string `json:"lastUsed"` // RFC 3339, "" never
	Captures int    `json:"captures"`
}

// PairingCode is a one-time code a browser extension pairs with.
type PairingCode struct {
	Code    string `json:"code"`    // "ABCD-EFGH"
	Expires string `json:"expires"` // RFC 3339
}

// LibChoice is a library a form may add a pointer to.
type LibChoice struct {
	ID     int64  `json:"id"`
	Path   string `json:"path"`
	Recent bool   `json:"recent"` // pointers were added to it lately
}

func captureClientDTO(c store.CaptureClient) CaptureClient {
	return CaptureClient{ID: c.ID, Origin: c.Origin, Browser: c.Browser, Paired: rfc3339(c.CreatedAt),
		LastUsed: rfc3339(c.UsedAt), Captures: c.Captures}
}
