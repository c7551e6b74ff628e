// What a view does whichever its host: read its data for what it is asked to show (leaving out
// what the server refuses, where the host can), draw it, and draw it again for new arguments.
import { dataArgs, differing, sameData } from './address.js';
import { h } from './dom.js';
import { formats, type Formats } from './format.js';
import { cueScrollers } from './scroll.js';

export type Args = Record<string, unknown>;

export interface ViewApi<A extends Args> {
  formats: Formats;
  /** Show the view again for other arguments (a preset, a range, a page, a locale). */
  reload(args: A): void;
}

export interface ViewDefinition<A extends Args, D> {
  title: string;
  /** The app-only tool (MCP) and trusted operation (web) that reads the view's data. */
  tool: string;
  /**
   * What to show, from the model tool's arguments and structured result: hosts replay saved
   * results, so any shape this view ever had is read; null when neither names anything.
   */
  argsFrom(input: Args, result: Record<string, unknown> | undefined): A | null;
  /**
   * Arguments the view keeps to itself (a locale chosen among those read, the cursors of the
   * pages before this one): never sent to its tool, and changing them only draws the view again.
   */
  local?: readonly string[];
  /**
   * The arguments as the view draws these data: without one it replaced (a locale the data do
   * not hold, drawn as their first). A web page's address is corrected to them, and says so.
   */
  shownArgs?(data: D, args: A): A;
  render(root: HTMLElement, data: D, args: A, api: ViewApi<A>): void;
}

/** What the host gives the view: its data, and where what it shows is written down (a web page's address). */
export interface Host<A extends Args, D> {
  load(args: A): Promise<D>;
  locale: string | undefined;
  /** A web page's address; an MCP App has none (then nothing is written down or corrected). */
  onPage: boolean;
  remember(args: A): void;
  correct(args: A): void;
  /** What is left of `args` once those the server refused are left out; null when nothing can be. */
  rescue(args: A, refused: string[]): { args: A; dropped: Args } | null;
  /** Said above the view while it shows something other than what its address asked for. */
  noticeOf(dropped: Args): HTMLElement;
}

export const root = () => document.getElementById('view')!;

export function message(text: string, kind: 'empty' | 'error' | 'loading') {
  root().replaceChildren(h('p', { class: `notice ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text));
}

/** The server refused the arguments asked (a 400), naming those it could. */
export class Refusal extends Error {
  constructor(
    message: string,
    readonly refused: string[],
  ) {
    super(message);
  }
}

/** The data for `args`, or for what is left of them once each argument the server refuses is left out. */
async function read<A extends Args, D>(host: Host<A, D>, args: A, local: readonly string[]) {
  const dropped: Args = {};
  for (let asked = args; ;) {
    try {
      return { data: await host.load(dataArgs(asked, local) as A), args: asked, dropped };
    } catch (error) {
      const instead = error instanceof Refusal ? host.rescue(asked, error.refused) : null;
      if (!instead) throw error;
      Object.assign(dropped, instead.dropped);
      asked = instead.args;
    }
  }
}

export function viewRuntime<A extends Args, D>(view: ViewDefinition<A, D>, host: Host<A, D>) {
  let shown: { data: D; args: A } | null = null;
  // Above the view while it shows something other than what its address asked for.
  let notice: HTMLElement | null = null;
  const local = view.local ?? [];

  const draw = () => {
    if (!shown) return;
    const api: ViewApi<A> = {
      formats: formats(host.locale),
      reload: (args) => {
        host.remember(args);
        void show(args);
      },
    };
    const container = root();
    // Drawn anew, the control the keyboard was on keeps the focus (found by its label).
    const active = document.activeElement;
    const focused = active && container.contains(active) ? active.getAttribute('aria-label') : null;
    container.replaceChildren();
    view.render(container, shown.data, shown.args, api);
    if (notice) container.prepend(notice);
    cueScrollers(container);
    if (focused) container.querySelector<HTMLElement>(`[aria-label="${CSS.escape(focused)}"]`)?.focus();
  };

  /** Draws the data for the arguments as the view shows them, saying what of those asked it left out. */
  function settle(data: D, args: A, dropped: Args) {
    const drawn = view.shownArgs?.(data, args) ?? args;
    const left = { ...dropped, ...differing(args, drawn) };
    shown = { data, args: drawn };
    if (Object.keys(left).length && host.onPage) {
      notice = host.noticeOf(left);
      host.correct(drawn);
    }
    draw();
  }

  async function show(args: A) {
    notice = null;
    if (shown && sameData(shown.args, args, local)) return settle(shown.data, args, {});
    if (!shown) message('Loading…', 'loading');
    // Until the data arrive the controls wait: a second choice made on the old drawing would undo the first.
    root().inert = true;
    document.documentElement.setAttribute('aria-busy', 'true');
    try {
      const found = await read(host, args, local);
      settle(found.data, found.args, found.dropped);
    } catch (error) {
      message((error as Error).message || 'The data could not be read.', 'error');
    } finally {
      root().inert = false;
      document.documentElement.removeAttribute('aria-busy');
    }
  }

  return { draw, show };
}

export type ViewRuntime<A extends Args> = { draw(): void; show(args: A): Promise<void> };
