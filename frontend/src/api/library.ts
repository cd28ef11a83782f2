// The virtual library (GENVL): libraries, postings, reports, import and export, search.
// Part of src/api, the only code that touches the generated bindings.
import * as App from '../../wailsjs/go/app/App';
import { call } from './call';
import type { Crawl, LibAdded, LibDetail, LibEdit, LibExport, LibImport, LibInput, LibPage, LibPosting, LibRecent, LibRemoval, LibRendered, LibSearchResults, LibTag } from './types';

/** Library hits as a search brings them, none when it brings none (search.ts uses it too). */
export function libHits(r: LibSearchResults | null | undefined): LibSearchResults {
  return r ?? ({ total: 0, totalApprox: false, hits: [], note: '', tookMs: 0 } as LibSearchResults);
}

/** The root library's id. */
export const rootLibrary = 1;

/** A library's page: header, breadcrumbs, sub-libraries and postings offset..offset+limit. */
export async function libraryPage(id: number, order = '', offset = 0, limit = 200): Promise<LibPage> {
  return (await call(() => App.LibraryPage(id, order, offset, limit))) as LibPage;
}

/** The id of the node at a library path ("/Computing/Go"). */
export function libraryResolve(path: string): Promise<number> {
  return call(() => App.LibraryResolve(path));
}

/** One posting, with its place, picture and (a report) its rendering. */
export async function libraryPosting(id: number): Promise<LibDetail> {
  return (await call(() => App.LibraryPosting(id))) as LibDetail;
}

/** Everything at or below a library, newest first. */
export async function libraryRecent(id: number, offset = 0, limit = 100): Promise<LibRecent> {
  return (await call(() => App.LibraryRecent(id, offset, limit))) as LibRecent;
}

/** Fills in what a LibInput leaves out. */
export function libInput(p: Partial<LibInput>): LibInput {
  return {
    title: '', url: '', notes: '', body: '', tags: [], purpose: '', createOnly: false, order: '', image: '', view: '',
    author: '', email: '', password: '', libraryPassword: '', ...p,
  } as LibInput;
}

/** Creates a sub-library. */
export function libraryCreate(parent: number, input: Partial<LibInput>): Promise<LibPosting> {
  return call(() => App.LibraryCreate(parent, libInput(input)));
}

/** Adds a pointer; a URL already in that library is refused ("conflict"). */
export function libraryPoint(parent: number, input: Partial<LibInput>): Promise<LibAdded> {
  return call(() => App.LibraryPoint(parent, libInput(input)));
}

/** Writes a report. */
export function libraryReport(parent: number, input: Partial<LibInput>): Promise<LibPosting> {
  return call(() => App.LibraryReport(parent, libInput(input)));
}

/** Places a saved view in a library (libraryPassword: a protected library's). */
export function libraryPlaceView(parent: number, view: string, title = '', libraryPassword = ''): Promise<LibPosting> {
  return call(() => App.LibraryPlaceView(parent, libInput({ view, title, libraryPassword })));
}

/** A LibEdit with every field left as it is. */
export function libEdit(e: Partial<LibEdit>): LibEdit {
  return {
    title: null, url: null, notes: null, body: null, tags: null, purpose: null, createOnly: null, order: null,
    image: '', clearImage: false, author: null, email: null, newPassword: null, openToGuests: null, ...e,
  } as unknown as LibEdit;
}

/** Changes a library or posting; a protected one needs its password ("forbidden" otherwise). */
export function libraryEdit(id: number, e: Partial<LibEdit>, password = ''): Promise<LibPosting> {
  return call(() => App.LibraryEdit(id, libEdit(e), password));
}

/** Takes a pointer's permanent redirect: its URL becomes the new address, the old one an alias (undoable). */
export function libraryAcceptRedirect(id: number, password = ''): Promise<LibPosting> {
  return call(() => App.LibraryAcceptRedirect(id, password));
}

/** What deleting ids would remove. */
export function libraryPreviewDelete(ids: number[]): Promise<LibRemoval> {
  return call(() => App.LibraryPreviewDelete(ids));
}

/** Deletes postings (libraries with everything below). */
export function libraryDelete(ids: number[], password = ''): Promise<LibRemoval> {
  return call(() => App.LibraryDelete(ids, password));
}

/** Moves postings into dest at position (-1: the end). */
export function libraryMove(ids: number[], dest: number, position = -1, password = ''): Promise<void> {
  return call(() => App.LibraryMove(ids, dest, position, password));
}

/** Copies postings into dest at position (-1: the end). */
export async function libraryCopy(ids: number[], dest: number, position = -1, password = ''): Promise<LibPosting[]> {
  return call(() => App.LibraryCopy(ids, dest, position, password));
}

/** Takes back the last change; says what it was. */
export function libraryUndo(password = ''): Promise<string> {
  return call(() => App.LibraryUndo(password));
}

/** Makes again the change the last undo took back; says what it was. */
export function libraryRedo(password = ''): Promise<string> {
  return call(() => App.LibraryRedo(password));
}

/** Imports the text of a file of links (bookmarks, JSON tree, or a list) into a library. */
export function libraryImport(parent: number, text: string, author = '', password = ''): Promise<LibImport> {
  return call(() => App.LibraryImport(parent, text, author, password)); // problems is never null (app.ImportOf)
}

/** Exports a library as "netscape" or "json": the file's content. */
export function libraryExport(id: number, format: string): Promise<LibExport> {
  return call(() => App.LibraryExport(id, format));
}

/** Exports a library to a file chosen with the native dialog (desktop only). */
export function libraryExportFile(id: number, format: string): Promise<string> {
  return call(() => App.LibraryExportFile(id, format));
}

/** Searches the library (in: a library to search within, 0 for all). */
export async function librarySearch(query: string, inLibrary = 0, offset = 0, limit = 50): Promise<LibSearchResults> {
  return libHits(await call(() => App.LibrarySearch(query, inLibrary, offset, limit)));
}

/** Renders Markdown as a report would show: a sanitised document for a sandboxed frame. */
export async function libraryPreview(title: string, markdown: string): Promise<LibRendered> {
  return (await call(() => App.LibraryPreview(title, markdown))) as LibRendered;
}

/** The library's tags, most used first. */
export async function libraryTags(): Promise<LibTag[]> {
  return call(() => App.LibraryTags());
}

/** Crawls from a pointer or every pointer of a library ("crawl from here"). */
export function libraryCrawl(id: number, scope = 'tree', maxPages = 0): Promise<Crawl> {
  return call(() => App.LibraryCrawl(id, scope, maxPages));
}
