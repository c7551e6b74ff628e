// The front door of views/: what other features may use.
export { selfContainedDocument, viewBundle, VIEWS, type ViewName } from './bundles.js';
export { viewLinks, viewsMenu, type ViewLinks } from './links.js';
export { VIEW_ASSETS_PATH, VIEW_PAGE_PATHS } from './paths.js';
