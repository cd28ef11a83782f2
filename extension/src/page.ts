// Functions run in the page the user acts on (chrome.scripting.executeScript serialises
// them: they must use nothing from outside their own body).

/** The page's title and the text the user selected. */
export interface PageText {
  title: string;
  selection: string;
}

/** The page as the browser shows it now: its title, selection and serialised DOM. */
export interface PageShown extends PageText {
  dom: string;
}

export function readPage(): PageText {
  const sel = window.getSelection();
  return { title: document.title, selection: sel ? sel.toString() : '' };
}

export function snapshotPage(): PageShown {
  const sel = window.getSelection();
  const dt = document.doctype;
  const doctype = dt ? `<!DOCTYPE ${dt.name}>\n` : '';
  return { title: document.title, selection: sel ? sel.toString() : '', dom: doctype + document.documentElement.outerHTML };
}

/** The most of a selection the notes take (Mundaneum's notes hold 64 KiB). */
export const maxNote = 16000;

/** A selection as a note: its lines trimmed, runs of blank lines made one, cut at maxNote. */
export function noteOf(selection: string): string {
  const s = selection
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return s.length > maxNote ? s.slice(0, maxNote - 1) + '…' : s;
}
