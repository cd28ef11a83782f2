import { describe, expect, it } from 'vitest';
import { segments, valueText } from './ruleText';

describe('segments', () => {
  const text = '+url:*.org/* -body:x';
  const spans = [
    { kind: 'category', from: 0, to: 1 },
    { kind: 'field', from: 1, to: 4 },
    { kind: 'punct', from: 4, to: 5 },
    { kind: 'glob', from: 5, to: 12 },
    { kind: 'category', from: 13, to: 14 },
    { kind: 'field', from: 14, to: 18 },
    { kind: 'punct', from: 18, to: 19 },
    { kind: 'glob', from: 19, to: 20 },
  ];
  it('covers the whole text in order', () => {
    const s = segments(text, spans);
    expect(s.map((x) => x.text).join('')).toBe(text);
    expect(s[0]).toEqual({ text: '+', kind: 'category', decided: false });
    expect(s[4]).toEqual({ text: ' ', kind: '', decided: false });
  });
  it('flags the deciding atom', () => {
    const s = segments(text, spans, { from: 13, to: 20 });
    expect(s.filter((x) => x.decided).map((x) => x.text).join('')).toBe('-body:x');
    expect(s.map((x) => x.text).join('')).toBe(text);
  });
  it('ignores spans out of range and keeps text after an error', () => {
    const s = segments('+url', [{ kind: 'error', from: 1, to: 99 }, { kind: 'category', from: 0, to: 1 }]);
    expect(s.map((x) => x.text).join('')).toBe('+url');
    expect(s).toHaveLength(2);
  });
  it('lets an error win over the span it covers', () => {
    const s = segments('+url:', [{ kind: 'punct', from: 4, to: 5 }, { kind: 'error', from: 4, to: 5 }]);
    expect(s[s.length - 1]).toEqual({ text: ':', kind: 'error', decided: false });
  });
  it('handles empty text', () => {
    expect(segments('', [])).toEqual([]);
  });
});

describe('valueText', () => {
  it('says what a value means', () => {
    expect(valueText('first')).toMatch(/imperative/);
    expect(valueText('untested')).toMatch(/read/);
  });
});
