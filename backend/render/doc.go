// Package render reads pages that scripts build: it says whether an HTML page as served
// is an empty shell (Detect), and renders one in the system's Chromium over the DevTools
// protocol, giving the DOM after its scripts settle and a screenshot.
package render
