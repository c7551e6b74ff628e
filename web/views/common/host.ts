// One view, two hosts. In an MCP App (an iframe of Claude, ChatGPT, VS Code…) the view is
// handed the model tool's arguments and result, works out what to show from them, and reads its
// data with its app-only tool through the host. On the web app's page it is told what to show
// by the page and reads the same operation from /graphql as a trusted (persisted) operation.
// Either way the data has one shape: the GraphQL operation's `data`.
import { startInApp } from './app-host.js';
import { startOnPage, type PageConfig } from './page-host.js';
import { viewRuntime, type Args, type Host, type ViewDefinition } from './view-runtime.js';

export type { Args, ViewApi, ViewDefinition } from './view-runtime.js';

export function startView<A extends Args, D>(view: ViewDefinition<A, D>): void {
  const page = document.getElementById('view')!.dataset.page;
  const nothing = () => {};
  const host: Host<A, D> = {
    load: () => Promise.reject(new Error('The view has no host yet.')),
    locale: undefined,
    onPage: Boolean(page),
    remember: nothing,
    correct: nothing,
    rescue: () => null,
    noticeOf: () => document.createElement('p'),
  };
  const runtime = viewRuntime(view, host);
  if (page) startOnPage(view, JSON.parse(page) as PageConfig, host, runtime);
  else startInApp(view, host, runtime);
}
