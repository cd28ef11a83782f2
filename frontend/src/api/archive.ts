// Archives: crawls written to and read from files (WARC, WWWW), and page-version retention.
// Part of src/api, the only code that touches the generated bindings.
import * as App from '../../wailsjs/go/app/App';
import { call } from './call';
import { doorToken } from './door';
import type { ArchiveFormat, ArchiveJob, RetentionInfo } from './types';

/** The archive formats crawls go out and come in as (warc, wwww). */
export async function archiveFormats(): Promise<ArchiveFormat[]> {
  return call(() => App.ArchiveFormats());
}

/** Starts writing a crawl (0: the whole workspace) to a file; the job reports as 'archive:job'. */
export function startExport(crawlId: number, format: string, path: string): Promise<ArchiveJob> {
  return call(() => App.StartExport(crawlId, format, path));
}

/** Starts reading a WARC file or WWWW archive into the workspace; the job reports as 'archive:job'. */
export function startImport(path: string): Promise<ArchiveJob> {
  return call(() => App.StartImport(path));
}

/** Stops an import or export job: the pages it committed stay, a partial export goes. */
export function cancelArchiveJob(id: number): Promise<void> {
  return call(() => App.CancelArchiveJob(id));
}

/** The imports and exports, running and recently ended, newest first. */
export async function archiveJobs(): Promise<ArchiveJob[]> {
  return call(() => App.ArchiveJobs());
}

/** The window's file dialogs for an import or an export ('' when the user cancels). */
export function chooseImportFile(): Promise<string> {
  return call(() => App.ChooseImportFile());
}
export function chooseExportFile(crawlId: number, format: string): Promise<string> {
  return call(() => App.ChooseExportFile(crawlId, format));
}

/**
 * In a browser (mundaneum serve): uploads a file to import, streaming it with its progress
 * (bytes sent) reported to onprogress; resolves to the import job once the upload is in.
 */
export function uploadArchive(file: File, onprogress: (sent: number, total: number) => void, signal?: AbortSignal): Promise<ArchiveJob> {
  return new Promise((resolve, reject) => {
    const x = new XMLHttpRequest();
    x.open('POST', `/files/import?name=${encodeURIComponent(file.name)}`);
    x.setRequestHeader('X-Mundaneum-Token', doorToken());
    x.setRequestHeader('Content-Type', 'application/octet-stream');
    x.upload.onprogress = (e) => onprogress(e.loaded, e.lengthComputable ? e.total : file.size);
    x.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(x.responseText);
      } catch {
        body = null;
      }
      if (x.status >= 200 && x.status < 300 && body) resolve(body as ArchiveJob);
      else reject(new Error(JSON.stringify(body ?? { code: 'internal', message: `upload failed (${x.status})` })));
    };
    x.onerror = () => reject(new Error(JSON.stringify({ code: 'unavailable', message: 'the upload was cut off' })));
    x.onabort = () => reject(new Error(JSON.stringify({ code: 'unavailable', message: 'the upload was cancelled' })));
    signal?.addEventListener('abort', () => x.abort());
    x.send(file);
  });
}

/** In a browser (mundaneum serve): the address that downloads an export as it is written. */
export function exportDownloadURL(crawlId: number, format: string): string {
  return `/files/export?format=${encodeURIComponent(format)}&crawl=${crawlId}&token=${encodeURIComponent(doorToken())}`;
}

/** The workspace's retention of page versions (crawlId 0) or a crawl's, with its disk. */
export function retention(crawlId: number): Promise<RetentionInfo> {
  return call(() => App.Retention(crawlId));
}

/** Sets and applies a retention: all, last (with last), none, or for a crawl default. */
export function setRetention(crawlId: number, keep: string, last: number): Promise<RetentionInfo> {
  return call(() => App.SetRetention(crawlId, keep, last));
}
