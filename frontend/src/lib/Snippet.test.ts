import { render } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import Snippet from './Snippet.svelte';

describe('Snippet', () => {
  it('puts odd fragments in <mark> and keeps the text in order', () => {
    const { container } = render(Snippet, { fragments: ['the ', 'web', ' of ', 'knowledge', '.'] });
    const p = container.querySelector('p.snippet')!;
    expect(p.textContent).toBe('the web of knowledge.');
    const marks = [...p.querySelectorAll('mark')].map((m) => m.textContent);
    expect(marks).toEqual(['web', 'knowledge']);
  });

  it('renders markup in fragments as text, never as elements', () => {
    const hostile = [
      '<script>alert(1)</script> before ',
      '<img src=x onerror=alert(2)>',
      ' <b>after</b> <a href="javascript:alert(3)">x</a>',
    ];
    const { container } = render(Snippet, { fragments: hostile });
    const p = container.querySelector('p.snippet')!;
    expect(p.querySelector('script')).toBeNull();
    expect(p.querySelector('img')).toBeNull();
    expect(p.querySelector('b')).toBeNull();
    expect(p.querySelector('a')).toBeNull();
    expect(p.querySelectorAll('*')).toHaveLength(1); // the one <mark>
    expect(p.textContent).toBe(hostile.join(''));
    expect(p.querySelector('mark')!.textContent).toBe('<img src=x onerror=alert(2)>');
  });

  it('copes with no snippet and bounds a huge one', () => {
    const empty = render(Snippet, { fragments: null });
    expect(empty.container.querySelector('p.snippet')!.textContent).toBe('');
    const many = Array.from({ length: 1000 }, (_, i) => `f${i}`);
    const big = render(Snippet, { fragments: many });
    expect(big.container.querySelectorAll('mark').length).toBe(32);
  });
});
