// The next sanitised document shown in the frame that holds one already (issue 27: a click in
// an offline copy). Loading a new document (the frame's source) makes the browser navigate the frame, build a new
// document, parse all of it and lay all of it out before the load event; most of a click's
// time went there, the more so for a big page. Here the frame keeps its document, and with it
// its sandbox (the frame's attribute), its Content-Security-Policy (applied when its first
// document was parsed; a policy is never lifted) and the click listeners SafeFrame put on it;
// only its style sheets, title and body are replaced, and a big body in two parts: about a
// screenful first, the rest once that has been painted.
//
// Safety, as strict as a new document in the frame: the next document is parsed by DOMParser, whose document has
// no browsing context (nothing in it runs, nothing loads); its nodes only ever go into the
// sandboxed frame's document (no script runs there: the sandbox has no allow-scripts), never
// into the app's. It is swapped in only when it declares exactly the policy the frame's
// document is under; otherwise (or when the frame holds no loaded document) the caller assigns
// the frame its source as before. Of the head only <style> and <title> are taken: no <meta>, <link> or
// <base> of a document is inserted by script.

/** Characters of text shown before the first paint: more than a screenful of a copy. */
export const firstPartChars = 8000;

/** The Content-Security-Policy a document's head declares ('' when none). */
export function policyOf(d: Document): string {
  const m = d.head?.querySelector('meta[http-equiv="Content-Security-Policy" i]');
  return m?.getAttribute('content') ?? '';
}

/** A document swapped in: call rest() to put in what the first part left out. */
export interface Swapped {
  /** Whether rest() has anything to add. */
  readonly partial: boolean;
  /** Appends the rest of the body (once; later calls do nothing). */
  rest(): void;
}

/**
 * Shows html in the frame's document d in place of the one it holds. Returns null, and
 * changes nothing, when html does not declare the policy d is under (the caller then loads it
 * as the frame's source). With whole unset, a body of more than firstPartChars characters of text
 * is shown up to about that many; rest() puts in the others, in their places.
 */
export function swapDocument(d: Document, html: string, whole: boolean): Swapped | null {
  const policy = policyOf(d);
  if (policy === '' || !d.body || !d.head) return null;
  const next = new DOMParser().parseFromString(html, 'text/html');
  if (policyOf(next) !== policy) return null;

  // The reader starts at the top of the new page (the old page's layout is clean here, so
  // this forces no layout of the new one).
  d.scrollingElement?.scrollTo?.(0, 0);

  // The head: the frame's own <meta>s stay; the style sheets and title are the next one's.
  for (const el of [...d.head.children]) if (el.localName !== 'meta') el.remove();
  for (const el of [...next.head.children]) if (el.localName === 'style' || el.localName === 'title') d.head.append(el);
  const root = d.documentElement;
  for (const name of ['lang', 'dir']) {
    const v = next.documentElement.getAttribute(name);
    if (v === null) root.removeAttribute(name);
    else root.setAttribute(name, v);
  }

  const body = next.body.cloneNode(false) as HTMLElement;
  const pending: [Element, Element][] = [];
  if (whole) body.append(...next.body.childNodes);
  else moveFirst(next.body, body, { left: firstPartChars }, pending);
  root.replaceChild(body, d.body);

  return {
    partial: pending.length > 0,
    rest() {
      // Each pair is a node cut in two (the first part's copy of it, last in its parent) and
      // what is left of it: appending each one's rest ends it where it ended.
      for (const [from, to] of pending.splice(0)) to.append(...from.childNodes);
    },
  };
}

/**
 * Moves from's children into to while budget lasts: whole nodes while they fit, then into
 * the first that does not (a shallow copy of it in to), down to a node that fits or has no
 * children. Each node cut is recorded in pending with its copy.
 */
function moveFirst(from: Element, to: Element, budget: { left: number }, pending: [Element, Element][]) {
  while (from.firstChild) {
    if (budget.left <= 0) {
      pending.push([from, to]);
      return;
    }
    const n = from.firstChild;
    const size = n.textContent?.length ?? 0;
    if (size <= budget.left || n.nodeType !== Node.ELEMENT_NODE || !n.firstChild) {
      to.append(n);
      budget.left -= size;
      continue;
    }
    const el = n as Element;
    const part = el.cloneNode(false) as Element;
    to.append(part);
    moveFirst(el, part, budget, pending);
    el.remove();
  }
}
