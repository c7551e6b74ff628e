// The settings page's address, for pages that send people there (after sign-in, after SSO).
export const SETTINGS_PATH = '/app/settings';
