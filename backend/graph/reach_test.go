package graph

import (
	"context"
	"testing"

	"mundaneum/backend/rules"
)

// TestRulesWithLocalBlocks tests rules against pages of the small web as the crawl reached
// them: a LOCAL block holds for the elements reached through a page its selector matches.
func TestRulesWithLocalBlocks(t *testing.T) {
	g, st, base, _ := crawled(t)
	ctx := context.Background()
	set := rules.MustParse("+url:*\n{LOCAL url:*/a -url:*/b}\n{LOCAL url:*/ +title:*nothing*}")

	// /b was visited as 01.02 (through / only) and reached again as 01.01.02 through /a.
	tr, err := TestRules(ctx, g, set, base+"/b", st)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Elements) != 2 || tr.Element == nil || tr.Element.Family.String() != "01.02" || !tr.Element.Visited {
		t.Fatalf("elements of /b: %+v", tr.Elements)
	}
	// On its first path only the second block holds (put in force by the seed /); its
	// title does not match, but the global +url:* selects it.
	if tr.Decision.Value != rules.Next || tr.Elements[0].Local != 0b10 || tr.Elements[0].Through[1] != base+"/" {
		t.Errorf("/b as 01.02: %v %b %v", tr.Decision.Value, tr.Elements[0].Local, tr.Elements[0].Through)
	}
	// Through /a, the first block rejects it.
	second := tr.Elements[1]
	if second.Family.String() != "01.01.02" || second.Local != 0b11 || second.Through[0] != base+"/a" ||
		second.Decision.Value != rules.Rejected || second.Decision.By.String() != "-url:*/b" {
		t.Errorf("/b as 01.01.02: %+v %v", second.Reach, second.Decision.Reason())
	}
	if len(tr.Locals) != 2 || tr.Locals[0].Active || tr.Locals[0].IfActive.Value != rules.Rejected ||
		!tr.Locals[1].Active || tr.Locals[1].Through != base+"/" {
		t.Errorf("blocks for /b: %+v", tr.Locals)
	}

	// The seed itself: nothing is above it, so no block holds, whatever its URL matches.
	tr, err = TestRules(ctx, g, set, base+"/", st)
	if err != nil || tr.Element == nil || tr.Element.Local != 0 || tr.Locals[1].Active {
		t.Fatalf("the seed: %+v %v", tr, err)
	}

	// A URL no crawl reached: the global rules decide, and each block says what it would do.
	tr, err = TestRules(ctx, g, set, "http://elsewhere.example/b", st)
	if err != nil || tr.Element != nil || len(tr.Elements) != 0 || tr.Decision.Value != rules.Next {
		t.Fatalf("a bare URL: %+v %v", tr, err)
	}
	if tr.Locals[0].Active || tr.Locals[0].IfActive.Value != rules.Rejected || tr.Locals[1].IfActive.Value != rules.Next {
		t.Errorf("blocks for a bare URL: %+v", tr.Locals)
	}
	// Without a workspace at all.
	tr, err = TestRules(ctx, nil, set, base+"/b", nil)
	if err != nil || tr.Element != nil || tr.Decision.Value != rules.Next || tr.Locals[0].IfActive.Value != rules.Rejected {
		t.Fatalf("no workspace: %+v %v", tr, err)
	}
}
