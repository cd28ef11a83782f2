// Saving a generated document: the window's file dialog where there is one, a download in
// a browser.
import { saveCheckReport, exportCheckReport, toApiError } from '../api';
import { session } from './session.svelte';

const types: Record<string, string> = { html: 'text/html', csv: 'text/csv', json: 'application/json', mom: 'text/plain' };

/** Offers text as a file download (a detached link: the app's own navigation never sees it). */
export function download(name: string, text: string, ext: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${types[ext] ?? 'text/plain'};charset=utf-8` }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Saves a report as html, csv or json; returns what happened, for the user. */
export async function saveReport(id: number, format: 'html' | 'csv' | 'json'): Promise<string> {
  try {
    if (session.workspace?.canChoose) {
      const path = await saveCheckReport(id, format);
      return path ? `Saved ${path}` : '';
    }
    download(`report-${id}.${format}`, await exportCheckReport(id, format), format);
    return '';
  } catch (err) {
    return `Could not save the report: ${toApiError(err).message}`;
  }
}

/** Reads a file the user picked as text (MOMspider files are a few kilobytes). */
export function readFile(f: File, max = 16 << 20): Promise<string> {
  if (f.size > max) return Promise.reject(new Error(`${f.name} is larger than ${max >> 20} MiB`));
  return f.text();
}
