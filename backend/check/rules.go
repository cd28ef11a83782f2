package check

import (
	"context"
	"fmt"
	"strings"
	"time"

	"mundaneum/backend/check/momfile"
	"mundaneum/backend/check/record"
	"mundaneum/backend/urlnorm"
)

// Rule actions (MOMspider appendix C).
const (
	ActionAvoid = momfile.Avoid // neither test nor traverse URLs under the prefix
	ActionLeaf  = momfile.Leaf  // test URLs under the prefix, never traverse them
)

// Rule is an Avoid or Leaf prefix, system-wide (TaskID 0) or one task's, with an optional
// expiry after which it no longer applies.
type Rule struct {
	ID      int64
	TaskID  int64
	Action  string
	Prefix  string
	Expires time.Time // zero: never
	Note    string
}

// Active reports whether the rule applies at now.
func (r Rule) Active(now time.Time) bool { return r.Expires.IsZero() || now.Before(r.Expires) }

// RuleStore keeps rules; *store.Store satisfies it.
type RuleStore interface {
	AddRules(ctx context.Context, rules []record.Rule) (int, error)
	DeleteRule(ctx context.Context, id int64) error
	CheckRules(ctx context.Context, taskID int64) ([]record.Rule, error)
}

// NormalizeRule checks a rule and puts its prefix in canonical form, so that it compares
// with the canonical URLs a run tests.
func NormalizeRule(r *Rule) error {
	r.Action = strings.ToLower(strings.TrimSpace(r.Action))
	if r.Action != ActionAvoid && r.Action != ActionLeaf {
		return fmt.Errorf("%w: a rule's action is avoid or leaf, not %q", ErrBadTask, r.Action)
	}
	p, err := canonPrefix(strings.TrimSpace(r.Prefix))
	if err != nil {
		return fmt.Errorf("%w: prefix %q: %v", ErrBadTask, r.Prefix, err)
	}
	r.Prefix = p
	if len(r.Note) > 300 {
		r.Note = r.Note[:300]
	}
	return nil
}

// canonPrefix normalises a URL prefix like a URL, so that it compares with the canonical
// URLs a run tests.
func canonPrefix(p string) (string, error) {
	u, err := urlnorm.Parse(p)
	if err != nil {
		return "", err
	}
	return u.String(), nil
}

// AddRules checks and stores rules; it returns how many were new (the others replaced a
// rule with the same prefix in the same list).
func AddRules(ctx context.Context, rs RuleStore, rules []Rule) (int, error) {
	recs := make([]record.Rule, 0, len(rules))
	for i := range rules {
		if err := NormalizeRule(&rules[i]); err != nil {
			return 0, err
		}
		r := rules[i]
		var exp int64
		if !r.Expires.IsZero() {
			exp = r.Expires.UnixMilli()
		}
		recs = append(recs, record.Rule{TaskID: r.TaskID, Action: r.Action, Prefix: r.Prefix, ExpiresAt: exp, Note: r.Note})
	}
	return rs.AddRules(ctx, recs)
}

// Rules lists the system-wide rules (taskID 0) or a task's.
func Rules(ctx context.Context, rs RuleStore, taskID int64) ([]Rule, error) {
	recs, err := rs.CheckRules(ctx, taskID)
	if err != nil {
		return nil, err
	}
	out := make([]Rule, 0, len(recs))
	for _, r := range recs {
		out = append(out, fromRuleRecord(r))
	}
	return out, nil
}

func fromRuleRecord(r record.Rule) Rule {
	out := Rule{ID: r.ID, TaskID: r.TaskID, Action: r.Action, Prefix: r.Prefix, Note: r.Note}
	if r.ExpiresAt > 0 {
		out.Expires = time.UnixMilli(r.ExpiresAt)
	}
	return out
}

// ruleSet is the rules that apply to one task during a run: the system-wide ones and the
// task's own, expired ones left out. The longest matching prefix decides; on equal
// prefixes the task's own rule wins.
type ruleSet []ruleEntry

type ruleEntry struct {
	prefix string
	avoid  bool
	own    bool
}

// newRuleSet builds the rules of a task from the system-wide list and the task's own.
func newRuleSet(now time.Time, system, own []Rule) ruleSet {
	var rs ruleSet
	for i, list := range [][]Rule{system, own} {
		for _, r := range list {
			if r.Active(now) {
				rs = append(rs, ruleEntry{prefix: r.Prefix, avoid: r.Action == ActionAvoid, own: i == 1})
			}
		}
	}
	return rs
}

// match says what the rules make of a canonical URL.
func (rs ruleSet) match(u string) (avoid, leaf bool) {
	best := -1
	for i, e := range rs {
		if !strings.HasPrefix(u, e.prefix) {
			continue
		}
		if best < 0 || len(e.prefix) > len(rs[best].prefix) || len(e.prefix) == len(rs[best].prefix) && e.own {
			best = i
		}
	}
	if best < 0 {
		return false, false
	}
	return rs[best].avoid, !rs[best].avoid
}
