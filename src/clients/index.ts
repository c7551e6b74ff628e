// The front door of clients/: what other features may use. Files elsewhere import from here,
// not from the files behind it (composition roots and lazy loads excepted; test/layers.test.ts).
export { assertClientOfWorkspace } from './ownership.js';
export { clientRepository } from './repository.js';
export type { ClientRow } from './repository.js';
export { archiveClient, createClient, renameClient, setClientCurrency } from './client-management.js';
