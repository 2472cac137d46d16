import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CIUS_RULES,
  ciusRulesDir,
  ciusSefPath,
  type Cius,
  type CiusSyntax,
} from '../../activities/bills/einvoice/cius-validation';
import { PROJECT_ROOT } from '../../activities/bills/einvoice/svrl';
import { fetchJar, sha256, unzipMember, type MavenArtifact } from './maven-jar';

/**
 * Installs the CIUS rules (PEPPOL BIS Billing 3.0, XRechnung 3.0): the maintainers' schematron
 * compiled to XSLT, from phive-rules-peppol / phive-rules-xrechnung on Maven Central (jar and
 * member SHA-256 pinned; a mismatch is refused), compiled once to SaxonJS's SEF with xslt3 into
 * `.tools/<cius>/<release>/`.
 */
const SOURCES: Record<
  Cius,
  {
    artifact: MavenArtifact;
    jarSha256: string;
    members: Partial<Record<CiusSyntax, { path: string; sha256: string }>>;
  }
> = {
  peppol: {
    artifact: { group: 'com.helger.phive.rules', name: 'phive-rules-peppol', version: '4.3.7' },
    jarSha256: 'c82aaeda5ca16166034421393d160ec6cf77460b16e027eecc4bb5fe67a552ce',
    members: {
      ubl: {
        path: `external/schematron/openpeppol/${CIUS_RULES.peppol.version}/xslt/PEPPOL-EN16931-UBL.xslt`,
        sha256: '8c6b935b1bc0bb17d29d949b0aa27ecc62021b613b9fba173cd6bfec6b3f0008',
      },
    },
  },
  xrechnung: {
    // 4.0.0 is the newest phive-rules-xrechnung on Maven Central (4.0.2 and 4.3.7 are not).
    artifact: { group: 'com.helger.phive.rules', name: 'phive-rules-xrechnung', version: '4.0.0' },
    jarSha256: 'fe5ff4c0cb14a13c1c84eab65396d5d930fcb871d894542c9e5ea71d1e65f04e',
    members: {
      ubl: {
        path: `external/schematron/${CIUS_RULES.xrechnung.version}/XRechnung-UBL-validation.xslt`,
        sha256: '689ec8d9426f596b6ece31b6536c537b9cf7d82185bf92ecd9db51b75a8c0e57',
      },
      cii: {
        path: `external/schematron/${CIUS_RULES.xrechnung.version}/XRechnung-CII-validation.xslt`,
        sha256: 'cd18fe2e1da5fb30235ef854f050347ffca1dc96e0bdc4ff9ead55c1bb37af56',
      },
    },
  },
};

export function ensureCiusRules(cius: Cius, log: (m: string) => void = console.log): string {
  const dir = ciusRulesDir(cius);
  const src = SOURCES[cius];
  const members = Object.entries(src.members) as [CiusSyntax, { path: string; sha256: string }][];
  if (members.every(([syntax]) => existsSync(ciusSefPath(cius, syntax)))) return dir;
  mkdirSync(dir, { recursive: true });
  const jar = fetchJar(src.artifact, cius, log);
  const jarSha = sha256(readFileSync(jar));
  if (jarSha !== src.jarSha256)
    throw new Error(`${jar} has SHA-256 ${jarSha}, expected ${src.jarSha256}: refused`);
  const xslt3 = require.resolve('xslt3/xslt3.js', { paths: [PROJECT_ROOT] });
  for (const [syntax, m] of members) {
    const sef = ciusSefPath(cius, syntax);
    if (existsSync(sef)) continue;
    const xslt = unzipMember(jar, m.path);
    const sha = sha256(xslt);
    if (sha !== m.sha256)
      throw new Error(`${m.path} in ${jar} has SHA-256 ${sha}, expected ${m.sha256}: refused`);
    const file = join(dir, `${syntax}.xslt`);
    writeFileSync(file, xslt);
    log(`[${cius}] compiling the ${syntax.toUpperCase()} rules to SEF…`);
    const tmp = `${sef}.tmp`;
    execFileSync(
      process.execPath,
      [xslt3, `-xsl:${file}`, `-export:${tmp}`, '-nogo', '-relocate:on'],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        timeout: 600_000,
      },
    );
    renameSync(tmp, sef);
  }
  return dir;
}
