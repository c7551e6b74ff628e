// CSV as the exports write it: RFC 4180 fields, and no cell a spreadsheet would run. Pure.

/**
 * Text a spreadsheet would run as a formula (OWASP, "CSV Injection"): a cell beginning with TAB,
 * CR or LF, or with `=`, `+`, `-`, `@` or their full-width forms (`＝＋－＠`, which Excel and
 * Sheets read as the ASCII ones on East Asian input) after any run of characters nobody sees:
 * white space (NBSP, U+3000, the BOM), controls, format characters (zero-width space and joiners,
 * direction marks) and the other default-ignorable ones. Spreadsheets trim or skip some of these
 * before looking for a formula, and which ones differs by product and version, so every invisible
 * lead counts: a needless `'` costs nothing, a missed one runs the formula.
 * Answer texts are AI output and prompts customer input.
 */
const FORMULA_START = /^(?:[\t\r\n]|[\s\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/u;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF; nested values as JSON.
 * Text that would start a formula gets a leading `'` (OWASP), so a spreadsheet shows it as text;
 * numbers are written as numbers (a negative one is not a formula). NDJSON keeps every value as it is.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text =
    typeof value === 'object'
      ? JSON.stringify(value)
      : typeof value === 'string' && FORMULA_START.test(value)
        ? `'${value}`
        : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (values: readonly unknown[]) => `${values.map(csvField).join(',')}\r\n`;
