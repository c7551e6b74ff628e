// The top frames of a V8 CPU profile (`node --cpu-prof`): self time per function and per file, as a
// share of the profile's samples. Idle and GC are kept as V8 names them, so a reader sees how much of
// the JS thread was busy at all.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

const shortUrl = (url: string) =>
  url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/(node_modules\/)/, '$1')
    .replace(/^.*\/dist\//, 'dist/') || '(native)';

/** The top `count` functions and files by self time, in percent of all samples, of every profile in `dir`. */
export function topFrames(dir: string, count = 20) {
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { nodes: ProfileNode[] };
    for (const node of profile.nodes) {
      const hits = node.hitCount ?? 0;
      if (!hits) continue;
      total += hits;
      const { functionName, url, lineNumber } = node.callFrame;
      const where = shortUrl(url);
      const name = `${functionName || '(anonymous)'} ${where}${url ? `:${lineNumber + 1}` : ''}`;
      byFunction.set(name, (byFunction.get(name) ?? 0) + hits);
      byFile.set(where, (byFile.get(where) ?? 0) + hits);
    }
  }
  const top = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([frame, hits]) => ({ frame, 'self %': Number(((100 * hits) / total).toFixed(1)) }));
  return { functions: top(byFunction), files: top(byFile) };
}
