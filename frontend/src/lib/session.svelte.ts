// What the whole app shares about the open workspace: its crawls (live from crawl:progress
// and crawl:done events, with a poll as fallback), its counts, saved views, settings and
// file. "workspace:changed" reloads all of it. The counts are a read of a few rows (the
// backend keeps them), asked for every few seconds while the window is visible: asked only
// while a crawl ran, they missed every other change (a library pointer's page fetched, an
// import, a check) and the status line disagreed with Settings and `status`.
import {
  listCrawls,
  onEvent,
  settings as fetchSettings,
  status as fetchStatus,
  toApiError,
  views as fetchViews,
  workspace as fetchWorkspace,
  type Crawl,
  type Settings,
  type Status,
  type View,
  type WorkspaceInfo,
} from '../api';
import { mergeCrawls, upsertCrawl } from './crawls';
import { applyTheme, asTheme } from './theme';
import { single } from './single';

const crawlPollMs = 2000;
/** When no crawl runs, the crawl list is polled every this many crawl polls. */
const idlePolls = 5;
const statusPollMs = 5000;

class Session {
  crawls = $state<Crawl[]>([]);
  crawlsLoaded = $state(false);
  crawlsError = $state('');
  status = $state<Status | null>(null);
  statusError = $state('');
  views = $state<View[]>([]);
  viewsError = $state('');
  settings = $state<Settings | null>(null);
  workspace = $state<WorkspaceInfo | null>(null);
  /** Bumped when another workspace is opened: views that hold data reload on it. */
  generation = $state(0);

  /** Crawls whose end (crawl:done) was reported, by the number of the report. */
  private ended = new Map<number, number>();
  private reports = 0;

  refreshCrawls = single(async () => {
    try {
      const asked = this.reports;
      const polled = await listCrawls();
      const newer = new Set([...this.ended].filter(([, n]) => n > asked).map(([id]) => id));
      this.crawls = mergeCrawls(this.crawls, polled, newer);
      this.crawlsError = '';
    } catch (err) {
      this.crawlsError = toApiError(err).message;
    } finally {
      this.crawlsLoaded = true;
    }
  });

  refreshStatus = single(async () => {
    try {
      this.status = await fetchStatus();
      this.statusError = '';
    } catch (err) {
      this.statusError = toApiError(err).message;
    }
  });

  refreshViews = single(async () => {
    try {
      this.views = await fetchViews();
      this.viewsError = '';
    } catch (err) {
      this.viewsError = toApiError(err).message;
    }
  });

  refreshSettings = single(async () => {
    try {
      this.settings = await fetchSettings();
      applyTheme(asTheme(this.settings.theme));
    } catch {
      // the settings view shows its own error when it loads them
    }
  });

  refreshWorkspace = single(async () => {
    try {
      this.workspace = await fetchWorkspace();
    } catch {
      // shown in the settings view
    }
  });

  /** Reports whether a crawl is running. */
  get running(): boolean {
    return this.crawls.some((c) => c.state === 'running');
  }

  /** Merges a crawl's new state (from an event or an action). */
  updateCrawl(c: Crawl) {
    this.crawls = upsertCrawl(this.crawls, c);
  }

  /** Reloads everything (another workspace is open). */
  reload() {
    this.crawls = [];
    this.crawlsLoaded = false;
    this.status = null;
    this.views = [];
    this.generation++;
    void this.refreshCrawls();
    void this.refreshStatus();
    void this.refreshViews();
    void this.refreshSettings();
    void this.refreshWorkspace();
  }

  /** Loads the workspace's state and follows its events; returns the stop function. */
  start(onWorkspaceChanged: () => void): () => void {
    const offs = [
      onEvent('crawl:progress', (c) => this.updateCrawl(c)),
      onEvent('crawl:done', (c) => {
        this.ended.set(c.id, ++this.reports);
        this.updateCrawl(c);
        void this.refreshStatus();
      }),
      onEvent('index:done', () => void this.refreshStatus()),
      onEvent('workspace:changed', () => {
        this.reload();
        onWorkspaceChanged();
      }),
    ];
    void this.refreshCrawls();
    void this.refreshStatus();
    void this.refreshViews();
    void this.refreshSettings();
    void this.refreshWorkspace();
    const visible = () => typeof document === 'undefined' || !document.hidden;
    let tick = 0;
    const tc = setInterval(() => {
      tick++;
      if (visible() && (this.running || tick % idlePolls === 0)) void this.refreshCrawls();
    }, crawlPollMs);
    const ts = setInterval(() => visible() && this.refreshStatus(), statusPollMs);
    return () => {
      offs.forEach((off) => off());
      clearInterval(tc);
      clearInterval(ts);
    };
  }
}

/** The app's session with its workspace. */
export const session = new Session();
