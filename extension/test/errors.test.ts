import { describe, expect, it } from 'vitest';
import { advice, CaptureError, errorFrom } from '../src/errors';

describe('errorFrom', () => {
  it("keeps Mundaneum's code and message", () => {
    const e = errorFrom(409, '{"code":"conflict","message":"already there"}');
    expect(e.code).toBe('conflict');
    expect(e.message).toBe('already there');
  });
  it('falls back on the status when the body is not the error JSON', () => {
    expect(errorFrom(403, 'nope').code).toBe('forbidden');
    expect(errorFrom(413, '{"code":"too-large","message":"x"}').code).toBe('too-large');
    expect(errorFrom(502, '<html>').code).toBe('internal');
    expect(errorFrom(400, '{"code":"<script>","message":5}').code).toBe('invalid');
    expect(errorFrom(400, '{"code":"<script>","message":5}').message).toBe('Mundaneum answered HTTP 400.');
  });
  it('says what to do', () => {
    expect(advice(new CaptureError('unreachable', 'x'), 'http://127.0.0.1:7343/')).toMatch(/not answering at http:\/\/127.0.0.1:7343\//);
    expect(advice(new CaptureError('forbidden', 'not paired'), '')).toMatch(/pair it again/);
  });
});
