// CSV in and out (RFC 4180): the backoffice's player import and export. Small and strict rather
// than a dependency: quoted fields, doubled quotes, CRLF or LF; a quote left open is an error.
import { AppError } from './errors.js';

/** Rows of fields; blank lines are skipped. Each row keeps the 1-based line it starts on. */
export function parseCsv(text: string): { line: number; fields: string[] }[] {
  const rows: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; // a spreadsheet's byte-order mark
  const endRow = () => {
    fields.push(field);
    if (fields.length > 1 || fields[0] !== '') rows.push({ line: rowLine, fields });
    fields = [];
    field = '';
  };
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        field += c;
      }
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
    } else field += c;
  }
  if (quoted)
    throw new AppError(
      'invalid_request',
      `CSV: a quoted field opened on line ${rowLine} never closes.`,
    );
  if (field !== '' || fields.length) endRow();
  return rows;
}

/**
 * One CSV field. A value a spreadsheet would run as a formula (=, +, -, @, tab, CR first) gets a
 * leading apostrophe (OWASP "CSV injection"), so an exported name cannot become a formula.
 */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (values: (string | number | null | undefined)[]) =>
  `${values.map(csvField).join(',')}\r\n`;
