import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  EN16931_RULES_VERSION,
  en16931RulesDir,
  sefPath,
} from '../../activities/bills/einvoice/en16931-validation';
import { PROJECT_ROOT } from '../../activities/bills/einvoice/svrl';
import { fetchJar, sha256, unzipMember } from './maven-jar';
import { ensureCiusRules } from './cius-rules';
import { ciusRuleset } from '../../activities/bills/einvoice/cius-validation';

/**
 * Installs the official EN 16931 validation rules for the bill processor. The CEN schematron
 * compiled to XSLT (release 1.3.16) is taken from Maven Central, where phive-rules-en16931
 * publishes the maintainers' files unchanged (the SHA-256 below is checked), and compiled
 * once to SaxonJS's SEF format with xslt3 into `.tools/en16931/<version>/`.
 */
const ARTIFACT = { group: 'com.helger.phive.rules', name: 'phive-rules-en16931', version: '4.3.7' };
const MEMBERS = {
  cii: {
    path: `external/schematron/${EN16931_RULES_VERSION}/cii/EN16931-CII-validation.xslt`,
    sha256: '0b234dea2bbfee739b7761e607a992c17fab88773014ef56355b6158cfb1cc53',
  },
  ubl: {
    path: `external/schematron/${EN16931_RULES_VERSION}/ubl/EN16931-UBL-validation.xslt`,
    sha256: '39f9d282867f1a49e7708d9e29a53da89643e1ee56f10cec1ebcf1277595fcbd',
  },
} as const;

export function en16931RulesInstalled(): boolean {
  return existsSync(sefPath('cii')) && existsSync(sefPath('ubl'));
}

export function ensureEn16931Rules(log: (m: string) => void = console.log): string {
  const dir = en16931RulesDir();
  if (en16931RulesInstalled()) return dir;
  mkdirSync(dir, { recursive: true });
  const jar = fetchJar(ARTIFACT, 'en16931', log);
  const xslt3 = require.resolve('xslt3/xslt3.js', { paths: [PROJECT_ROOT] });
  for (const [syntax, m] of Object.entries(MEMBERS) as [
    keyof typeof MEMBERS,
    (typeof MEMBERS)['cii'],
  ][]) {
    if (existsSync(sefPath(syntax))) continue;
    const xslt = unzipMember(jar, m.path);
    const sha = sha256(xslt);
    if (sha !== m.sha256)
      throw new Error(`${m.path} in ${jar} has SHA-256 ${sha}, expected ${m.sha256}: refused`);
    const src = join(dir, `${syntax}.xslt`);
    writeFileSync(src, xslt);
    log(`[en16931] compiling the ${syntax.toUpperCase()} rules to SEF…`);
    const tmp = `${sefPath(syntax)}.tmp`;
    execFileSync(
      process.execPath,
      [xslt3, `-xsl:${src}`, `-export:${tmp}`, '-nogo', '-relocate:on'],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        timeout: 600_000,
      },
    );
    renameSync(tmp, sefPath(syntax));
  }
  return dir;
}

/**
 * Every rule set the bill processor validates with: the norm's, and the CIUS rules (PEPPOL BIS
 * 3, XRechnung 3.0) that ride on it. Each is installed once; later calls only check.
 */
export function ensureBillRules(log: (m: string) => void = console.log): string {
  const dir = ensureEn16931Rules(log);
  for (const cius of ['peppol', 'xrechnung'] as const) ensureCiusRules(cius);
  return dir;
}

if (require.main === module) {
  const started = Date.now();
  const dir = ensureBillRules();
  console.log(
    `[bootstrap] EN 16931 rules ${EN16931_RULES_VERSION} ready in ${dir}, with ${ciusRuleset('peppol')} and ${ciusRuleset('xrechnung')} (${Math.round((Date.now() - started) / 1000)}s)`,
  );
}
