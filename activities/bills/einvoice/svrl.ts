import { resolve } from 'node:path';
import type { RuleFinding } from '../../../workflows/bills/structured-invoice';
import { unescape } from './xml';

/**
 * What every official rule set (EN 16931, and the PEPPOL / XRechnung CIUS on top of it) shares
 * here: where the install step put the compiled rules, and how their SVRL report reads.
 */
export const PROJECT_ROOT = resolve(__dirname, '..', '..', '..');

/** The SVRL report's failed assertions: the rules' own ids, flags and texts. */
export function svrlFindings(svrl: string): RuleFinding[] {
  const out: RuleFinding[] = [];
  const re = /<svrl:failed-assert\b([^>]*)>([\s\S]*?)<\/svrl:failed-assert>/g;
  for (const m of svrl.matchAll(re)) {
    const attrs = m[1]!;
    const get = (n: string) => new RegExp(`\\b${n}="([^"]*)"`).exec(attrs)?.[1] ?? null;
    const flag = get('flag');
    const textMatch = /<svrl:text>([\s\S]*?)<\/svrl:text>/.exec(m[2]!);
    out.push({
      id: get('id') ?? '?',
      flag: flag === 'warning' ? 'warning' : flag === 'information' ? 'information' : 'fatal',
      text: unescape((textMatch?.[1] ?? '').trim()).slice(0, 1000),
      location: get('location') ? unescape(get('location')!).slice(0, 500) : null,
    });
  }
  return out;
}
