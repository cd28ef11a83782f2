// The capture API of a Mundaneum on loopback (app/web/capture.go): JSON over POST, a
// paired browser's token in the Authorization header. The browser sends the extension's
// own Origin with each call, which Mundaneum checks against the one it paired from.
import { CaptureError, errorFrom } from './errors';

export interface Paired {
  token: string;
  clientId: number;
  workspace: string;
  door: 'window' | 'serve';
}

export interface Hello {
  workspace: string;
  door: 'window' | 'serve';
  clientId: number;
  browser: string;
}

/** A pointer to the page in the library. */
export interface Place {
  id: number;
  libraryId: number;
  library: string;
  title: string;
}

export interface Status {
  url: string;
  places: Place[];
  page: { id: number; title: string; state: string; fetchedAt: string; copy: boolean } | null;
}

/** A library a page may be added to. */
export interface LibraryChoice {
  id: number;
  path: string;
  recent: boolean;
}

export interface TagChoice {
  tag: string;
  count: number;
}

export interface Saved {
  pageId: number;
  title: string;
  changed: boolean;
  bytes: number;
}

export interface Addition {
  url: string;
  title: string;
  notes: string;
  tags: string[];
  libraryId: number;
  library: string;
  page: { title: string; dom: string } | null;
}

export interface Added {
  place: Place;
  existing: boolean;
  alsoIn: string[];
  saved: Saved | null;
}

/** How long a call may take: the badge's are quick, a page's DOM may be megabytes. */
const quick = 5000;
const slow = 60000;

/** A Mundaneum at base ("http://127.0.0.1:7343/"), called with token ("" before pairing). */
export class Mundaneum {
  constructor(
    readonly base: string,
    private readonly token: string,
    private readonly fetcher: typeof fetch = (...a) => fetch(...a),
  ) {}

  private async call<T>(name: string, body: unknown, timeout = quick): Promise<T> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    let res: Response;
    try {
      res = await this.fetcher(new URL(`capture/${name}`, this.base).href, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        cache: 'no-store',
        credentials: 'omit',
        redirect: 'error',
        signal: AbortSignal.timeout(timeout),
      });
    } catch (err) {
      throw new CaptureError('unreachable', `cannot reach Mundaneum at ${this.base}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const text = await res.text();
    if (!res.ok) throw errorFrom(res.status, text);
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new CaptureError('internal', `${name}: Mundaneum sent an answer that is not JSON`);
    }
  }

  /** Exchanges a pairing code shown in Mundaneum's Settings for this browser's token. */
  pair(code: string, browser: string): Promise<Paired> {
    return this.call('pair', { code, browser });
  }

  hello(): Promise<Hello> {
    return this.call('hello', {});
  }

  /** Where a page is in the library, and whether its copy is stored. */
  status(url: string): Promise<Status> {
    return this.call('status', { url });
  }

  libraries(query: string, limit = 12): Promise<LibraryChoice[]> {
    return this.call('libraries', { query, limit });
  }

  tags(prefix: string, limit = 12): Promise<TagChoice[]> {
    return this.call('tags', { prefix, limit });
  }

  add(a: Addition): Promise<Added> {
    return this.call('add', a, a.page ? slow : quick * 2);
  }

  /** Saves the page as the browser shows it, as its newest version. */
  save(url: string, title: string, dom: string): Promise<Saved> {
    return this.call('save', { url, title, dom }, slow);
  }
}
