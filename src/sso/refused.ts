// A refused single sign-on: the person reads why, and what to do instead.
import { ApiError } from '../errors/index.js';

export const refused = (message: string) => new ApiError('forbidden', `Single sign-on refused: ${message}`);
