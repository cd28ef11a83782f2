// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { combo } from '../src/combo';

function until(f: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const end = Date.now() + 2000;
    const tick = () => (f() ? resolve() : Date.now() > end ? reject(new Error('timed out')) : setTimeout(tick, 5));
    tick();
  });
}

describe('combo', () => {
  it('suggests, moves with the arrows, takes with Enter, closes with Escape', async () => {
    document.body.innerHTML = '<input id="i"><ul id="l" hidden></ul>';
    const input = document.getElementById('i') as HTMLInputElement;
    const list = document.getElementById('l') as HTMLUListElement;
    const asked: string[] = [];
    let picked = '';
    combo({
      input,
      list,
      suggest: async (i) => {
        asked.push(i.value);
        return ['/Reading', '/Computing/Go', '<img src=x onerror=alert(1)>'].filter((p) => p.toLowerCase().includes(i.value)).map((label) => ({ label }));
      },
      pick: (s) => (picked = s.label),
    });
    input.focus();
    await until(() => !list.hidden);
    expect(list.children.length).toBe(3);
    // Suggestions are text: markup in a library's title stays text.
    expect(list.querySelector('img')).toBeNull();
    expect(list.children[2]!.textContent).toBe('<img src=x onerror=alert(1)>');
    const key = (k: string) => input.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
    key('ArrowDown');
    key('ArrowDown');
    expect(input.getAttribute('aria-activedescendant')).toBe('l-1');
    expect(list.children[1]!.getAttribute('aria-selected')).toBe('true');
    const enter = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
    input.dispatchEvent(enter);
    expect(enter.defaultPrevented).toBe(true);
    expect(picked).toBe('/Computing/Go');
    expect(list.hidden).toBe(true);

    input.value = 'rea';
    input.dispatchEvent(new Event('input'));
    await until(() => !list.hidden && list.children.length === 1);
    expect(asked.at(-1)).toBe('rea');
    key('Escape');
    expect(list.hidden).toBe(true);
    // With the list closed, Enter is the form's.
    const plain = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
    input.dispatchEvent(plain);
    expect(plain.defaultPrevented).toBe(false);
  });
});
