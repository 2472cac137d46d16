import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import SaxonJS from 'saxon-js';
import type { RuleFinding } from '../../../workflows/bills/structured-invoice';
import { PROJECT_ROOT, svrlFindings } from './svrl';

/**
 * National and community CIUS rules (core invoice usage specifications of EN 16931), applied in
 * addition to the norm's rules when the invoice's BT-24 names the CIUS. Each is its maintainers'
 * schematron compiled to XSLT, republished unchanged on Maven Central by phive-rules-*, compiled
 * to SEF by `npm run en16931-rules` (see scripts/lib/cius-rules.ts for the pinned jars).
 *
 * - PEPPOL BIS Billing 3.0: OpenPEPPOL release 2026.5 (in force since May 2026); defined for
 *   UBL only, so a CII invoice claiming it is judged by EN 16931 alone.
 * - XRechnung 3.0: KoSIT's rules 3.0.2 (the current 3.0.x), UBL and CII. XRechnung 2.x
 *   invoices are not matched: the rules of each 2.x release differ and none is installed.
 */
export type Cius = 'peppol' | 'xrechnung';
export type CiusSyntax = 'ubl' | 'cii';

export const CIUS_RULES = {
  peppol: {
    label: 'peppol-bis3',
    version: '2026.5',
    specification: 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
    syntaxes: ['ubl'] as CiusSyntax[],
  },
  xrechnung: {
    label: 'xrechnung',
    version: '3.0.2',
    specification: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
    syntaxes: ['ubl', 'cii'] as CiusSyntax[],
  },
} as const;

export const PEPPOL_BIS3_ID = CIUS_RULES.peppol.specification;

export function ciusRulesDir(cius: Cius): string {
  return join(PROJECT_ROOT, '.tools', cius, CIUS_RULES[cius].version);
}
export const ciusSefPath = (cius: Cius, syntax: CiusSyntax) =>
  join(ciusRulesDir(cius), `${syntax}.sef.json`);

/** The CIUS the invoice's specification identifier (BT-24) names, if its rules cover the syntax. */
export function ciusOf(specification: string | null, syntax: CiusSyntax): Cius | null {
  const id = specification?.trim();
  for (const cius of Object.keys(CIUS_RULES) as Cius[]) {
    const r = CIUS_RULES[cius];
    if (r.specification === id && r.syntaxes.includes(syntax)) return cius;
  }
  return null;
}

/** `peppol-bis3-2026.5`: the name the verdict's ruleset carries. */
export const ciusRuleset = (cius: Cius) => `${CIUS_RULES[cius].label}-${CIUS_RULES[cius].version}`;

const stylesheets = new Map<string, unknown>();

/** Runs a CIUS's rules over the invoice's XML text. */
export function runCiusRules(cius: Cius, syntax: CiusSyntax, xml: string): RuleFinding[] {
  const path = ciusSefPath(cius, syntax);
  let s = stylesheets.get(path);
  if (!s) {
    if (!existsSync(path))
      throw new Error(`the ${cius} rules are not installed (${path}); run npm run en16931-rules`);
    s = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    stylesheets.set(path, s);
  }
  const result = SaxonJS.transform(
    { stylesheetInternal: s, sourceText: xml.replace(/^\uFEFF/, ''), destination: 'serialized' },
    'sync',
  );
  return svrlFindings(result.principalResult);
}
