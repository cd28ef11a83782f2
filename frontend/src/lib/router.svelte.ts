// The current route, kept in the location hash so that Back, Forward and reloads work.
// In-app navigation pushes history entries carrying their depth, so that Esc can go back
// only within the app (and to the parent view when there is no app history).
import { formatRoute, home, parentOf, parseHash, type Route } from './routes';

interface Entry {
  mundaneum: number; // depth of this entry in the app's own history
}

function depthOf(state: unknown): number {
  const d = (state as Partial<Entry> | null)?.mundaneum;
  return typeof d === 'number' && Number.isFinite(d) && d >= 0 ? d : 0;
}

class Router {
  route = $state<Route>(home);
  #depth = 0;
  #started = false;

  /** Reads the current location and follows Back/Forward and typed hashes from now on. */
  start(): () => void {
    this.#sync();
    if (this.#started) return () => {};
    this.#started = true;
    const onpop = () => this.#sync();
    window.addEventListener('popstate', onpop);
    window.addEventListener('hashchange', onpop);
    return () => {
      window.removeEventListener('popstate', onpop);
      window.removeEventListener('hashchange', onpop);
      this.#started = false;
    };
  }

  #sync() {
    this.route = parseHash(location.hash);
    this.#depth = depthOf(history.state);
  }

  /** Navigates to r with a new history entry (nothing happens if r is where we are). */
  go(r: Route) {
    const hash = formatRoute(r);
    if (hash === formatRoute(this.route)) return;
    this.#depth++;
    history.pushState({ mundaneum: this.#depth } satisfies Entry, '', hash);
    this.route = r;
  }

  /** Replaces the current entry with r (typing in the search box does not pile up history). */
  replace(r: Route) {
    const hash = formatRoute(r);
    if (hash !== location.hash) history.replaceState({ mundaneum: this.#depth } satisfies Entry, '', hash);
    this.route = r;
  }

  /** Goes back within the app, or to the parent view; returns whether it went anywhere. */
  back(): boolean {
    if (this.#depth > 0) {
      history.back();
      return true;
    }
    const p = parentOf(this.route);
    if (p) {
      this.replace(p);
      return true;
    }
    return false;
  }
}

/** The app's router. */
export const router = new Router();
