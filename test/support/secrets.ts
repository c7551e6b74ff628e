/** A fixed APP_SECRET_KEY for tests, so no test generates one into .data/. */
export const TEST_APP_SECRET_KEY = Buffer.alloc(32, 7).toString('base64');
