// What the docs tests read from Markdown: the fenced blocks (with the skip marker that may
// precede one) and the relative links. Pure functions over the file's text.
import { readdirSync } from 'node:fs';
import path from 'node:path';

export const REPOSITORY = path.resolve(import.meta.dirname, '../..');

/** README.md and every page under docs/, as paths relative to the repository. */
export function documentationFiles(): string[] {
  const pages = readdirSync(path.join(REPOSITORY, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...pages];
}

export interface FencedBlock {
  info: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The reason of a `<!-- docs-test: skip (reason) -->` line just above the fence, if any. */
  skip: string | null;
}

const SKIP_MARKER = /^<!--\s*docs-test:\s*skip\s*\((.+)\)\s*-->$/;

export function fencedBlocks(markdown: string): FencedBlock[] {
  const lines = markdown.split('\n');
  const blocks: FencedBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const opening = /^(\s*)(`{3,})(.*)$/.exec(lines[index]!);
    if (!opening) continue;
    const [, indent, fence, info] = opening;
    const body: string[] = [];
    let end = index + 1;
    for (; end < lines.length && !lines[end]!.startsWith(`${indent}${fence}`); end++)
      body.push(lines[end]!.slice(indent!.length));
    let previous = index - 1;
    while (previous >= 0 && lines[previous]!.trim() === '') previous--;
    const marker = previous >= 0 ? SKIP_MARKER.exec(lines[previous]!.trim()) : null;
    blocks.push({ info: info!.trim(), code: body.join('\n'), line: index + 1, skip: marker ? marker[1]! : null });
    index = end;
  }
  return blocks;
}

/** The blocks the commands test runs: ```bash without a skip marker. */
export const runnableBlocks = (markdown: string) =>
  fencedBlocks(markdown).filter((block) => block.info === 'bash' && block.skip === null);

export interface Link {
  target: string;
  line: number;
}

/** Inline links and images outside fenced code, with targets that are not URLs of a scheme. */
export function relativeLinks(markdown: string): Link[] {
  const links: Link[] = [];
  let inFence = false;
  markdown.split('\n').forEach((text, index) => {
    if (/^\s*`{3,}/.test(text)) inFence = !inFence;
    if (inFence) return;
    const withoutCode = text.replace(/`[^`]*`/g, '');
    for (const match of withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1]!;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push({ target, line: index + 1 });
    }
  });
  return links;
}

/** GitHub's anchor of a heading: lower-case, punctuation dropped, spaces to hyphens. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let inFence = false;
  for (const text of markdown.split('\n')) {
    if (/^\s*`{3,}/.test(text)) inFence = !inFence;
    const heading = !inFence && /^#{1,6}\s+(.*)$/.exec(text);
    if (!heading) continue;
    let anchor = heading[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    for (let n = 1; anchors.has(anchor); n++) anchor = `${anchor.replace(/-\d+$/, '')}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}
