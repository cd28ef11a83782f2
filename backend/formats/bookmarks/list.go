package bookmarks

import (
	"bytes"
	"strings"
)

// A pasted list of links (GENVL's "Pointers" command): one link or more per line, as bare
// URLs ("https://go.dev/ The Go site"), <autolinks> or Markdown links ("- [Go](https://go.dev/)
// the Go site"). Markdown headings ("## Go") open folders, so a Markdown page of links (an
// "awesome list") keeps its sections. Lines without a link are prose and are passed over.

// ReadList reads a list of links.
func ReadList(data []byte) (*Document, error) {
	if err := checkInput("list", data); err != nil {
		return nil, err
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	doc := &Document{Format: "list", Root: &Entry{Kind: Folder, Line: 1}}
	count := counter{format: "list"}
	// folders[i] is the folder of heading level i+1 that is open, nil when none.
	type open struct {
		level  int
		folder *Entry
	}
	var stack []open
	current := func() *Entry {
		if len(stack) == 0 {
			return doc.Root
		}
		return stack[len(stack)-1].folder
	}
	links := 0
	for n, raw := range strings.Split(string(data), "\n") {
		line := n + 1
		if len(raw) > MaxField {
			return nil, &Error{Format: "list", Line: line, Msg: "a line longer than 1 MiB"}
		}
		text := strings.TrimSpace(raw)
		if level, title, ok := heading(text); ok {
			for len(stack) > 0 && stack[len(stack)-1].level >= level {
				stack = stack[:len(stack)-1]
			}
			if len(stack) >= MaxDepth {
				return nil, &Error{Format: "list", Line: line, Msg: "headings nested more than 64 deep"}
			}
			f := &Entry{Kind: Folder, Title: title, Line: line}
			if err := count.add(line); err != nil {
				return nil, err
			}
			cur := current()
			cur.Children = append(cur.Children, f)
			stack = append(stack, open{level: level, folder: f})
			continue
		}
		found, problem := lineLinks(text)
		if problem != "" {
			doc.Problems = append(doc.Problems, Problem{Line: line, Reason: problem})
		}
		for _, e := range found {
			e.Line = line
			if err := count.add(line); err != nil {
				return nil, err
			}
			cur := current()
			cur.Children = append(cur.Children, e)
			links++
		}
	}
	if links == 0 {
		return nil, &Error{Format: "list", Line: 1, Msg: "no links here: give one URL or Markdown link [title](https://...) per line"}
	}
	return doc, nil
}

// heading reads a Markdown ATX heading ("## Title").
func heading(s string) (level int, title string, ok bool) {
	for level < len(s) && s[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || level == len(s) || (s[level] != ' ' && s[level] != '\t') {
		return 0, "", false
	}
	title = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(s[level:]), "#"))
	if title == "" {
		return 0, "", false
	}
	// A heading that is a link keeps its text as the folder's title.
	if es, _ := lineLinks(title); len(es) == 1 && es[0].Title != "" && strings.HasPrefix(title, "[") {
		title = es[0].Title
	}
	return level, oneLine(title), true
}

// listMarker strips a list marker ("- ", "* ", "+ ", "1. ", "1) ", "- [ ] ") from a line.
func listMarker(s string) string {
	s = strings.TrimSpace(s)
	switch {
	case strings.HasPrefix(s, "- "), strings.HasPrefix(s, "* "), strings.HasPrefix(s, "+ "):
		s = strings.TrimSpace(s[2:])
	default:
		i := 0
		for i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i > 0 && i+1 < len(s) && (s[i] == '.' || s[i] == ')') && s[i+1] == ' ' {
			s = strings.TrimSpace(s[i+2:])
		}
	}
	for _, box := range []string{"[ ] ", "[x] ", "[X] "} {
		s = strings.TrimPrefix(s, box)
	}
	return s
}

// lineLinks finds the links of one line. A line with exactly one link takes the rest of
// the line as the link's title (bare URL) or notes (Markdown link).
func lineLinks(line string) ([]*Entry, string) {
	s := listMarker(line)
	var out []*Entry
	var rest strings.Builder
	problem := ""
	for i := 0; i < len(s); {
		switch {
		case s[i] == '[' && (i == 0 || s[i-1] != '\\'):
			title, url, end, ok := markdownLink(s, i)
			if ok && i > 0 && s[i-1] == '!' { // an image, not a link
				i = end
				continue
			}
			if ok {
				out = append(out, &Entry{Kind: Link, Title: oneLine(title), URL: url})
				rest.WriteByte(' ')
				i = end
				continue
			}
			if strings.Contains(s[i:], "](") {
				return nil, "a Markdown link that does not close: [title](address)"
			}
		case s[i] == '<':
			if end := strings.IndexByte(s[i:], '>'); end > 0 && isWebURL(s[i+1:i+end]) {
				out = append(out, &Entry{Kind: Link, URL: s[i+1 : i+end]})
				rest.WriteByte(' ')
				i += end + 1
				continue
			}
		case isLetter(s[i]) && schemeURL(s[i:]) && (i == 0 || !isURLByte(s[i-1])):
			end := i
			for end < len(s) && s[end] > ' ' && s[end] != '<' && s[end] != '>' && s[end] != '"' {
				end++
			}
			u := trimURLTail(s[i:end])
			out = append(out, &Entry{Kind: Link, URL: u})
			rest.WriteByte(' ')
			i += len(u)
			continue
		}
		rest.WriteByte(s[i])
		i++
	}
	if len(out) == 1 {
		text := strings.Trim(oneLine(rest.String()), " -–—:|·•,;")
		if out[0].Title == "" {
			out[0].Title = text
		} else {
			out[0].Notes = text
		}
	}
	return out, problem
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// schemeURL reports whether s starts with an absolute URL of a hierarchical scheme
// ("https://", "ftp://"): the caller decides which schemes to keep.
func schemeURL(s string) bool {
	i := 0
	for i < len(s) && i < 16 && (isLetter(s[i]) || i > 0 && (s[i] >= '0' && s[i] <= '9' || s[i] == '+' || s[i] == '-' || s[i] == '.')) {
		i++
	}
	return i > 0 && strings.HasPrefix(s[i:], "://") && len(s) > i+3 && s[i+3] > ' '
}

func isURLByte(c byte) bool {
	return c > ' ' && c != '(' && c != '[' && c != '<' && c != '"' && c != '\''
}

func isWebURL(s string) bool {
	l := strings.ToLower(s[:min(len(s), 8)])
	return strings.HasPrefix(l, "http://") && len(s) > 7 || strings.HasPrefix(l, "https://") && len(s) > 8
}

// trimURLTail drops sentence punctuation after a bare URL, and a closing parenthesis that
// opens nowhere in it.
func trimURLTail(u string) string {
	for len(u) > 0 {
		c := u[len(u)-1]
		switch {
		case strings.IndexByte(".,;:!?'*_", c) >= 0:
			u = u[:len(u)-1]
		case c == ')' && strings.Count(u, "(") < strings.Count(u, ")"):
			u = u[:len(u)-1]
		default:
			return u
		}
	}
	return u
}

// markdownLink reads [title](url "optional title") at s[i]; end is just after it.
func markdownLink(s string, i int) (title, url string, end int, ok bool) {
	depth := 0
	j := i
	for ; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
			continue
		case '[':
			depth++
		case ']':
			depth--
		}
		if depth == 0 {
			break
		}
	}
	if j >= len(s)-1 || s[j+1] != '(' {
		return "", "", 0, false
	}
	title = unescapeMarkdown(s[i+1 : j])
	k := j + 2
	for k < len(s) && s[k] == ' ' {
		k++
	}
	if k < len(s) && s[k] == '<' { // [t](<url with spaces>)
		e := strings.IndexByte(s[k:], '>')
		if e < 0 {
			return "", "", 0, false
		}
		url = s[k+1 : k+e]
		k += e + 1
	} else {
		start, parens := k, 0
		for ; k < len(s) && s[k] != ' '; k++ {
			if s[k] == '(' {
				parens++
			} else if s[k] == ')' {
				if parens == 0 {
					break
				}
				parens--
			}
		}
		url = s[start:k]
	}
	for k < len(s) && s[k] != ')' { // skip an optional "title"
		if s[k] == '"' {
			e := strings.IndexByte(s[k+1:], '"')
			if e < 0 {
				return "", "", 0, false
			}
			k += e + 2
			continue
		}
		k++
	}
	if k >= len(s) || url == "" {
		return "", "", 0, false
	}
	return title, strings.TrimSpace(url), k + 1, true
}

func unescapeMarkdown(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\\`*_{}[]()#+-.!|<>", s[i+1]) >= 0 {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
