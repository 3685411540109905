// A big CSV goes to the server in slices of whole rows (the server reads at most 1000 per call),
// so the import shows real progress and a slice that fails can be sent again: the import is
// idempotent by external_id. Each slice repeats the header; `firstLine` maps the server's line
// numbers (relative to the slice) back to the file's.
export type CsvSlice = { csv: string; firstLine: number; rows: number };

export function sliceCsv(text: string, rowsPerSlice: number): CsvSlice[] {
  const rows: { text: string; line: number }[] = [];
  let start = 0;
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  for (let i = 0; i <= text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    if (i === text.length || (!quoted && c === '\n')) {
      const row = text.slice(start, i).replace(/\r$/, '');
      if (row.trim() !== '') rows.push({ text: row, line: rowLine });
      start = i + 1;
      rowLine = line + 1;
    }
    if (c === '\n') line++;
  }
  const [header, ...data] = rows;
  if (!header) return [];
  if (!data.length) return [{ csv: header.text, firstLine: header.line + 1, rows: 0 }];
  const slices: CsvSlice[] = [];
  for (let i = 0; i < data.length; i += rowsPerSlice) {
    const part = data.slice(i, i + rowsPerSlice);
    slices.push({
      csv: [header.text, ...part.map((r) => r.text)].join('\n'),
      firstLine: part[0]!.line,
      rows: part.length,
    });
  }
  return slices;
}
