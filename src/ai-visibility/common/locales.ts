// Locales are BCP 47 language tags (RFC 5646), compared without regard to case as the RFC
// says: `en-us` is `en-US`. A tag is checked for form only (any well-formed tag may name a
// population a project tracks), and written in the RFC's case conventions (§2.1.1) so one
// locale has one spelling in filters, cache keys and stored projects. The language subtag has
// 2 or 3 letters: the 4-letter form is reserved and no 5–8-letter one is registered, and
// accepting them would take a misspelling such as `english` for a locale. Private-use-only and
// grandfathered tags are not locales a project tracks.
const ALPHA = '[A-Za-z]';
const ALNUM = '[A-Za-z0-9]';
/**
 * RFC 5646's langtag as a regular expression without flags (so the OpenAPI document can state it
 * as the parameter's `pattern`), letters of either case spelled out. Every repetition is bounded
 * so that no match is longer than MAX_LOCALE_LENGTH: importers fill a field from its pattern
 * (Postman's default import does) and cut the text at `maxLength`, and a cut tag ends in `-`.
 * The bounds (two variants, one extension of four subtags, two private-use subtags) are above any
 * locale a project tracks.
 */
export const LOCALE_PATTERN = [
  `^${ALPHA}{2,3}(?:-${ALPHA}{3}){0,3}`, // language, extended language subtags: 15
  `(?:-${ALPHA}{4})?`, // script: 5
  `(?:-(?:${ALPHA}{2}|[0-9]{3}))?`, // region: 4
  `(?:-(?:${ALNUM}{5,8}|[0-9]${ALNUM}{3})){0,2}`, // variants: 18
  `(?:-[0-9A-WY-Za-wy-z](?:-${ALNUM}{2,8}){1,4})?`, // an extension: 38
  `(?:-[xX](?:-${ALNUM}{1,8}){1,2})?$`, // private use: 20
].join('');
const LANGTAG = new RegExp(LOCALE_PATTERN);

/** Longer than any tag a project could track: refused before the pattern runs. */
export const MAX_LOCALE_LENGTH = 100;

export const LOCALE_RULE =
  'a BCP 47 language tag such as en-US or de (language of 2–3 letters, then optional script, region and variants)';

/**
 * The tag in canonical case (`en-us` → `en-US`, `zh-hant-tw` → `zh-Hant-TW`), or null when it is
 * not well-formed.
 */
export function canonicalLocale(tag: string): string | null {
  if (tag.length > MAX_LOCALE_LENGTH || !LANGTAG.test(tag)) return null;
  let inExtension = false;
  return tag
    .split('-')
    .map((subtag, index) => {
      if (index === 0 || inExtension) return subtag.toLowerCase();
      if (subtag.length === 1) {
        inExtension = true;
        return subtag.toLowerCase();
      }
      if (subtag.length === 2) return subtag.toUpperCase();
      const isScript = subtag.length === 4 && /^[a-z]{4}$/i.test(subtag);
      if (isScript) return subtag[0]!.toUpperCase() + subtag.slice(1).toLowerCase();
      return subtag.toLowerCase();
    })
    .join('-');
}
