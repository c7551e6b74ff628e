// The web app's view pages and the files they load: the templates the views door routes by
// (doors/views.ts, `:id` the path's parameter) and the links the pages make from them.
export const VIEW_ASSETS_PATH = '/app/assets/views/';
export const VIEW_PAGE_PATHS = {
  report: '/app/reports/:id',
  visibility: '/app/ai-visibility/:id',
  answers: '/app/ai-visibility/:id/answers',
} as const;

const pagePath = (view: keyof typeof VIEW_PAGE_PATHS) => (id: string) =>
  VIEW_PAGE_PATHS[view].replace(':id', encodeURIComponent(id));
export const reportPagePath = pagePath('report');
export const visibilityPagePath = pagePath('visibility');
export const answersPagePath = pagePath('answers');
