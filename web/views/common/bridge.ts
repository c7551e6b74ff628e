// The view's side of MCP Apps (extension io.modelcontextprotocol/ui, revision 2026-01-26):
// JSON-RPC over postMessage with the host. Written out rather than taken from the SDK's App
// class, which bundles zod and the MCP client (docs/decisions/views-bundle-budget.md). Only
// what a view uses: the handshake, tool input and result, host context, tool calls, size
// changes and teardown.
export const APPS_PROTOCOL_VERSION = '2026-01-26';

/** The frame the host shows the view in: a fixed size or a most it will grow to, per axis. */
export interface ContainerDimensions {
  width?: number;
  maxWidth?: number;
  height?: number;
  maxHeight?: number;
}

export interface HostContext {
  theme?: 'light' | 'dark';
  containerDimensions?: ContainerDimensions;
  locale?: string;
  timeZone?: string;
  styles?: { variables?: Record<string, string | undefined> };
}

export interface ToolResult {
  content?: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

interface Message {
  jsonrpc: '2.0';
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

export interface BridgeHandlers {
  toolInput(args: Record<string, unknown>): void;
  toolResult(result: ToolResult): void;
  hostContext(context: HostContext): void;
}

/**
 * The size a view asks its host for: never wider than the frame it has (its own viewport, or
 * what the host says it can give), never taller than the host can show. A page wider than its
 * frame scrolls inside it; asking for its full width would ask the host for what it cannot show.
 */
export function requestedSize(contentHeight: number, viewportWidth: number, container: ContainerDimensions = {}) {
  const within = (value: number, ...limits: (number | undefined)[]) => {
    const known = limits.filter((limit): limit is number => typeof limit === 'number' && limit > 0);
    return Math.ceil(Math.min(value, ...known));
  };
  return {
    width: within(viewportWidth, container.width, container.maxWidth),
    height: within(contentHeight, container.height, container.maxHeight),
  };
}

export class AppBridge {
  private nextId = 1;
  private container: ContainerDimensions = {};
  private readonly pending = new Map<
    number | string,
    { resolve(result: Record<string, unknown>): void; reject(error: Error): void }
  >();

  constructor(private readonly handlers: BridgeHandlers) {
    window.addEventListener('message', (event) => {
      if (event.source !== window.parent) return;
      const message = event.data as Message;
      if (message?.jsonrpc === '2.0') this.receive(message);
    });
  }

  private post(message: Message) {
    window.parent.postMessage(message, '*');
  }

  private request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    this.post({ jsonrpc: '2.0', id, method, params });
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  private receive(message: Message) {
    if (message.id !== undefined && !message.method) {
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) waiting?.reject(new Error(message.error.message));
      else waiting?.resolve(message.result ?? {});
      return;
    }
    const params = message.params ?? {};
    if (message.id !== undefined) {
      // Requests from the host: teardown and ping are answered; nothing else is offered.
      const known = message.method === 'ui/resource-teardown' || message.method === 'ping';
      this.post(
        known
          ? { jsonrpc: '2.0', id: message.id, result: {} }
          : {
              jsonrpc: '2.0',
              id: message.id,
              error: { code: -32601, message: `${message.method} is not handled by this view` },
            },
      );
      return;
    }
    if (message.method === 'ui/notifications/tool-input')
      this.handlers.toolInput((params.arguments as Record<string, unknown>) ?? {});
    else if (message.method === 'ui/notifications/tool-result') this.handlers.toolResult(params as ToolResult);
    else if (message.method === 'ui/notifications/host-context-changed') {
      const context = params as HostContext;
      if (context.containerDimensions) this.container = context.containerDimensions;
      this.handlers.hostContext(context);
    }
  }

  /** The handshake; resolves with the host's context. */
  async connect(name: string): Promise<HostContext> {
    const result = await this.request('ui/initialize', {
      appInfo: { name, version: '1.0.0' },
      appCapabilities: {},
      protocolVersion: APPS_PROTOCOL_VERSION,
    });
    const context = (result.hostContext as HostContext) ?? {};
    this.container = context.containerDimensions ?? {};
    this.post({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
    this.reportSize();
    return context;
  }

  callTool(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    return this.request('tools/call', { name, arguments: args }) as Promise<ToolResult>;
  }

  /** Tells the host the document's size when it changes (debounced: hosts log each one). */
  private reportSize() {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = '';
    new ResizeObserver(() => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const size = requestedSize(document.documentElement.scrollHeight, window.innerWidth, this.container);
        if (`${size.width}x${size.height}` === last) return;
        last = `${size.width}x${size.height}`;
        this.post({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: size });
      }, 100);
    }).observe(document.documentElement);
  }
}
