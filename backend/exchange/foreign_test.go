package exchange

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
)

// soifAttr writes one attribute as SOIF counts it (bytes).
func soifAttr(name, value string) string {
	return fmt.Sprintf("%s{%d}:\t%s\n", name, len(value), value)
}

// TestForeignTemplateEveryWord: a template from another gatherer in the style of UKOLN's
// DC-dot (Dublin Core elements as attributes, no Full-Text) is found by every word of its
// attributes, as the broker that held it found it, not only by its title and URL.
func TestForeignTemplateEveryWord(t *testing.T) {
	ctx := context.Background()
	dc := "@FILE { http://www.ukoln.example/metadata/\n" +
		soifAttr("Title", "Metadata at the office") +
		soifAttr("Creator", "Powell, Andy") +
		soifAttr("Subject", "cataloguing; interoperability") +
		soifAttr("Keywords", "quinquagesimal, dublin core") +
		soifAttr("Description", "Notes on embedding xylotomous records in Web pages.") +
		soifAttr("Publisher", "Bathwick Library Office") +
		soifAttr("Date", "1997-03-21") +
		soifAttr("Type", "Text") +
		soifAttr("Format", "text/html") +
		soifAttr("Identifier", "http://www.ukoln.example/metadata/") +
		soifAttr("Language", "en") +
		"}\n"
	in := newInstance(t, "b")
	rep, err := ImportFile(ctx, in.st, "dcdot.soif", strings.NewReader(dc), ImportOptions{Index: in.idx})
	if err != nil || rep.Applied != 1 || len(rep.Problems) != 0 {
		t.Fatalf("import %+v %v", rep, err)
	}
	for _, w := range []string{"office", "powell", "interoperability", "quinquagesimal", "xylotomous", "bathwick"} {
		if got := in.search(t, w); len(got) != 1 {
			t.Errorf("%s finds %v", w, got)
		}
	}
	// Harvest's own Gatherer: lower-case names, a description and an author, no text.
	harvest, err := os.ReadFile("../formats/soif/testdata/harvest.soif")
	if err != nil {
		t.Fatal(err)
	}
	if rep, err := ImportFile(ctx, in.st, "harvest.soif", bytes.NewReader(harvest), ImportOptions{Index: in.idx}); err != nil || rep.Applied != 1 {
		t.Fatalf("import harvest.soif %+v %v", rep, err)
	}
	for _, w := range []string{"darren", "document"} {
		if got := in.search(t, w); len(got) != 1 {
			t.Errorf("%s finds %v", w, got)
		}
	}
}
