// The Library view's state and operations, kept apart from its markup as search.svelte.ts
// keeps the search view's: the page shown and its postings (fetched a screenful first, the
// rest as the list's end scrolls into view), "What's new", the search within, the open panel
// (a form, import, delete, move, or a password asked for), and every GENVL operation with the
// notice it leaves. An operation refused for want of a password asks for one and runs again
// with it. The view (views/LibraryView.svelte) owns the effects that call load.
import {
  libraryAcceptRedirect,
  libraryCopy,
  libraryCrawl,
  libraryCreate,
  libraryDelete,
  libraryEdit,
  libraryExport,
  libraryExportFile,
  libraryMove,
  libraryPage,
  libraryPlaceView,
  libraryPoint,
  libraryPosting,
  libraryPreviewDelete,
  libraryRecent,
  libraryReport,
  libraryResolve,
  librarySearch,
  libraryRedo,
  libraryUndo,
  toApiError,
  type LibKind,
  type LibPage,
  type LibPosting,
  type LibRecent,
  type LibRemoval,
  type LibSearchResults,
} from '../api';
import { door } from './door.svelte';
import { editable } from './keys';
import { download, dropPosition, parseTags } from './library';
import type { FormValues } from './LibForm.svelte';
import type { RowAction } from './LibRow.svelte';
import { router } from './router.svelte';
import type { Route } from './routes';
import { session } from './session.svelte';

/** Postings fetched first (a screenful and more: the first paint waits for no more). */
export const firstPage = 50;
/** Postings fetched at a time after the first. */
export const pageSize = 200;

/** The panel open above the list, if any. */
export type Panel =
  | { kind: 'form'; form: LibKind; editing?: LibPosting; body?: string }
  | { kind: 'import' }
  | { kind: 'delete'; ids: number[]; removal: LibRemoval }
  | { kind: 'move'; p: LibPosting }
  | { kind: 'ask'; message: string; retry: (pw: string) => Promise<void> };

type LibraryRoute = Extract<Route, { name: 'library' }>;

export class LibraryController {
  page = $state<LibPage | null>(null);
  postings = $state<LibPosting[]>([]);
  loading = $state(false);
  error = $state('');
  recent = $state<LibRecent | null>(null);
  hits = $state<LibSearchResults | null>(null);
  /** The text in the search box (route.q once the search is submitted). */
  query = $state('');
  panel = $state<Panel | null>(null);
  panelError = $state('');
  busy = $state(false);
  notice = $state('');
  /** The posting being dragged (0: none). */
  dragging = $state(0);

  #route: () => LibraryRoute;

  /** route gives the view's current route (a prop, so read through a function). */
  constructor(route: () => LibraryRoute) {
    this.#route = route;
    this.query = route().q;
  }

  get id(): number {
    return this.#route().id;
  }

  load = async () => {
    const route = this.#route();
    this.loading = true;
    try {
      // A reload keeps what was shown (up to a thousand postings).
      const p = await libraryPage(route.id, route.order, 0, Math.min(Math.max(firstPage, this.postings.length), 1000));
      this.page = p;
      this.postings = p.postings;
      this.error = '';
    } catch (err) {
      this.error = toApiError(err).message;
    } finally {
      this.loading = false;
    }
    if (route.tab === 'new') void this.loadRecent();
    if (route.q) void this.runSearch(route.q);
  };

  loadMore = async () => {
    const page = this.page;
    if (!page || this.loading || this.postings.length >= page.total) return;
    this.loading = true;
    try {
      const p = await libraryPage(this.id, this.#route().order, this.postings.length, pageSize);
      this.postings = [...this.postings, ...p.postings];
    } catch (err) {
      this.error = toApiError(err).message;
    } finally {
      this.loading = false;
    }
  };

  async loadRecent() {
    try {
      this.recent = await libraryRecent(this.id, 0, 200);
    } catch (err) {
      this.error = toApiError(err).message;
    }
  }

  async runSearch(q: string) {
    if (!q.trim()) {
      this.hits = null;
      return;
    }
    try {
      this.hits = await librarySearch(q, this.id, 0, 100);
    } catch (err) {
      this.error = toApiError(err).message;
    }
  }

  /** Goes to this library with some of the route changed. */
  go(r: Partial<LibraryRoute>) {
    const route = this.#route();
    router.go({ name: 'library', id: route.id, tab: route.tab, q: route.q, order: route.order, ...r });
  }

  /** Runs an operation; if it needs a password, asks for one and runs it again with it. */
  async guarded(run: (pw: string) => Promise<void>): Promise<void> {
    this.panelError = '';
    this.busy = true;
    try {
      await run('');
    } catch (err) {
      const e = toApiError(err);
      if (e.code === 'forbidden') this.panel = { kind: 'ask', message: e.message, retry: run };
      else this.panelError = e.message;
    } finally {
      this.busy = false;
    }
  }

  retryWith = async (pw: string) => {
    if (this.panel?.kind !== 'ask') return;
    const run = this.panel.retry;
    try {
      await run(pw);
    } catch (err) {
      this.panelError = toApiError(err).message;
    }
  };

  done(message: string) {
    this.panel = null;
    this.panelError = '';
    this.notice = message;
    void this.load();
  }

  openForm(form: LibKind, editing?: LibPosting, body?: string) {
    this.panelError = '';
    if (form === 'view') void session.refreshViews();
    this.panel = { kind: 'form', form, editing, body };
  }

  openImport() {
    this.panelError = '';
    this.panel = { kind: 'import' };
  }

  closePanel = () => {
    this.panel = null;
  };

  submitForm = async (v: FormValues) => {
    if (this.panel?.kind !== 'form') return;
    const { form, editing } = this.panel;
    const id = this.id;
    const input = {
      title: v.title,
      url: v.url,
      notes: v.notes,
      body: v.body,
      tags: parseTags(v.tags),
      purpose: v.purpose,
      createOnly: v.createOnly,
      order: v.order,
      image: v.image,
      view: v.view,
      author: v.author,
      email: v.email,
      password: v.password,
      libraryPassword: '',
    };
    if (editing) {
      const e = {
        title: v.title,
        author: v.author,
        email: v.email,
        image: v.image,
        clearImage: v.clearImage,
        ...(form === 'pointer' ? { url: v.url, notes: v.notes, tags: input.tags } : {}),
        ...(form === 'report' ? { url: v.url, body: v.body } : {}),
        ...(form === 'library' ? { purpose: v.purpose, createOnly: v.createOnly, order: v.order } : {}),
        ...(v.password ? { newPassword: v.password } : {}),
        ...(form === 'library' && !door.guest && v.openToGuests !== editing.openToGuests ? { openToGuests: v.openToGuests } : {}),
      };
      await this.guarded(async (pw) => {
        await libraryEdit(editing.id, e, pw);
        this.done(`Saved “${v.title}”.`);
      });
      return;
    }
    // Posting into a protected library needs its password: asked for, then given as
    // libraryPassword (the posting's own password is v.password).
    await this.guarded(async (pw) => {
      input.libraryPassword = pw;
      switch (form) {
        case 'library':
          await libraryCreate(id, input);
          this.done(`Created the library “${v.title}”.`);
          break;
        case 'pointer': {
          const a = await libraryPoint(id, input);
          this.done(`Added “${a.posting.title}”.${a.alsoIn.length ? ` It is also in ${a.alsoIn.join(', ')}.` : ''}`);
          break;
        }
        case 'report':
          await libraryReport(id, input);
          this.done(`Posted the report “${v.title}”.`);
          break;
        case 'view':
          await libraryPlaceView(id, v.view, v.title, pw);
          this.done(`Placed the view “${v.title || v.view}”.`);
          break;
      }
    });
  };

  async askDelete(ids: number[]) {
    this.panelError = '';
    try {
      this.panel = { kind: 'delete', ids, removal: await libraryPreviewDelete(ids) };
    } catch (err) {
      this.notice = toApiError(err).message;
    }
  }

  confirmDelete = async (password: string) => {
    if (this.panel?.kind !== 'delete') return;
    const { ids } = this.panel;
    this.busy = true;
    try {
      await libraryDelete(ids, password);
      this.done('Deleted. Undo puts it back.');
      if (ids.includes(this.id)) router.go({ name: 'library', id: this.page?.library.parentId || 1, tab: 'list', q: '', order: '' });
    } catch (err) {
      this.panelError = toApiError(err).message;
    } finally {
      this.busy = false;
    }
  };

  undo = async () => {
    await this.guarded(async (pw) => {
      const what = await libraryUndo(pw);
      this.done(`Undone: ${what}.`);
    });
  };

  redo = async () => {
    await this.guarded(async (pw) => {
      const what = await libraryRedo(pw);
      this.done(`Redone: ${what}.`);
    });
  };

  /** Whether Undo and Redo are offered: the caller's own change, or one whose password may be given. */
  get canUndo(): boolean {
    const p = this.page;
    return !!p?.lastChange && (p.lastChangeMine || p.undoProtected);
  }
  get canRedo(): boolean {
    const p = this.page;
    return !!p?.nextRedo && (p.nextRedoMine || p.redoProtected);
  }

  /** Ctrl+Z undoes, Ctrl+Shift+Z and Ctrl+Y redo (⌘ on a Mac), outside the text fields, whose
   * own undo they keep. */
  undoKeys = (e: KeyboardEvent) => {
    if (!(e.ctrlKey || e.metaKey) || e.altKey || editable(e.target) || this.panel || this.busy) return;
    const k = e.key.toLowerCase();
    if (k === 'z' && !e.shiftKey && this.canUndo) {
      e.preventDefault();
      void this.undo();
    } else if (((k === 'z' && e.shiftKey) || (k === 'y' && !e.shiftKey)) && this.canRedo) {
      e.preventDefault();
      void this.redo();
    }
  };

  async crawlFrom(p: LibPosting, scope: string, maxPages: number) {
    try {
      const c = await libraryCrawl(p.id, scope, maxPages);
      session.updateCrawl(c);
      this.notice = scope === 'list' && maxPages === 1 ? `Fetching ${p.url}…` : `Crawl ${c.id} started from “${p.title}”: see Crawls.`;
    } catch (err) {
      this.notice = toApiError(err).message;
    }
  }

  onaction = async (a: RowAction, p: LibPosting) => {
    this.notice = '';
    switch (a) {
      case 'edit':
        if (p.kind === 'report') {
          try {
            const d = await libraryPosting(p.id);
            this.openForm('report', p, d.body);
          } catch (err) {
            this.notice = toApiError(err).message;
          }
        } else {
          this.openForm(p.kind as LibKind, p);
        }
        break;
      case 'delete':
        void this.askDelete([p.id]);
        break;
      case 'move':
        this.panelError = '';
        this.panel = { kind: 'move', p };
        break;
      case 'crawl':
        void this.crawlFrom(p, 'tree', 0);
        break;
      case 'fetch':
        void this.crawlFrom(p, 'list', 1);
        break;
      case 'accept':
        await this.guarded(async (pw) => {
          const n = await libraryAcceptRedirect(p.id, pw);
          this.done(`“${p.title}” now points at ${n.url}; the old address is kept as an alias (Undo takes it back).`);
        });
        break;
    }
  };

  moveTo = async (path: string, copy: boolean) => {
    if (this.panel?.kind !== 'move') return;
    const p = this.panel.p;
    await this.guarded(async (pw) => {
      const dest = await libraryResolve(path);
      if (copy) await libraryCopy([p.id], dest, -1, pw);
      else await libraryMove([p.id], dest, -1, pw);
      this.done(`${copy ? 'Copied' : 'Moved'} “${p.title}” to ${path}.`);
    });
  };

  #shownIds(): number[] {
    return [...(this.page?.libraries ?? []).map((l) => l.id), ...this.postings.map((p) => p.id)];
  }

  dropOn = async (target: LibPosting, where: 'into' | 'before' | 'after') => {
    const dragged = this.dragging;
    this.dragging = 0;
    if (!dragged || dragged === target.id) return;
    this.notice = '';
    await this.guarded(async (pw) => {
      if (where === 'into') {
        await libraryMove([dragged], target.id, -1, pw);
        this.done(`Moved into “${target.title}”.`);
      } else {
        await libraryMove([dragged], this.id, dropPosition(this.#shownIds(), dragged, target.id, where === 'after'), pw);
        this.done('Arranged by hand.');
      }
    });
  };

  /** Drops on a breadcrumb: move up into that library. */
  crumbDrop(e: DragEvent, target: number, title: string) {
    const dragged = this.dragging;
    this.dragging = 0;
    if (!dragged) return;
    e.preventDefault();
    void this.guarded(async (pw) => {
      await libraryMove([dragged], target, -1, pw);
      this.done(`Moved into “${title}”.`);
    });
  }

  async exportAs(format: string) {
    this.notice = '';
    try {
      if (session.workspace?.canChoose) {
        const path = await libraryExportFile(this.id, format);
        if (path) this.notice = `Exported to ${path}.`;
        return;
      }
      const x = await libraryExport(this.id, format);
      download(x.name, x.content, format === 'json' ? 'application/json' : 'text/html');
      this.notice = x.note ? `Exported. Note: ${x.note}.` : 'Exported.';
    } catch (err) {
      this.notice = toApiError(err).message;
    }
  }

  /** The search box was submitted: search within this library. */
  onsearch = (e: SubmitEvent) => {
    e.preventDefault();
    this.go({ q: this.query.trim(), tab: 'list' });
  };
}
