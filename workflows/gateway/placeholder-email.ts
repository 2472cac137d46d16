/** RFC 2606 / 6761 reserved names: data on them is a placeholder, never a real contact. */
const RESERVED = [
  /(^|\.)example\.(com|net|org)$/i,
  /\.example$/i,
  /\.test$/i,
  /\.invalid$/i,
  /\.localhost$/i,
  /^localhost$/i,
];
export function isPlaceholderEmail(email: string): boolean {
  const domain = email.split('@').pop() ?? '';
  return RESERVED.some((r) => r.test(domain));
}
