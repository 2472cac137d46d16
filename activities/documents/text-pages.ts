/** Plain text: form feeds separate pages (as pdftotext and EDGAR text filings write them). */
export function textToPages(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\f')
    .map((p) =>
      p
        .replace(/[ \t]+$/gm, '')
        .replace(/\n{3,}/g, '\n\n')
        .trim(),
    );
}
