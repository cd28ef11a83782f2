package check

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"mundaneum/backend/check/momfile"
	"mundaneum/backend/robots"
)

func TestImportMOMspiderFiles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openStore(t)
	avoid := "Avoid http://www.ncsa.uiuc.edu:8001/ [*]\nLeaf http://info.cern.ch/hypertext/DataSources/ByAccess.html [*]\n" +
		"Avoid http://www.ics.uci.edu/Test/momtest.html [Sat, 02 Apr 1994 00:00:00 GMT]\n"
	n, err := ImportRules(ctx, st, 0, strings.NewReader(avoid))
	if err != nil || n != 3 {
		t.Fatalf("import = %d, %v", n, err)
	}
	rules, _ := Rules(ctx, st, 0)
	if len(rules) != 3 || rules[2].Prefix != "http://www.ncsa.uiuc.edu:8001/" || rules[1].Active(time.Now()) {
		t.Fatalf("rules = %+v", rules)
	}
	var buf bytes.Buffer
	if err := ExportRules(&buf, rules); err != nil || !strings.Contains(buf.String(), "Leaf http://info.cern.ch/") {
		t.Fatalf("export: %v\n%s", err, buf.String())
	}
	// A malformed file imports nothing, and names the line.
	_, err = ImportRules(ctx, st, 0, strings.NewReader("Avoid http://a.example/ [*]\nSkip http://b/ [*]\n"))
	var le *momfile.LineError
	if !errors.As(err, &le) || le.Line != 2 {
		t.Fatalf("bad file: %v", err)
	}
	if rules, _ := Rules(ctx, st, 0); len(rules) != 3 {
		t.Fatalf("half imported: %+v", rules)
	}

	instr := "SitesCheck 7\nAvoidFile /x\n<Site\n Name ICS\n TopURL http://www.ics.uci.edu/ICSHome.html\n" +
		" EmailAddress www@ics.uci.edu\n EmailBroken\n EmailExpired 2\n>\n<Owner\n Name RTF\n TopURL http://www.ics.uci.edu/~fielding/hotlist.html\n>\n" +
		"<Tree\n Name ICS\n TopURL http://www.ics.uci.edu/x/\n>\n"
	ti, err := ImportTasks(ctx, st, strings.NewReader(instr))
	if err != nil || len(ti.Added) != 2 || len(ti.Skipped) != 1 || len(ti.Warnings) == 0 {
		t.Fatalf("tasks = %+v, %v", ti, err)
	}
	ics, _ := TaskNamed(ctx, st, "ICS")
	if ics.Type != Site || !ics.Options.Email || !ics.Options.Report.Broken || ics.Options.Report.ExpiringDays != 2 || ics.Options.For != "www@ics.uci.edu" {
		t.Fatalf("ICS = %+v", ics)
	}

	if err := st.SaveRobots(ctx, "http://www.ics.uci.edu", robots.Record{Status: 200, Body: []byte("User-agent: *\n"),
		FetchedAt: time.Now(), ExpiresAt: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	st.Writer().Flush(ctx)
	si, err := ImportSites(ctx, st, strings.NewReader("Site www.ics.uci.edu:80 [*]\nSite betelgeuse.com:80 [Fri, 31 Dec 1999 09:30:00 GMT]\n"))
	if err != nil || si.Updated != 1 || len(si.Unknown) != 1 || si.Unknown[0] != "betelgeuse.com:80" {
		t.Fatalf("sites = %+v, %v", si, err)
	}
	sites, _ := st.RobotsSites(ctx)
	if len(sites) != 1 || time.UnixMilli(sites[0].ExpiresAt).Year() != 9999 {
		t.Fatalf("robots table = %+v", sites)
	}
	buf.Reset()
	if err := ExportSites(&buf, sites); err != nil || !strings.Contains(buf.String(), "Site www.ics.uci.edu:80 [*]") {
		t.Fatalf("export sites: %v\n%s", err, buf.String())
	}
}
