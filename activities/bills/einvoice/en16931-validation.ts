import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  RuleFinding,
  StructuredInvoice,
  StructuredReading,
} from '../../../workflows/bills/structured-invoice';
import SaxonJS from 'saxon-js';
import { arithmeticFindings, scaled } from './arithmetic';
import { PROFILES_WITHOUT_LINES } from './profile';
import { ciusOf, ciusRuleset, runCiusRules } from './cius-validation';
import { PROJECT_ROOT, svrlFindings } from './svrl';

/**
 * EN 16931 validation with the official rules: the CEN schematron (release 1.3.16), compiled
 * to XSLT by its maintainers and to SaxonJS's SEF by `npm run en16931-rules` (the bootstrap
 * runs it), executed by SaxonJS — a maintained XSLT 3.0 engine — in this process. No rule is
 * re-implemented here: the findings are the rules' own ids, flags and texts.
 *
 * One reading of the profile: MINIMUM and BASIC WL (Factur-X / ZUGFeRD) carry no invoice
 * lines by definition, so a fatal finding that speaks of lines (BG-25, BT-126…BT-161) is
 * recorded as `outOfProfile` rather than blocking; every other fatal finding blocks.
 */
export const EN16931_RULES_VERSION = '1.3.16';

export function en16931RulesDir(): string {
  return join(PROJECT_ROOT, '.tools', 'en16931', EN16931_RULES_VERSION);
}
export const sefPath = (syntax: 'cii' | 'ubl') => join(en16931RulesDir(), `${syntax}.sef.json`);

const stylesheets = new Map<'cii' | 'ubl', unknown>();

function stylesheet(syntax: 'cii' | 'ubl'): unknown {
  let s = stylesheets.get(syntax);
  if (!s) {
    const path = sefPath(syntax);
    if (!existsSync(path))
      throw new Error(`the EN 16931 rules are not installed (${path}); run npm run en16931-rules`);
    s = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    stylesheets.set(syntax, s);
  }
  return s;
}

/** Runs the official rules of the invoice's syntax over its XML text. */
export function runEn16931Rules(syntax: 'cii' | 'ubl', xml: string): RuleFinding[] {
  const result = SaxonJS.transform(
    {
      stylesheetInternal: stylesheet(syntax),
      sourceText: xml.replace(/^\uFEFF/, ''),
      destination: 'serialized',
    },
    'sync',
  );
  return svrlFindings(result.principalResult);
}

/** A finding about invoice lines, which MINIMUM / BASIC WL invoices do not carry. */
const LINE_TERMS = /\bBG-25\b|\bBT-1(2[6-9]|[3-5]\d|6[01])\b|Invoice line/i;

/**
 * The verdict on one invoice: EN 16931 rules for CII D16B and UBL; ZUGFeRD 1.x predates the
 * norm, so its arithmetic (lines, VAT breakdown, totals) is checked instead.
 */
export function validateInvoice(
  invoice: StructuredInvoice,
  xml: string,
): StructuredReading['validation'] {
  const started = Date.now();
  if (invoice.syntax === 'cii-zugferd1') {
    const fatal = arithmeticFindings(invoice);
    return {
      ruleset: 'zugferd1-arithmetic',
      status: fatal.length ? 'invalid' : 'valid',
      fatal,
      warnings: [],
      outOfProfile: [],
      error: null,
      ms: Date.now() - started,
    };
  }
  const syntax = invoice.syntax === 'cii' ? 'cii' : 'ubl';
  if (!invoice.specification) {
    // No specification identifier (BT-24): a plain UBL 2.1 / CII invoice that does not claim
    // EN 16931 (ERP exports do this). The norm's findings are kept for the reviewer as outside
    // what the document claims; its own arithmetic decides, as for ZUGFeRD 1.x.
    let findings: RuleFinding[] = [];
    let error: string | null = null;
    try {
      findings = runEn16931Rules(syntax, xml);
    } catch (err) {
      error = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
    }
    // Without the norm's promise that every line has a VAT category, a breakdown may leave
    // lines out (an ERP's untaxed lines): a breakdown short of the net is recorded, and the rest
    // is posted as outside the breakdown; one larger than the net is still fatal.
    const taxable = invoice.vatBreakdown.reduce((a, v) => a + (scaled(v.taxable) ?? 0n), 0n);
    const net = scaled(invoice.totals.net);
    const short = net !== null && taxable < net;
    const all = arithmeticFindings(invoice);
    const fatal = all.filter((f) => !(short && f.id === 'CS-VAT-BASE'));
    const shortfall = all
      .filter((f) => short && f.id === 'CS-VAT-BASE')
      .map((f) => ({ ...f, flag: 'warning' as const }));
    return {
      ruleset: `${syntax}-arithmetic (no EN 16931 claim)`,
      status: fatal.length ? 'invalid' : 'valid',
      fatal,
      warnings: [...shortfall, ...findings.filter((f) => f.flag !== 'fatal')],
      outOfProfile: findings.filter((f) => f.flag === 'fatal'),
      error,
      ms: Date.now() - started,
    };
  }
  // A CIUS named by BT-24 (PEPPOL BIS 3, XRechnung 3.0) adds its own rules to the norm's.
  const cius = ciusOf(invoice.specification, syntax);
  const ruleset = `en16931-${EN16931_RULES_VERSION}${cius ? `+${ciusRuleset(cius)}` : ''}`;
  let findings: RuleFinding[];
  try {
    findings = runEn16931Rules(syntax, xml);
    if (cius) findings.push(...runCiusRules(cius, syntax, xml));
  } catch (err) {
    return {
      ruleset,
      status: 'unavailable',
      fatal: [],
      warnings: [],
      outOfProfile: [],
      error: (err instanceof Error ? err.message : String(err)).slice(0, 1000),
      ms: Date.now() - started,
    };
  }
  const noLines = PROFILES_WITHOUT_LINES.has(invoice.profile);
  const fatalAll = findings.filter((f) => f.flag === 'fatal');
  const outOfProfile = noLines ? fatalAll.filter((f) => LINE_TERMS.test(f.text)) : [];
  const fatal = fatalAll.filter((f) => !outOfProfile.includes(f));
  // Without lines the rules cannot check the totals against them: our own arithmetic does
  // what they can still say (breakdown and totals).
  if (noLines) fatal.push(...arithmeticFindings(invoice));
  return {
    ruleset,
    status: fatal.length ? 'invalid' : 'valid',
    fatal,
    warnings: findings.filter((f) => f.flag !== 'fatal'),
    outOfProfile,
    error: null,
    ms: Date.now() - started,
  };
}
