// A small element builder for the views: text is always set as text, never parsed as HTML.
type Child = Node | string | number | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Record<string, string | number | boolean | ((event: Event) => void)> = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else if (value === false) continue;
    else if (name === 'class') element.className = String(value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/**
 * Text someone else wrote (a name, a title, a prompt, a URL), isolated: whatever direction it
 * has or forces (U+202E included) stays inside it and cannot reorder the text around it.
 */
export const bdi = (text: string): HTMLElement => h('bdi', {}, text);

/** Text cut to at most `max` characters, an ellipsis marking the cut. */
export function clip(text: string, max: number): string {
  const characters = Array.from(text);
  return characters.length > max ? `${characters.slice(0, max - 1).join('')}…` : text;
}

/** Someone else's text that may be very long (a URL, a page's title): isolated, cut, whole in its tooltip. */
export function clipped(text: string, max = 200): HTMLElement {
  const shown = clip(text, max);
  return shown === text ? bdi(text) : h('bdi', { title: text }, shown);
}

/** Names in a line, each isolated from the others. */
export const names = (list: string[], separator = ', '): (string | Node)[] =>
  list.flatMap((name, index) => (index ? [separator, bdi(name)] : [bdi(name)]));

/** A table: a caption, a header row and rows of cells (the first cell of a row is its header). */
export function table(
  caption: string | Node,
  head: string[],
  rows: (string | Node)[][],
  className = '',
): HTMLTableElement {
  return h(
    'table',
    { class: className },
    h('caption', {}, caption),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        head.map((cell) => h('th', { scope: 'col' }, cell)),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map(([first, ...rest]) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, first ?? ''),
          rest.map((cell) => h('td', {}, cell)),
        ),
      ),
    ),
  );
}
