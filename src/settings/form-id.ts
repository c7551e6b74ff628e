// A create form's one-time id (the page draws it, action.ts reads it, adminCommand's `formId` keeps it).
import { base62 } from '../db/ids.js';

/** The field of a create form that names that form's one drawing. */
export const FORM_ID_FIELD = 'formId';

/** A new id for a create form each time one is drawn: sent twice, the form creates once. */
export const newFormId = () => base62(22);
