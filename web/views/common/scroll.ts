// A table wider than the screen scrolls sideways in its own box, and says so: a "scroll →" hint
// above it while it is wider than its box, shadows on the edges that hide more (theme.css), its
// caption and first column kept in view as it scrolls, and the box reachable by keyboard (arrows
// scroll it).
import { h } from './dom.js';

let watching: ResizeObserver | undefined;

/**
 * Shows a box's hint only while the box is wider inside than outside. Read when the observer
 * reports the box's size, after the browser has laid the page out: a read while drawing would lay
 * the whole page out there and then, once per box.
 */
function measure(scroller: Element) {
  const hint = scroller.previousElementSibling;
  if (!(hint instanceof HTMLElement) || !hint.classList.contains('scroll-hint')) return;
  hint.hidden = scroller.scrollWidth <= scroller.clientWidth + 1;
}

/** Puts every table of `root` in a `.scroll` box (one may hold several) and gives each box its cues. */
export function cueScrollers(root: HTMLElement): void {
  watching?.disconnect();
  watching ??= new ResizeObserver((entries) => entries.forEach((entry) => measure(entry.target)));
  for (const loose of root.querySelectorAll('table')) {
    if (loose.parentElement?.classList.contains('scroll')) continue;
    const box = h('div', { class: 'scroll' });
    loose.replaceWith(box);
    box.append(loose);
  }
  for (const scroller of root.querySelectorAll<HTMLElement>('.scroll')) {
    const captions = [...scroller.querySelectorAll('caption')];
    // The caption's words in a box as wide as the scroller's, that stays at its left edge.
    for (const caption of captions)
      caption.replaceChildren(h('span', { class: 'caption-text' }, ...caption.childNodes));
    scroller.tabIndex = 0;
    scroller.setAttribute('role', 'region');
    scroller.setAttribute('aria-label', captions.map((caption) => caption.textContent).join(' · ') || 'Table');
    scroller.before(h('p', { class: 'scroll-hint', 'aria-hidden': 'true', hidden: true }, 'scroll →'));
    // Observing reports the box's first size too, which measures it.
    watching.observe(scroller);
  }
}
