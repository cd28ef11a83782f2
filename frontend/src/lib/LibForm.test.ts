import { render } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import LibForm from './LibForm.svelte';
import { libLimits } from './library';

// Issue 28, item 12: the form's fields stop where the library would refuse them.
describe('LibForm', () => {
  for (const kind of ['pointer', 'report', 'library'] as const) {
    it(`gives every text field of a ${kind} a maxlength`, () => {
      const { container } = render(LibForm, { kind, onsubmit: () => {}, oncancel: () => {} });
      const fields = [...container.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')].filter(
        (f) => !['checkbox', 'file'].includes(f.type),
      );
      expect(fields.length).toBeGreaterThan(3);
      for (const f of fields) expect(f.maxLength, f.outerHTML).toBeGreaterThan(0);
      const title = [...container.querySelectorAll('label')].find((l) => l.textContent?.trim().startsWith('Title'))!.querySelector('input')!;
      expect(title.maxLength).toBe(libLimits.title);
    });
  }
});
