// One view, two hosts. In an MCP App (an iframe of Claude, ChatGPT, VS Code…) the view is
// handed the model tool's arguments and result, works out what to show from them, and reads its
// data with its app-only tool through the host. On the web app's page it is told what to show
// by the page and reads the same operation from /graphql as a trusted (persisted) operation.
// Either way the data has one shape: the GraphQL operation's `data`.
import { AppBridge, type HostContext, type ToolResult } from './bridge.js';
import { h } from './dom.js';
import { formats, type Formats } from './format.js';

export type Args = Record<string, unknown>;

export interface ViewApi<A extends Args> {
  formats: Formats;
  /** Show the view again for other arguments (a preset, a range, a page). */
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

async function readGraphQL(operation: string, variables: Args): Promise<unknown> {
  const response = await fetch('/graphql', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ variables, extensions: { persistedQuery: { version: 1, sha256Hash: operation } } }),
  });
  const body = (await response.json()) as { data?: unknown; errors?: { message: string }[] };
  if (body.errors?.length) throw new Error(body.errors[0]!.message);
  return body.data;
}

function applyTheme(theme: HostContext['theme']) {
  if (theme) document.documentElement.dataset.theme = theme;
}

export function startView<A extends Args, D>(view: ViewDefinition<A, D>): void {
  let load: (args: A) => Promise<D>;
  let locale: string | undefined;
  let shown: { data: D; args: A } | null = null;

  const draw = () => {
    if (!shown) return;
    const api: ViewApi<A> = { formats: formats(locale), reload: (args) => void show(args) };
    const container = root();
    container.replaceChildren();
    view.render(container, shown.data, shown.args, api);
  };

  async function show(args: A) {
    if (!shown) message('Loading…', 'loading');
    document.documentElement.setAttribute('aria-busy', 'true');
    try {
      shown = { data: await load(args), args };
      draw();
    } catch (error) {
      message((error as Error).message || 'The data could not be read.', 'error');
    } finally {
      document.documentElement.removeAttribute('aria-busy');
    }
  }

  const page = root().dataset.page;
  if (page) {
    // The web app's page: no inline script, so what to show comes as data attributes.
    const config = JSON.parse(page) as PageConfig;
    load = (args) => readGraphQL(config.operation, args) as Promise<D>;
    void show(config.args as A);
    return;
  }

  let input: Args = {};
  const bridge = new AppBridge({
    toolInput: (args) => (input = args),
    toolResult: (result) => {
      const args = view.argsFrom(input, result.structuredContent);
      if (!args) return message(result.isError ? textOf(result) : 'Nothing to show for this result.', result.isError ? 'error' : 'empty');
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
  void bridge.connect(view.title).then((context) => {
    applyTheme(context.theme);
    locale = context.locale;
  }, (error: Error) => message(error.message, 'error'));
}

function textOf(result: ToolResult): string {
  const text = result.content?.find((block) => block.type === 'text')?.text ?? '';
  try {
    return (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
  } catch {
    return text || 'The tool failed.';
  }
}
