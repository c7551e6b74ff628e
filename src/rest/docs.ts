import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

// The API reference page: Scalar's standalone bundle, served from node_modules by
// /api/v1/docs/scalar.js rather than a CDN.
export function apiReferencePage(openApiUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Signalboard API v1 reference</title><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body>
<script id="api-reference" data-url="${openApiUrl}"></script>
<script src="/api/v1/docs/scalar.js"></script>
</body>
</html>`;
}

let bundle: Promise<Buffer> | undefined;

export function scalarBundle(): Promise<Buffer> {
  const packageJson = createRequire(import.meta.url).resolve('@scalar/api-reference/package.json');
  bundle ??= readFile(path.join(path.dirname(packageJson), 'dist/browser/standalone.js'));
  return bundle;
}
