// What can go wrong talking to Mundaneum, as the popup and the options page tell it.

export type ErrorCode = 'unreachable' | 'forbidden' | 'invalid' | 'not-found' | 'conflict' | 'too-large' | 'internal' | 'unavailable';

const codes: readonly ErrorCode[] = ['unreachable', 'forbidden', 'invalid', 'not-found', 'conflict', 'too-large', 'internal', 'unavailable'];

/** A failed call: a code the UI acts on and a message to show. */
export class CaptureError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'CaptureError';
    this.code = code;
  }
}

/** The error of an answer with an HTTP error status and its body ({"code","message"}). */
export function errorFrom(status: number, body: string): CaptureError {
  let code: ErrorCode = status === 403 ? 'forbidden' : status === 413 ? 'too-large' : status === 404 ? 'not-found' : status === 409 ? 'conflict' : status >= 500 ? 'internal' : 'invalid';
  let message = `Mundaneum answered HTTP ${status}.`;
  try {
    const v: unknown = JSON.parse(body);
    if (v && typeof v === 'object') {
      const o = v as { code?: unknown; message?: unknown };
      if (typeof o.code === 'string' && (codes as readonly string[]).includes(o.code) && status !== 413) code = o.code as ErrorCode;
      if (typeof o.message === 'string' && o.message !== '') message = o.message;
    }
  } catch {
    // not JSON: keep the status's message
  }
  return new CaptureError(code, message);
}

/** Says what to do about an error, in the user's terms. */
export function advice(err: CaptureError, address: string): string {
  switch (err.code) {
    case 'unreachable':
      return `Mundaneum is not answering at ${address}: open its window (or run “mundaneum serve”), then try again.`;
    case 'forbidden':
      return `${err.message} (Open the extension's options to pair it again.)`;
    case 'too-large':
      return 'The page is too large to save as shown; add it without saving the page.';
    default:
      return err.message;
  }
}
