/**
 * Hostile PDFs generated for the extraction limits. `nestedFormsPdf` is a "billion laughs":
 * a one-page PDF whose page draws form 1 `fanout` times, form 1 draws form 2 `fanout` times,
 * and so on to `depth` levels, where the last form shows a line of text. A few kilobytes ask
 * a text extractor for fanout^depth text operations.
 */
export function nestedFormsPdf(opts: { depth: number; fanout: number }): Buffer {
  const objects: string[] = [];
  // 1 catalog, 2 pages, 3 page, 4 font, 5.. forms (5 = top level), last = leaf.
  const formId = (level: number) => 5 + level;
  const draws = (level: number) =>
    Array.from({ length: opts.fanout }, () => `/X${level} Do`).join('\n');
  const stream = (dict: string, body: string) =>
    `<< ${dict} /Length ${Buffer.byteLength(body)} >>\nstream\n${body}\nendstream`;
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = '<< /Type /Pages /Kids [3 0 R] /Count 1 >>';
  objects[3] =
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 100 0 R ' +
    `/Resources << /XObject << /X0 ${formId(0)} 0 R >> /Font << /F1 4 0 R >> >> >>`;
  objects[4] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  objects[100] = stream('', draws(0));
  for (let level = 0; level < opts.depth; level++) {
    const leaf = level === opts.depth - 1;
    const resources = leaf
      ? '/Resources << /Font << /F1 4 0 R >> >>'
      : `/Resources << /XObject << /X${level + 1} ${formId(level + 1)} 0 R >> >>`;
    const body = leaf ? 'BT /F1 12 Tf 72 720 Td (Revenue 1,000) Tj ET' : draws(level + 1);
    objects[formId(level)] = stream(
      `/Type /XObject /Subtype /Form /BBox [0 0 612 792] ${resources}`,
      body,
    );
  }
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  const ids = objects.map((o, i) => (o === undefined ? -1 : i)).filter((i) => i > 0);
  for (const id of ids) {
    offsets[id] = Buffer.byteLength(out);
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const size = Math.max(...ids) + 1;
  const xrefAt = Buffer.byteLength(out);
  out += `xref\n0 ${size}\n0000000000 65535 f \n`;
  for (let i = 1; i < size; i++)
    out +=
      offsets[i] === undefined
        ? '0000000000 65535 f \n'
        : `${String(offsets[i]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${size} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
