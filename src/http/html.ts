// Server-rendered pages of the web app (sign-in, settings): plain HTML and a little CSS, no
// front-end build. Every interpolated value goes through `html` escaping.
import { prefersHtml } from './negotiation.js';
import { Response } from './responses.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (value: unknown) => String(value ?? '').replace(/[&<>"']/g, (char) => ESCAPES[char]!);

/** A template tag: interpolations are escaped unless they are already-built `SafeHtml`. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString() {
    return this.value;
  }
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((value, index) => {
    const rendered = Array.isArray(value)
      ? value.map((item) => (item instanceof SafeHtml ? item.value : escapeHtml(item))).join('')
      : value instanceof SafeHtml
        ? value.value
        : escapeHtml(value);
    out += rendered + strings[index + 1]!;
  });
  return new SafeHtml(out);
}

const STYLE = `
:root { color-scheme: light; --ink:#1d2433; --muted:#5b6475; --line:#dfe3ea; --accent:#3b5bdb; --danger:#c92a2a;
  --ok:#2b8a3e; }
* { box-sizing: border-box; }
body { margin:0; font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif; color:var(--ink);
  background:#f6f7f9; }
header { display:flex; align-items:center; gap:16px; padding:12px 24px; background:#fff;
  border-bottom:1px solid var(--line); }
header .brand { font-weight:700; }
header .spacer { flex:1; }
main { max-width:980px; margin:24px auto; padding:0 24px; }
section { background:#fff; border:1px solid var(--line); border-radius:8px; padding:16px 20px; margin-bottom:20px; }
h1 { font-size:22px; margin:0 0 16px; } h2 { font-size:17px; margin:0 0 12px; }
table { width:100%; border-collapse:collapse; font-size:14px; }
th, td { text-align:left; padding:6px 8px; border-bottom:1px solid var(--line); vertical-align:top; }
th { color:var(--muted); font-weight:600; }
form.inline { display:inline; }
form.row { display:flex; flex-wrap:wrap; gap:8px; align-items:flex-end; margin-top:12px; }
label { display:flex; flex-direction:column; font-size:13px; color:var(--muted); gap:2px; }
label.check { flex-direction:row; align-items:flex-start; gap:6px; color:inherit; font-size:14px; }
fieldset { border:1px solid var(--line); border-radius:6px; margin:0; padding:8px 12px; display:flex;
  flex-direction:column; gap:6px; }
legend { font-size:13px; color:var(--muted); padding:0 4px; }
input, select { font:inherit; padding:6px 8px; border:1px solid var(--line); border-radius:6px; }
button { font:inherit; padding:6px 12px; border-radius:6px; border:1px solid var(--accent); background:var(--accent);
  color:#fff; cursor:pointer; }
button.secondary { background:#fff; color:var(--accent); }
button.danger { border-color:var(--danger); background:#fff; color:var(--danger); }
.notice { padding:10px 14px; border-radius:6px; margin-bottom:16px; border:1px solid var(--line); background:#fff; }
.notice.ok { border-color:var(--ok); } .notice.error { border-color:var(--danger); color:var(--danger); }
.secret { font-family:ui-monospace,monospace; background:#fff8db; padding:8px; border-radius:4px;
  word-break:break-all; display:block; margin-top:6px; }
.muted { color:var(--muted); } code { font-family:ui-monospace,monospace; font-size:13px; }
.badge { display:inline-block; padding:0 6px; border-radius:10px; font-size:12px; border:1px solid var(--line); }
.badge.on { border-color:var(--ok); color:var(--ok); } .badge.off { border-color:var(--danger); color:var(--danger); }
.login { max-width:380px; margin:80px auto; }
.views-menu { position:relative; } .views-menu li { overflow-wrap:anywhere; }
.views-menu summary { cursor:pointer; color:var(--accent); }
.views-menu ul { position:absolute; z-index:2; margin:6px 0 0; padding:8px 14px; list-style:none; background:#fff;
  border:1px solid var(--line); border-radius:6px; min-width:260px; max-width:min(90vw, 420px); max-height:70vh;
  overflow-y:auto; }
.login form { display:flex; flex-direction:column; gap:10px; }
/* A card's details table holds values the page does not choose (client ids that are URLs, long
   hosts and emails): it keeps to the card's width and breaks them rather than running out. */
.login table { table-layout:fixed; } .login th { width:38%; } .login td { overflow-wrap:anywhere; }
input, select { max-width:100%; } code { overflow-wrap:anywhere; }
main > section td code { overflow-wrap:normal; white-space:nowrap; }
main > section td code.wrap { white-space:normal; overflow-wrap:anywhere; }
/* A phone (390 px): the header wraps and the Views menu opens under it across the screen; each
   row of a settings table is a card whose cells name their column, so no column hides off-screen. */
@media (max-width: 640px) {
  header { position:relative; flex-wrap:wrap; gap:8px 12px; padding:10px 12px; }
  header .views-menu { position:static; } header .views-menu ul { left:8px; right:8px; min-width:0; max-width:none; }
  main { margin:12px auto; padding:0 10px; }
  section { padding:12px; }
  table.list, table.list tbody, table.list tr, table.list td { display:block; }
  table.list thead { display:none; }
  table.list tr { border:1px solid var(--line); border-radius:6px; padding:6px 10px; margin-bottom:8px; }
  table.list td { position:relative; border:0; padding:3px 0 3px 8em; overflow-wrap:anywhere; }
  table.list td::before { content:attr(data-label); position:absolute; left:0; width:7.5em; color:var(--muted);
    font-size:13px; }
  table.list td:empty { display:none; } table.list td[colspan] { display:block; }
  table.list td[colspan] { padding-left:0; } table.list td[colspan]::before { content:none; }
  main > section table.list td code { white-space:normal; overflow-wrap:anywhere; }
}
`;

const HEAD_END = new SafeHtml(`<link rel="icon" href="data:,"><style>${STYLE}</style></head>`);

export function page(title: string, body: SafeHtml, options: { header?: SafeHtml } = {}): SafeHtml {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Signalboard</title>${HEAD_END}
<body>${options.header ?? ''}<main>${body}</main></body></html>`;
}

export interface PagePolicy {
  /** Extra script sources ('self' for our own assets); none by default: the pages are forms. */
  scripts?: string[];
  /**
   * Where the page's forms may post (and be redirected): our origin, plus an OAuth client's redirect origin on consent.
   */
  formAction?: string[];
  /** Further directives of a page that runs an app (GraphiQL, the API reference). */
  extra?: string[];
}

/**
 * The headers every HTML page sends: a strict CSP without inline script, no framing, no referrer (nosniff is on every
 * answer: NO_SNIFF in http/responses.ts).
 */
export function pageSecurityHeaders(policy: PagePolicy = {}): Record<string, string> {
  const directives = [
    "default-src 'none'",
    `script-src ${policy.scripts?.length ? policy.scripts.join(' ') : "'none'"}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    `form-action ${["'self'", ...(policy.formAction ?? [])].join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    ...(policy.extra ?? []),
  ];
  return {
    'Content-Security-Policy': directives.join('; '),
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
  };
}

export function htmlResponse(
  body: SafeHtml,
  status = 200,
  headers: Record<string, string> = {},
  policy: PagePolicy = {},
): Response {
  return new Response(body.value, {
    status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      ...pageSecurityHeaders(policy),
      ...headers,
    },
  });
}

/** Browsers navigating (HTML preferred, by q-value) or posting forms want HTML; API clients get JSON. */
export const wantsHtml = (request: Request) => {
  const type = request.headers.get('content-type') ?? '';
  if (type.startsWith('application/json')) return false;
  return type.startsWith('application/x-www-form-urlencoded') || prefersHtml(request.headers.get('accept'));
};
