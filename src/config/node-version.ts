// Imported first by every entry point: ES modules evaluate their imports in order, so this
// check runs before any dependency can fail (or warn) on an unsupported runtime.
export const MINIMUM_NODE_MAJOR = 22;

export function nodeMajor(version: string = process.versions.node): number {
  return Number.parseInt(version.split('.')[0] ?? '0', 10);
}

if (nodeMajor() < MINIMUM_NODE_MAJOR) {
  console.error(
    `Signalboard needs Node.js ${MINIMUM_NODE_MAJOR} or newer (24 LTS recommended); this is ${process.version}. ` +
      'Run it through npm (`npm start`), which uses the Node 24 the project installs, or install Node 24 LTS.',
  );
  process.exit(1);
}
