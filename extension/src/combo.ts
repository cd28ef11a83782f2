// A text box with a list of suggestions below it (the ARIA combobox pattern): the list
// follows what is typed, arrows move in it, Enter or a click takes a suggestion, Escape
// closes it. Suggestions are text only (textContent): they come from the library.

export interface Suggestion {
  label: string;
  note?: string;
}

export interface ComboOptions<T extends Suggestion> {
  input: HTMLInputElement;
  list: HTMLUListElement;
  /** The suggestions for what is typed now. */
  suggest: (input: HTMLInputElement) => Promise<T[]>;
  /** Takes a suggestion. */
  pick: (s: T, input: HTMLInputElement) => void;
}

/** Wires a combobox; returns a function that closes its list. */
export function combo<T extends Suggestion>(o: ComboOptions<T>): () => void {
  const { input, list } = o;
  let items: T[] = [];
  let active = -1;
  let asked = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function close() {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  }

  function render() {
    list.replaceChildren();
    items.forEach((s, i) => {
      const li = document.createElement('li');
      li.id = `${list.id}-${i}`;
      li.setAttribute('role', 'option');
      li.setAttribute('aria-selected', String(i === active));
      const span = document.createElement('span');
      span.textContent = s.label;
      li.append(span);
      if (s.note) {
        const small = document.createElement('small');
        small.textContent = s.note;
        li.append(small);
      }
      // mousedown, not click: it comes before the box loses its focus.
      li.addEventListener('mousedown', (e) => {
        e.preventDefault();
        take(i);
      });
      list.append(li);
    });
    list.hidden = items.length === 0;
    input.setAttribute('aria-expanded', String(items.length > 0));
    if (active >= 0) input.setAttribute('aria-activedescendant', `${list.id}-${active}`);
    else input.removeAttribute('aria-activedescendant');
  }

  async function refresh() {
    const n = ++asked;
    let got: T[];
    try {
      got = await o.suggest(input);
    } catch {
      got = [];
    }
    if (n !== asked || document.activeElement !== input) return; // a later question, or gone
    items = got;
    active = -1;
    render();
  }

  function take(i: number) {
    const s = items[i];
    if (!s) return;
    o.pick(s, input);
    close();
  }

  input.addEventListener('focus', () => void refresh());
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => void refresh(), 100);
  });
  input.addEventListener('blur', close);
  input.addEventListener('keydown', (e) => {
    const open = !list.hidden && items.length > 0;
    switch (e.key) {
      case 'ArrowDown':
      case 'ArrowUp':
        if (!open) {
          void refresh();
        } else {
          const d = e.key === 'ArrowDown' ? 1 : -1;
          active = (active + d + items.length + 1) % (items.length + 1);
          if (active === items.length) active = -1;
          render();
          document.getElementById(`${list.id}-${active}`)?.scrollIntoView?.({ block: 'nearest' });
        }
        e.preventDefault();
        break;
      case 'Enter':
        if (open && active >= 0) {
          e.preventDefault();
          take(active);
        }
        break;
      case 'Tab':
        if (open && active >= 0) take(active);
        break;
      case 'Escape':
        if (open) {
          e.preventDefault();
          e.stopPropagation();
          close();
        }
        break;
    }
  });
  return close;
}
