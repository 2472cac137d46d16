/** Drops trailing spaces and tabs in one backward scan (a `[ \t]+$` regex is quadratic). */
function trimLineEnd(line: string): string {
  let end = line.length;
  while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
  return end === line.length ? line : line.slice(0, end);
}

/**
 * Plain text: form feeds separate pages (as pdftotext and EDGAR text filings write them).
 * Linear in the input: no pattern here can backtrack.
 */
export function textToPages(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\f')
    .map((p) =>
      p
        .split('\n')
        .map(trimLineEnd)
        .join('\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim(),
    );
}
