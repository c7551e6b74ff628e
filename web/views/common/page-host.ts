// The web app's page: no inline script, so what to show comes as data attributes, and the view
// reads its operation from /graphql as a trusted (persisted) operation. What it shows is the
// page's address too: read back on load and on Back and Forward.
import { argsOfQuery, queryOf, refusedArguments, withoutRefused } from './address.js';
import { bdi, clip, h } from './dom.js';
import { Refusal, type Args, type Host, type ViewDefinition, type ViewRuntime } from './view-runtime.js';

export interface PageConfig {
  operation: string;
  args: Args;
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
    // A refusal of the address's input: a 400, or an error naming an argument beside data that is there (a nested
    // field's range too wide answers 200 with the rest, as GraphQL over HTTP has it).
    const refused = refusedArguments(body.errors);
    throw response.status === 400 || refused.length ? new Refusal(text, refused) : new Error(text);
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

/** Makes `host` the page's (its data from /graphql, its address kept) and shows what the address asks. */
export function startOnPage<A extends Args, D>(
  view: ViewDefinition<A, D>,
  config: PageConfig,
  host: Host<A, D>,
  runtime: ViewRuntime<A>,
) {
  const local = view.local ?? [];
  host.load = (args) => readGraphQL(config.operation, args) as Promise<D>;
  host.noticeOf = fallbackNotice;
  const fromAddress = () =>
    view.argsFrom({ ...argsOfQuery(location.search), ...config.args }, undefined) ?? (config.args as A);
  const write = (args: A, how: 'pushState' | 'replaceState') => {
    const address = `${location.pathname}${queryOf(args, config.args)}`;
    if (address !== `${location.pathname}${location.search}`) history[how](null, '', address);
  };
  host.remember = (args) => write(args, 'pushState');
  host.correct = (args) => write(args, 'replaceState');
  // What the server refuses is left out (the view's own arguments and the page's id are kept):
  // the page shows what is left, its controls with it, rather than only the refusal.
  host.rescue = (args, refused) => {
    const { args: left, dropped } = withoutRefused(args, refused, [...Object.keys(config.args), ...local]);
    if (!Object.keys(dropped).length) return null;
    return { args: view.argsFrom({ ...left, ...config.args }, undefined) ?? (config.args as A), dropped };
  };
  addEventListener('popstate', () => void runtime.show(fromAddress()));
  const first = fromAddress();
  write(first, 'replaceState');
  void runtime.show(first);
}
