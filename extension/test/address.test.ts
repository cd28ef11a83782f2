import { describe, expect, it } from 'vitest';
import { normaliseAddress, originPattern } from '../src/address';

describe('normaliseAddress', () => {
  it('takes Mundaneum on loopback, in the forms people type', () => {
    expect(normaliseAddress('http://127.0.0.1:7343/')).toBe('http://127.0.0.1:7343/');
    expect(normaliseAddress(' 127.0.0.1:8080 ')).toBe('http://127.0.0.1:8080/');
    expect(normaliseAddress('7343')).toBe('http://127.0.0.1:7343/');
    expect(normaliseAddress('http://localhost:7343/#/settings')).toBe('http://localhost:7343/');
    expect(normaliseAddress('HTTP://LOCALHOST:7343')).toBe('http://localhost:7343/');
  });
  it('refuses anything that is not http on this machine', () => {
    for (const bad of ['', 'https://127.0.0.1:7343/', 'http://example.org/', 'http://192.168.1.2:7343/', 'http://127.0.0.2:7343/',
      'http://user:pw@127.0.0.1:7343/', 'file:///etc/passwd', 'javascript:alert(1)', 'http://127.0.0.1.example.org/', 'http://[::1]:7343/', 'http://',
      'http://127.0.0.1:7343/http://127.0.0.1:9000/', 'http://127.0.0.1:7343/capture/pair', 'http://127.0.0.1:7343/?x=1']) {
      expect(() => normaliseAddress(bad), bad).toThrow();
    }
  });
  it('gives the permission pattern of an address', () => {
    expect(originPattern('http://127.0.0.1:7343/')).toBe('http://127.0.0.1/*');
  });
});
