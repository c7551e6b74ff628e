// One view, two hosts. In an MCP App (an iframe of Claude, ChatGPT, VS Code…) the view is
// handed the model tool's arguments and result, works out what to show from them, and reads its
// data with its app-only tool through the host. On the web app's page it is told what to show
// by the page and reads the same operation from /graphql as a trusted (persisted) operation.
// Either way the data has one shape: the GraphQL operation's `data`.
import { AppBridge, type HostContext, type ToolResult } from './bridge.js';
import { argsOfQuery, dataArgs, differing, queryOf, refusedArguments, sameData, withoutRefused } from './address.js';
import { bdi, clip, h } from './dom.js';
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

interface PageConfig {
  operation: string;
  args: Args;
}

const root = () => document.getElementById('view')!;

function message(text: string, kind: 'empty' | 'error' | 'loading') {
  root().replaceChildren(h('p', { class: `notice ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text));
}

/** The server refused the arguments asked (a 400), naming those it could. */
class Refusal extends Error {
  constructor(
    message: string,
    readonly refused: string[],
  ) {
    super(message);
  }
}

async function readGraphQL(operation: string, variables: Args): Promise<unknown> {
  const response = await fetch('/graphql', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ variables, extensions: { persistedQuery: { version: 1, sha256Hash: operation } } }),
  });
  const body = (await response.json()) as { data?: unknown; errors?: { message: string; extensions?: Args }[] };
  if (body.errors?.length) {
    const text = body.errors[0]!.message;
    throw response.status === 400 ? new Refusal(text, refusedArguments(body.errors)) : new Error(text);
  }
  return body.data;
}

/** Said above a view drawn without what its address asked for; each value is the address's text, isolated. */
function fallbackNotice(dropped: Args): HTMLElement {
  const asked = Object.entries(dropped).flatMap(([key, value], index) => [
    index ? ', ' : '',
    `${key} “`,
    bdi(clip([value].flat().join(', '), 60)),
    '”',
  ]);
  return h(
    'p',
    { class: 'notice fallback', role: 'status' },
    'The address asked for ',
    asked,
    ', which this view cannot show: it shows its default instead.',
  );
}

function applyTheme(theme: HostContext['theme']) {
  if (theme) document.documentElement.dataset.theme = theme;
}

export function startView<A extends Args, D>(view: ViewDefinition<A, D>): void {
  const page = root().dataset.page;
  let load: (args: A) => Promise<D>;
  let locale: string | undefined;
  let shown: { data: D; args: A } | null = null;
  // Where a web page writes down what it shows, and what it shows instead of what its address
  // asked for and the server refused (nothing in an MCP App, which has no address).
  let remember = (_args: A) => {};
  let correct = (_args: A) => {};
  let rescue = (_args: A, _refused: string[]): { args: A; dropped: Args } | null => null;
  // Above the view while it shows something other than what its address asked for.
  let notice: HTMLElement | null = null;
  const local = view.local ?? [];

  const draw = () => {
    if (!shown) return;
    const api: ViewApi<A> = {
      formats: formats(locale),
      reload: (args) => {
        remember(args);
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

  /** The data for `args`, or for what is left of them once each argument the server refuses is left out. */
  async function read(args: A): Promise<{ data: D; args: A; dropped: Args }> {
    const dropped: Args = {};
    for (let asked = args; ;) {
      try {
        return { data: await load(dataArgs(asked, local) as A), args: asked, dropped };
      } catch (error) {
        const instead = error instanceof Refusal ? rescue(asked, error.refused) : null;
        if (!instead) throw error;
        Object.assign(dropped, instead.dropped);
        asked = instead.args;
      }
    }
  }

  /** Draws the data for the arguments as the view shows them, saying what of those asked it left out. */
  function settle(data: D, args: A, dropped: Args) {
    const drawn = view.shownArgs?.(data, args) ?? args;
    const left = { ...dropped, ...differing(args, drawn) };
    shown = { data, args: drawn };
    if (Object.keys(left).length && page) {
      notice = fallbackNotice(left);
      correct(drawn);
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
      const found = await read(args);
      settle(found.data, found.args, found.dropped);
    } catch (error) {
      message((error as Error).message || 'The data could not be read.', 'error');
    } finally {
      root().inert = false;
      document.documentElement.removeAttribute('aria-busy');
    }
  }

  if (page) {
    // The web app's page: no inline script, so what to show comes as data attributes.
    // What it shows is the page's address too: read back on load and on Back and Forward.
    const config = JSON.parse(page) as PageConfig;
    load = (args) => readGraphQL(config.operation, args) as Promise<D>;
    const fromAddress = () =>
      view.argsFrom({ ...argsOfQuery(location.search), ...config.args }, undefined) ?? (config.args as A);
    const write = (args: A, how: 'pushState' | 'replaceState') => {
      const address = `${location.pathname}${queryOf(args, config.args)}`;
      if (address !== `${location.pathname}${location.search}`) history[how](null, '', address);
    };
    remember = (args) => write(args, 'pushState');
    correct = (args) => write(args, 'replaceState');
    // What the server refuses is left out (the view's own arguments and the page's id are kept):
    // the page shows what is left, its controls with it, rather than only the refusal.
    rescue = (args, refused) => {
      const { args: left, dropped } = withoutRefused(args, refused, [...Object.keys(config.args), ...local]);
      if (!Object.keys(dropped).length) return null;
      return { args: view.argsFrom({ ...left, ...config.args }, undefined) ?? (config.args as A), dropped };
    };
    addEventListener('popstate', () => void show(fromAddress()));
    const first = fromAddress();
    write(first, 'replaceState');
    void show(first);
    return;
  }

  let input: Args = {};
  const bridge = new AppBridge({
    toolInput: (args) => (input = args),
    toolResult: (result) => {
      const args = view.argsFrom(input, result.structuredContent);
      if (!args)
        return message(
          result.isError ? textOf(result) : 'Nothing to show for this result.',
          result.isError ? 'error' : 'empty',
        );
      void show(args);
    },
    hostContext: (context) => {
      applyTheme(context.theme);
      if (context.locale && context.locale !== locale) {
        locale = context.locale;
        draw();
      } else if (context.theme) draw();
    },
  });
  load = async (args) => {
    const result = await bridge.callTool(view.tool, args);
    if (result.isError || !result.structuredContent) throw new Error(textOf(result));
    return result.structuredContent as D;
  };
  message('Waiting for the tool’s result…', 'loading');
  void bridge.connect(view.title).then(
    (context) => {
      applyTheme(context.theme);
      locale = context.locale;
    },
    (error: Error) => message(error.message, 'error'),
  );
}

function textOf(result: ToolResult): string {
  const text = result.content?.find((block) => block.type === 'text')?.text ?? '';
  try {
    return (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
  } catch {
    return text || 'The tool failed.';
  }
}
