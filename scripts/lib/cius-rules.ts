import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  PEPPOL_RULES_VERSION,
  peppolRulesDir,
  peppolSefPath,
} from '../../activities/bills/einvoice/cius-validation';
import { PROJECT_ROOT } from '../../activities/bills/einvoice/en16931-validation';
import { fetchJar, sha256, unzipMember } from './maven-jar';

/**
 * Installs the PEPPOL BIS Billing 3.0 rules: the OpenPEPPOL schematron compiled to XSLT, from
 * phive-rules-peppol on Maven Central (jar and member SHA-256 pinned; a mismatch is refused),
 * compiled once to SaxonJS's SEF with xslt3 into `.tools/peppol/<release>/`.
 */
const ARTIFACT = { group: 'com.helger.phive.rules', name: 'phive-rules-peppol', version: '4.3.7' };
const JAR_SHA256 = 'c82aaeda5ca16166034421393d160ec6cf77460b16e027eecc4bb5fe67a552ce';
const MEMBER = {
  path: `external/schematron/openpeppol/${PEPPOL_RULES_VERSION}/xslt/PEPPOL-EN16931-UBL.xslt`,
  sha256: '8c6b935b1bc0bb17d29d949b0aa27ecc62021b613b9fba173cd6bfec6b3f0008',
};

export function ensurePeppolRules(log: (m: string) => void = console.log): string {
  const dir = peppolRulesDir();
  if (existsSync(peppolSefPath())) return dir;
  mkdirSync(dir, { recursive: true });
  const jar = fetchJar(ARTIFACT, 'peppol', log);
  const jarSha = sha256(readFileSync(jar));
  if (jarSha !== JAR_SHA256)
    throw new Error(`${jar} has SHA-256 ${jarSha}, expected ${JAR_SHA256}: refused`);
  const xslt = unzipMember(jar, MEMBER.path);
  const sha = sha256(xslt);
  if (sha !== MEMBER.sha256)
    throw new Error(
      `${MEMBER.path} in ${jar} has SHA-256 ${sha}, expected ${MEMBER.sha256}: refused`,
    );
  const src = join(dir, 'ubl.xslt');
  writeFileSync(src, xslt);
  log('[peppol] compiling the PEPPOL BIS 3 UBL rules to SEF…');
  const xslt3 = require.resolve('xslt3/xslt3.js', { paths: [PROJECT_ROOT] });
  const tmp = `${peppolSefPath()}.tmp`;
  execFileSync(
    process.execPath,
    [xslt3, `-xsl:${src}`, `-export:${tmp}`, '-nogo', '-relocate:on'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 600_000,
    },
  );
  renameSync(tmp, peppolSefPath());
  return dir;
}
