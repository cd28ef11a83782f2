// The bookmarklet: for browsers without Mundaneum's extension, a bookmark that opens the add
// form of a `mundaneum serve` (#/add) in a new tab, filled in with the page's address,
// title and selected text. It runs in the page it is clicked on and sends nothing
// anywhere: the form opens in Mundaneum's own tab, where the user picks a library and adds.

/** The most of a selection the bookmarklet puts in the form's address. */
export const maxSelection = 2000;

/** The bookmarklet's code for the Mundaneum served at origin ("http://127.0.0.1:7343"). */
export function bookmarkletCode(origin: string): string {
  const base = new URL('/#/add?', origin).href;
  // noopener: the page and Mundaneum's tab cannot reach each other.
  return (
    `(()=>{const s=String(getSelection()).slice(0,${maxSelection});` +
    `open(${JSON.stringify(base)}+new URLSearchParams({url:location.href,title:document.title,notes:s}),'_blank','noopener')})()`
  );
}

/** The bookmarklet as a javascript: address, to drag to the bookmarks bar. */
export function bookmarklet(origin: string): string {
  // Only characters a javascript: URL keeps as they are; % would be decoded.
  return 'javascript:' + bookmarkletCode(origin).replace(/%/g, '%25');
}
