// The views (web/views/<view>.ts: report, AI visibility, answers), each one implementation for
// both of its hosts. esbuild bundles a view into one script and one style sheet on its first use
// in a process (~0.3 s), so nothing built is committed and `npm start`, the tests and the image
// serve what the sources say. An MCP App gets one self-contained HTML document (script and style
// inline: its host allows no outside connection); the web pages, whose CSP allows no inline
// script, load the same script and sheet as files.
import path from 'node:path';

export const VIEWS = ['report', 'visibility', 'answers'] as const;
export type ViewName = (typeof VIEWS)[number];

export const VIEW_SOURCES_DIR = path.resolve(import.meta.dirname, '../../web/views');

export interface ViewBundle {
  js: string;
  css: string;
}

const bundles = new Map<ViewName, Promise<ViewBundle>>();

async function buildView(view: ViewName): Promise<ViewBundle> {
  // esbuild is loaded with the first view: instances that never show one never hold it.
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [path.join(VIEW_SOURCES_DIR, `${view}.ts`)],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2022',
    write: false,
    outdir: 'out',
    legalComments: 'none',
    logLevel: 'silent',
  });
  const text = (extension: string) => result.outputFiles.find((file) => file.path.endsWith(extension))?.text ?? '';
  return { js: text('.js'), css: text('.css') };
}

export function viewBundle(view: ViewName): Promise<ViewBundle> {
  let bundle = bundles.get(view);
  if (!bundle) {
    bundle = buildView(view);
    // A failed build is not kept: the next request tries again and reports its own error.
    bundle.catch(() => bundles.delete(view));
    bundles.set(view, bundle);
  }
  return bundle;
}

// Inline text must not close its element early.
const inlineScript = (js: string) => js.replace(/<\/(script)/gi, '<\\/$1');
const inlineStyle = (css: string) => css.replace(/<\/(style)/gi, '<\\/$1');

/** The view as one HTML document with its script and style inline (an MCP App's resource). */
export async function selfContainedDocument(view: ViewName, title: string): Promise<string> {
  const { js, css } = await viewBundle(view);
  const head =
    '<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${title}</title><style>${inlineStyle(css)}</style>`;
  const body = `<div id="view"></div><script>${inlineScript(js)}</script>`;
  return `<!doctype html><html lang="en"><head>${head}</head><body>${body}</body></html>`;
}
