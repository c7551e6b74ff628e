// A small element builder for the views: text is always set as text, never parsed as HTML.
type Child = Node | string | number | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Record<string, string | number | boolean | ((event: Event) => void)> = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
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

/** A table: a caption, a header row and rows of cells (the first cell of a row is its header). */
export function table(caption: string, head: string[], rows: (string | Node)[][], className = ''): HTMLTableElement {
  return h('table', { class: className },
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, head.map((cell) => h('th', { scope: 'col' }, cell)))),
    h('tbody', {}, rows.map(([first, ...rest]) => h('tr', {}, h('th', { scope: 'row' }, first ?? ''), rest.map((cell) => h('td', {}, cell))))),
  );
}
