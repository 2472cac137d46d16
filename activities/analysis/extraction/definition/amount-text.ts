import type { Scale } from '../scale';

/** "1234567.5" → "1,234,567.5" (sign kept). */
export function withThousands(s: string): string {
  const neg = s.startsWith('-');
  const [i = '0', f] = (neg ? s.slice(1) : s).split('.');
  return `${neg ? '-' : ''}${i.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${f !== undefined ? `.${f}` : ''}`;
}

/** A rounded amount in a scale as an answer prints it: "-$1,213 million". */
export function dollarsText(rounded: string, scale: Scale): string {
  const word = { units: '', thousands: ' thousand', millions: ' million', billions: ' billion' }[
    scale
  ];
  return `${rounded.startsWith('-') ? '-' : ''}$${withThousands(rounded.replace('-', ''))}${word}`;
}
