// The page of the test MCP Apps host (bundled for Chromium by apps-host.ts): the SDK's own
// AppBridge, as Claude, ChatGPT and VS Code embed a view, talking to the view in a sandboxed
// iframe; tool calls from the view go to the test through an exposed function.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

interface HostWindow {
  hostCallTool(params: unknown): Promise<never>;
  /** Every size the view asked for, in order. */
  sizeChanges: { width?: number; height?: number }[];
  showView(toolInput: Record<string, unknown>, toolResult: never, hostContext: Record<string, unknown>): Promise<void>;
}

(window as unknown as HostWindow).showView = async (toolInput, toolResult, hostContext) => {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.src = '/view';
  frame.title = 'view';
  frame.style.cssText = 'width:100%;border:0;height:400px';
  document.body.append(frame);
  const bridge = new AppBridge(
    null,
    { name: 'signalboard-test-host', version: '1.0.0' },
    { serverTools: {}, logging: {} },
    { hostContext: hostContext as never },
  );
  bridge.oncalltool = (params) => (window as unknown as HostWindow).hostCallTool(params);
  (window as unknown as HostWindow).sizeChanges = [];
  bridge.onsizechange = ({ width, height }) => {
    (window as unknown as HostWindow).sizeChanges.push({ width, height });
    if (height) frame.style.height = `${height}px`;
  };
  bridge.oninitialized = () => {
    void bridge.sendToolInput({ arguments: toolInput }).then(() => bridge.sendToolResult(toolResult));
  };
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
};
