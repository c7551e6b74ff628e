import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

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
  bundle ??= readFile(createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js'));
  return bundle;
}
