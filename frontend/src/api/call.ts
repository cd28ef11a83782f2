// Calling the bound API: the error every call fails with (ApiError, with a code from a closed
// set) and call, which every other module of src/api wraps its bindings in.

/** An error from the backend (or from a missing bridge), with an optional machine code. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  constructor(message: string, code: ErrorCode = 'internal') {
    super(message);
    this.name = 'ApiError';
    this.code = code;
  }
}

/** Error codes the backend sends (app/errors.go); anything else arrives as 'internal'. */
export const errorCodes = ['invalid', 'not-found', 'conflict', 'forbidden', 'rate-limited', 'sign-in', 'internal', 'unavailable'] as const;
export type ErrorCode = (typeof errorCodes)[number];

function codeOf(v: unknown): ErrorCode {
  return errorCodes.includes(v as ErrorCode) ? (v as ErrorCode) : 'internal';
}

/**
 * Turns whatever a rejected binding call carries into an ApiError. Bound methods fail with
 * the message {"code": ..., "message": ...} as JSON text (Wails passes errors as strings).
 */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof Error) return toApiError(err.message);
  if (typeof err === 'string') {
    if (err.startsWith('{')) {
      try {
        const parsed: unknown = JSON.parse(err);
        if (parsed && typeof parsed === 'object' && typeof (parsed as { message?: unknown }).message === 'string') {
          return toApiError(parsed);
        }
      } catch {
        // not JSON: the text itself is the message
      }
    }
    return new ApiError(err);
  }
  if (err && typeof err === 'object') {
    const o = err as Record<string, unknown>;
    const message = typeof o.message === 'string' ? o.message : JSON.stringify(o);
    return new ApiError(message, codeOf(o.code));
  }
  return new ApiError(String(err));
}

/** Reports whether the Wails bridge (window.go) is present. */
export function connected(): boolean {
  const w = globalThis as { go?: { app?: { App?: unknown } } };
  return !!w.go?.app?.App;
}

/** Calls a binding, turning its failures into ApiErrors (for the other modules of src/api). */
export async function call<T>(f: () => Promise<T>): Promise<T> {
  if (!connected()) throw new ApiError('not connected to the Mundaneum backend', 'unavailable');
  try {
    return await f();
  } catch (err) {
    throw toApiError(err);
  }
}
