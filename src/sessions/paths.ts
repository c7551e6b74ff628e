// The web app's sign-in addresses, for the pages and doors that send people to them.
export const LOGIN_PATH = '/app/login';
export const LOGOUT_PATH = '/app/logout';
export const SESSION_PATH = '/app/session';
export const SWITCH_WORKSPACE_PATH = '/app/session/workspace';
export const PASSWORD_PATH = '/app/password';
export const FORGOT_PASSWORD_PATH = '/app/password/forgot';
export const RESET_PASSWORD_PATH = '/app/password/reset';
