import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import SaxonJS from 'saxon-js';
import type { RuleFinding } from '../../../workflows/bills/structured-invoice';
import { PROJECT_ROOT, svrlFindings } from './en16931-validation';

/**
 * National and community CIUS rules (core invoice usage specifications of EN 16931), applied in
 * addition to the norm's rules when the invoice's BT-24 names the CIUS. Only PEPPOL BIS
 * Billing 3.0 is installed: its maintainers' schematron, compiled to XSLT (OpenPEPPOL release
 * 2026.5, in force since May 2026) and republished unchanged on Maven Central by
 * phive-rules-peppol, compiled to SEF by `npm run en16931-rules`. PEPPOL BIS 3 is defined for
 * UBL only; XRechnung's rules are not on Maven Central (see the README).
 */
export const PEPPOL_RULES_VERSION = '2026.5';
export const PEPPOL_BIS3_ID =
  'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';

export type Cius = 'peppol';

export function peppolRulesDir(): string {
  return join(PROJECT_ROOT, '.tools', 'peppol', PEPPOL_RULES_VERSION);
}
export const peppolSefPath = () => join(peppolRulesDir(), 'ubl.sef.json');

/** The CIUS the invoice's specification identifier (BT-24) names, if one is installed. */
export function ciusOf(specification: string | null): Cius | null {
  return specification?.trim() === PEPPOL_BIS3_ID ? 'peppol' : null;
}

let peppolStylesheet: unknown = null;

/** Runs the PEPPOL BIS Billing 3.0 rules over a UBL invoice's XML text. */
export function runPeppolRules(xml: string): RuleFinding[] {
  if (!peppolStylesheet) {
    const path = peppolSefPath();
    if (!existsSync(path))
      throw new Error(
        `the PEPPOL BIS 3 rules are not installed (${path}); run npm run en16931-rules`,
      );
    peppolStylesheet = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  }
  const result = SaxonJS.transform(
    {
      stylesheetInternal: peppolStylesheet,
      sourceText: xml.replace(/^\uFEFF/, ''),
      destination: 'serialized',
    },
    'sync',
  );
  return svrlFindings(result.principalResult);
}
