// What a phone shows: every element of a page that reaches past the viewport's width, unless it
// sits in a box that scrolls sideways and says so (a visible "scroll" hint). Labels (captions,
// headings, a menu's summary) may never leave the screen, not even inside such a box: a caption
// that scrolls away is read cut ("…visible and the bran").
import type { Page } from 'playwright-core';

export interface Outside {
  /** A short CSS-like path of the element and the text it starts with. */
  element: string;
  left: number;
  right: number;
  why: string;
}

/** The elements that leave a `width`-wide viewport (an empty list when the page fits). */
export function elementsOutside(page: Page): Promise<Outside[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const inside = (rect: DOMRect) => rect.left >= -0.5 && rect.right <= width + 0.5;
    const describe = (element: Element) => {
      const parts: string[] = [];
      for (
        let node: Element | null = element;
        node && node !== document.body && parts.length < 4;
        node = node.parentElement
      ) {
        const classes = node.classList.length ? `.${[...node.classList].join('.')}` : '';
        parts.unshift(node.tagName.toLowerCase() + (node.id ? `#${node.id}` : '') + classes);
      }
      return `${parts.join(' > ')} “${(element.textContent ?? '').trim().slice(0, 40)}”`;
    };
    const scrollsSideways = (element: Element) => {
      const overflow = getComputedStyle(element).overflowX;
      return (overflow === 'auto' || overflow === 'scroll') && element.scrollWidth > element.clientWidth;
    };
    const visible = (element: Element | null) => {
      if (!element || !element.getClientRects().length) return false;
      const rect = element.getBoundingClientRect();
      return rect.width > 0 && rect.height > 0 && getComputedStyle(element).visibility !== 'hidden' && inside(rect);
    };
    // The cue a sideways scroller must give: its hint, shown, within the screen.
    const cued = (scroller: Element) => {
      const hint = scroller.querySelector(':scope > .scroll-hint') ?? scroller.previousElementSibling;
      return !!hint?.matches('.scroll-hint') && visible(hint) && /scroll/i.test(hint.textContent ?? '');
    };
    // A label's text, not its box: a caption is as wide as its table, its words need not be.
    const textInside = (element: Element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return inside(range.getBoundingClientRect());
    };
    const found: { element: string; left: number; right: number; why: string }[] = [];
    const reported = new Set<Element>();
    for (const element of document.body.querySelectorAll('*')) {
      if (!element.getClientRects().length || getComputedStyle(element).visibility === 'hidden') continue;
      // A closed disclosure's content keeps its boxes in Chromium, though nobody sees it.
      if (element.closest('details:not([open]) > :not(summary)')) continue;
      if (element.parentElement && reported.has(element.parentElement)) {
        reported.add(element);
        continue;
      }
      const rect = element.getBoundingClientRect();
      if (!rect.width || inside(rect)) continue;
      let scroller: Element | null = element.parentElement;
      while (scroller && scroller !== document.body && !scrollsSideways(scroller)) scroller = scroller.parentElement;
      const label = element.closest('caption, figcaption, h1, h2, h3, summary, legend');
      let why = '';
      if (!scroller || scroller === document.body) why = 'past the screen, no sideways scroller around it';
      else if (!inside(scroller.getBoundingClientRect())) why = 'its scroller is itself past the screen';
      else if (!cued(scroller)) why = 'in a sideways scroller without a visible "scroll" hint';
      else if (label && !textInside(label)) why = 'a label whose words scroll away with its table';
      if (!why) continue;
      // One line per outermost offender: what it holds is outside with it.
      reported.add(element);
      found.push({ element: describe(element), left: Math.round(rect.left), right: Math.round(rect.right), why });
    }
    return found;
  });
}
