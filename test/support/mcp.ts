// An MCP client that knows only the server URL: the official SDK's client performs discovery,
// dynamic registration, PKCE and the token exchange; the "browser" step (sign-in and consent)
// is done here with the person's web-app session, following redirects with a cookie jar.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

export const REDIRECT_URL = 'http://127.0.0.1:1/callback';

/**
 * The person in the browser: signed in, and what they choose on the consent page (by default: the first
 * workspace, everything the app asked for).
 */
export interface Browser {
  cookie: string;
  workspaceId?: string;
  decision?: 'allow' | 'deny';
  /** The toolsets left ticked; unset = all that are offered. */
  toolsets?: string[];
  /** Leaves "make changes" ticked when offered; default true. */
  writes?: boolean;
  /** Form fields added as they are, as a hostile page or person would. */
  forged?: [string, string][];
  /** Where the app listens for the code (default REDIRECT_URL): the walk stops there. */
  redirectUrl?: string;
}

export class TestOAuthProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  code: string | null = null;
  lastAuthorizationUrl: URL | null = null;
  consentPage = '';
  /** When set, the client identifies itself by this metadata document URL instead of registering (if supported). */
  clientMetadataUrl?: string;

  constructor(
    private readonly browser: Browser,
    readonly clientName = 'Test MCP client',
  ) {}

  get redirectUrl() {
    return REDIRECT_URL;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.clientName,
      redirect_uris: [REDIRECT_URL],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: 'mcp offline_access',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.client = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  async redirectToAuthorization(url: URL) {
    this.lastAuthorizationUrl = url;
    this.code = await consent(url, this.browser, (page) => (this.consentPage = page));
  }
}

/** Follows the authorization request through sign-in and consent to the redirect with the code. */
export async function consent(
  url: URL,
  browser: Browser,
  onPage: (html: string) => void = () => {},
): Promise<string | null> {
  const jar = new Map<string, string>([
    [browser.cookie.split('=')[0]!, browser.cookie.slice(browser.cookie.indexOf('=') + 1)],
  ]);
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  let current = url;
  let method = 'GET';
  let body: string | undefined;
  for (let hop = 0; hop < 15; hop++) {
    if (current.href.startsWith(browser.redirectUrl ?? REDIRECT_URL)) {
      const error = current.searchParams.get('error');
      if (error)
        throw new Error(`authorization refused: ${error} ${current.searchParams.get('error_description') ?? ''}`);
      return current.searchParams.get('code');
    }
    const response = await fetch(current, {
      method,
      redirect: 'manual',
      headers: {
        cookie: cookieHeader(),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded', origin: current.origin } : {}),
      },
      ...(body ? { body } : {}),
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const index = pair!.indexOf('=');
      jar.set(pair!.slice(0, index), pair!.slice(index + 1));
    }
    method = 'GET';
    body = undefined;
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      current = new URL(location, current);
      continue;
    }
    const html = await response.text();
    onPage(html);
    const form = /<form method="post" action="([^"]+)">[\s\S]*?name="_csrf" value="([^"]+)"/.exec(html);
    if (!form) throw new Error(`no consent form (${response.status}): ${html.slice(0, 300)}`);
    const workspace = browser.workspaceId ?? /<option value="([^"]+)"/.exec(html)?.[1] ?? '';
    current = new URL(form[1]!, current);
    method = 'POST';
    const fields = new URLSearchParams({ _csrf: form[2]!, workspace, decision: browser.decision ?? 'allow' });
    for (const [, toolset] of html.matchAll(/name="toolset" value="([^"]+)" checked/g))
      if (!browser.toolsets || browser.toolsets.includes(toolset!)) fields.append('toolset', toolset!);
    if (/name="writes" checked/.test(html) && browser.writes !== false) fields.set('writes', 'on');
    for (const [name, value] of browser.forged ?? []) fields.append(name, value);
    body = fields.toString();
  }
  throw new Error('too many redirects');
}

/** Connects, going through the whole OAuth flow when the provider has no token yet. */
/** A 2025-era client; `capabilities` are what it declares at initialize (an MCP Apps host declares the extension). */
export async function connectMcp(
  baseUrl: string,
  provider: TestOAuthProvider,
  path = '/mcp',
  capabilities: ConstructorParameters<typeof Client>[1] = {},
): Promise<Client> {
  const url = new URL(`${baseUrl}${path}`);
  const client = new Client({ name: 'signalboard-tests', version: '1.0.0' }, capabilities);
  try {
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    return client;
  } catch (error) {
    if (!(error instanceof UnauthorizedError) || !provider.code) throw error;
  }
  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await transport.finishAuth(provider.code);
  const connected = new Client({ name: 'signalboard-tests', version: '1.0.0' }, capabilities);
  await connected.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  return connected;
}
