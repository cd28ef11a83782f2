import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Mundaneum } from '../src/client';
import { CaptureError } from '../src/errors';

// A loopback HTTP server that answers as Mundaneum's capture door would and records what
// it was sent: the client's side of the wire (the door's own is tested in Go and end to end).
const seen: { method?: string; url?: string; auth?: string; type?: string; body: string }[] = [];
let answer: { status: number; body: string } = { status: 200, body: '{}' };
const server = createServer((req: IncomingMessage, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    seen.push({ method: req.method, url: req.url, auth: req.headers.authorization, type: req.headers['content-type'], body });
    res.writeHead(answer.status, { 'Content-Type': 'application/json' });
    res.end(answer.body);
  });
});
let base = '';
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('Mundaneum client', () => {
  it('posts JSON with the token to the capture call', async () => {
    answer = { status: 200, body: '{"url":"https://x.example/","places":[],"page":null}' };
    const s = await new Mundaneum(base, 'tok').status('https://x.example/');
    expect(s.places).toEqual([]);
    expect(seen.at(-1)).toEqual({ method: 'POST', url: '/capture/status', auth: 'Bearer tok', type: 'application/json', body: '{"url":"https://x.example/"}' });
  });
  it('pairs without a token', async () => {
    answer = { status: 200, body: '{"token":"t","clientId":1,"workspace":"w","door":"serve"}' };
    expect((await new Mundaneum(base, '').pair('ABCD-EFGH', 'Chromium')).token).toBe('t');
    expect(seen.at(-1)?.auth).toBeUndefined();
  });
  it("turns Mundaneum's refusals into coded errors", async () => {
    answer = { status: 403, body: '{"code":"forbidden","message":"not paired"}' };
    await expect(new Mundaneum(base, 'x').hello()).rejects.toMatchObject({ code: 'forbidden', message: 'not paired' });
    answer = { status: 200, body: 'not json' };
    await expect(new Mundaneum(base, 'x').hello()).rejects.toMatchObject({ code: 'internal' });
  });
  it('says when Mundaneum is not running', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const err = await new Mundaneum(`http://127.0.0.1:${port}/`, 'x').hello().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CaptureError);
    expect((err as CaptureError).code).toBe('unreachable');
  });
});
