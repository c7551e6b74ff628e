// The front door of settings/: what other features may use. Files elsewhere import from here,
// not from the files behind it (composition roots and lazy loads excepted; test/layers.test.ts).
export { SETTINGS_PATH } from './paths.js';
export { createSettingsHandler } from './handler.js';
