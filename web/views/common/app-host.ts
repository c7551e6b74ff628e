// In an MCP App (an iframe of Claude, ChatGPT, VS Code…) the view is handed the model tool's
// arguments and result, works out what to show from them, and reads its data with its app-only
// tool through the host.
import { AppBridge, type HostContext, type ToolResult } from './bridge.js';
import { message, type Args, type Host, type ViewDefinition, type ViewRuntime } from './view-runtime.js';

function applyTheme(theme: HostContext['theme']) {
  if (theme) document.documentElement.dataset.theme = theme;
}

/** Makes `host` the MCP App's (its data from the app-only tool) and waits for the tool's result. */
export function startInApp<A extends Args, D>(view: ViewDefinition<A, D>, host: Host<A, D>, runtime: ViewRuntime<A>) {
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
      void runtime.show(args);
    },
    hostContext: (context) => {
      applyTheme(context.theme);
      if (context.locale && context.locale !== host.locale) {
        host.locale = context.locale;
        runtime.draw();
      } else if (context.theme) runtime.draw();
    },
  });
  host.load = async (args) => {
    const result = await bridge.callTool(view.tool, args);
    if (result.isError || !result.structuredContent) throw new Error(textOf(result));
    return result.structuredContent as D;
  };
  message('Waiting for the tool’s result…', 'loading');
  void bridge.connect(view.title).then(
    (context) => {
      applyTheme(context.theme);
      host.locale = context.locale;
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
