package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"mundaneum/backend/check"
	"mundaneum/backend/crawl"
	"mundaneum/backend/index"
	"mundaneum/backend/libsearch"
	"mundaneum/backend/render"
	"mundaneum/backend/search"
	"mundaneum/backend/store"
	"mundaneum/backend/vocab"
)

// workspace is one open workspace and what runs on it: its index (which follows the
// crawls in the background), crawl jobs and searches.
type workspace struct {
	st     *store.Store
	idx    *index.Index
	jobs   *crawl.Jobs
	search *search.Searcher
	// library searches the library's own index (the postings a search lists above the pages).
	library *libsearch.Searcher
	checks  *check.Jobs
	// archives are the imports and exports under way.
	archives *archiveJobs

	stopScheduler func() // set once the scheduler runs
	mu            sync.Mutex
	progress      *CheckProgress // of the latest check run
}

func newWorkspace(st *store.Store) (*workspace, error) {
	idx, err := index.Open(context.Background(), st)
	if err != nil {
		return nil, fmt.Errorf("open the search index of %s: %w", st.Path(), err)
	}
	// The index writes the file of its terms when idle: the first search of a workspace
	// just crawled or rebuilt has its vocabulary at once.
	idx.KeepVocabularyFile(vocab.WriteFile)
	s := search.New(idx.SearchDB())
	// The window and serve answer many queries: the searcher readies itself for them in the
	// background until the workspace closes (the index's terms in memory, the files read
	// into the OS's cache; see backend/search/warm.go).
	s.Prepare(context.Background())
	return &workspace{st: st, idx: idx, jobs: crawl.NewJobs(st, idx), search: s, library: libsearch.New(idx.SearchDB()),
		checks: check.NewJobs(st, CheckLibrary(st)), archives: newArchiveJobs()}, nil
}

// close stops what runs on the workspace (crawls pause, a check run stops) and closes it.
func (w *workspace) close() {
	w.search.Close()
	if w.stopScheduler != nil {
		w.stopScheduler()
	}
	w.checks.Close()
	w.archives.close()
	w.jobs.Close()
	w.idx.Close()
	w.st.Close()
}

func (w *workspace) setProgress(p CheckProgress) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.progress = &p
}

func (w *workspace) lastProgress() (CheckProgress, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.progress == nil {
		return CheckProgress{}, false
	}
	return *w.progress, true
}

// Dialogs are the native file dialogs of the window; the browser front door has none.
type Dialogs interface {
	// OpenFile asks for an existing file; "" when the user cancels.
	OpenFile(title string) (string, error)
	// SaveFile asks for a new file's name; "" when the user cancels.
	SaveFile(title, defaultName string) (string, error)
	// SaveDocument asks where to save a document of any kind; "" when the user cancels.
	SaveDocument(title, defaultName string) (string, error)
	// OpenArchive asks for an archive file to import (WARC, WWWW); "" when the user cancels.
	OpenArchive(title string) (string, error)
}

// Extension is the file name extension of workspaces.
const Extension = ".mundaneum"

// Workspace describes the open workspace.
func (a *App) Workspace() (WorkspaceInfo, error) {
	traceStep("app-mounted")
	w := a.ws()
	info := WorkspaceInfo{Path: w.st.Path(), CanChoose: a.dialogs != nil}
	if a.person.guest {
		info.Path = "" // where the owner keeps it is the owner's
	}
	// The workspace is its file, its WAL and its index (derived, but on the same disk).
	for _, f := range append([]string{w.st.Path(), w.st.Path() + "-wal"}, index.Files(w.st.Path())...) {
		if fi, err := os.Stat(f); err == nil {
			info.Bytes += fi.Size()
		}
	}
	return info, nil
}

// ChooseWorkspace asks for a workspace file with the window's file dialog (create: a new
// one) and returns its path, "" when cancelled. The browser front door has no dialogs:
// type a path into OpenWorkspace instead.
func (a *App) ChooseWorkspace(create bool) (string, error) {
	if a.dialogs == nil {
		return "", &Error{Code: CodeUnavailable, Message: "file dialogs exist only in the desktop window: type the path"}
	}
	if create {
		return a.dialogs.SaveFile("New workspace", "research"+Extension)
	}
	return a.dialogs.OpenFile("Open workspace")
}

// OpenWorkspace switches to the workspace at path, creating it when create is set (and
// refusing to overwrite anything when it is). Running crawls of the old one are paused.
func (a *App) OpenWorkspace(path string, create bool) (WorkspaceInfo, error) {
	path = strings.TrimSpace(path)
	if path == "" {
		return WorkspaceInfo{}, &Error{Code: CodeInvalid, Message: "no workspace path given"}
	}
	path, err := filepath.Abs(path)
	if err != nil {
		return WorkspaceInfo{}, apiError(err)
	}
	_, statErr := os.Stat(path)
	switch {
	case create && statErr == nil:
		return WorkspaceInfo{}, &Error{Code: CodeConflict, Message: path + " already exists"}
	case !create && errors.Is(statErr, os.ErrNotExist):
		return WorkspaceInfo{}, &Error{Code: CodeNotFound, Message: "no workspace at " + path}
	}
	if cur := a.ws(); cur != nil && path == cur.st.Path() {
		return a.Workspace()
	}
	w, err := openWorkspace(context.Background(), path)
	if err != nil {
		return WorkspaceInfo{}, apiError(fmt.Errorf("open %s: %w", path, err))
	}
	if a.stopWaiting != nil {
		a.stopWaiting() // for the workspace another process held
	}
	a.install(context.Background(), w, true)
	return a.Workspace()
}

// Settings returns the workspace's settings.
func (a *App) Settings() (Settings, error) {
	s, err := a.ws().st.Settings(context.Background())
	if err != nil {
		return Settings{}, apiError(err)
	}
	if a.person.guest {
		s.From, s.UserAgentSuffix = "", "" // the owner's address: not a guest's to read
	}
	return Settings(s), nil
}

// SaveSettings checks and stores the workspace's settings and returns them as stored.
func (a *App) SaveSettings(s Settings) (Settings, error) {
	if err := s.check(); err != nil {
		return Settings{}, err
	}
	if err := a.ws().st.SaveSettings(context.Background(), store.Settings(s)); err != nil {
		return Settings{}, apiError(err)
	}
	return a.Settings()
}

func (s *Settings) check() error {
	s.From, s.UserAgentSuffix = strings.TrimSpace(s.From), strings.TrimSpace(s.UserAgentSuffix)
	switch {
	case s.DelayMs < 0 || s.DelayMs > 600_000:
		return &Error{Code: CodeInvalid, Message: "the delay must be between 0 and 600000 ms"}
	case s.PerHost < 1 || s.PerHost > 64:
		return &Error{Code: CodeInvalid, Message: "requests per host must be between 1 and 64"}
	case s.Agents < 1 || s.Agents > 256:
		return &Error{Code: CodeInvalid, Message: "agents must be between 1 and 256"}
	case s.MaxPerHost < 1:
		return &Error{Code: CodeInvalid, Message: "the per-host page cap must be at least 1"}
	case s.MaxQueryVariants < 1:
		return &Error{Code: CodeInvalid, Message: "the query-variant budget must be at least 1"}
	case s.MaxBody < 1<<10:
		return &Error{Code: CodeInvalid, Message: "the body limit must be at least 1024 bytes"}
	case s.Theme != "system" && s.Theme != "light" && s.Theme != "dark":
		return &Error{Code: CodeInvalid, Message: "theme must be system, light or dark"}
	case len(s.UserAgentSuffix) > 200 || strings.ContainsAny(s.UserAgentSuffix, "()\r\n"):
		return &Error{Code: CodeInvalid, Message: "the User-Agent suffix must be one line without parentheses, at most 200 characters"}
	case len(s.From) > 200 || (s.From != "" && !strings.Contains(s.From, "@")) || strings.ContainsAny(s.From, "\r\n <>"):
		return &Error{Code: CodeInvalid, Message: "From must be an e-mail address"}
	}
	mode, err := render.ParseMode(s.Render)
	if err != nil {
		return &Error{Code: CodeInvalid, Message: "rendering must be auto, always or never"}
	}
	s.Render = string(mode)
	return nil
}
