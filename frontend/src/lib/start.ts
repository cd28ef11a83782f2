// What the start page needs to know: whether the open workspace holds anything yet.
import { libraryPage, listCrawls, rootLibrary, status } from '../api';
import type { Holdings } from './crawls';

/** What the open workspace holds: its crawls, pages fetched and root library's entries. */
export async function holdings(): Promise<Holdings> {
  const [crawls, st, lib] = await Promise.all([listCrawls(), status(), libraryPage(rootLibrary, '', 0, 1)]);
  return { crawls: crawls.length, pages: st.fetched, libraryItems: lib.total + lib.libraries.length };
}
