// The web app's view pages and the files they load, for the pages that link to them.
export const VIEW_ASSETS_PATH = '/app/assets/views/';
export const reportPagePath = (id: string) => `/app/reports/${encodeURIComponent(id)}`;
export const visibilityPagePath = (projectId: string) => `/app/ai-visibility/${encodeURIComponent(projectId)}`;
export const answersPagePath = (projectId: string) => `${visibilityPagePath(projectId)}/answers`;
