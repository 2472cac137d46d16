import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  EN16931_RULES_VERSION,
  PROJECT_ROOT,
  en16931RulesDir,
  sefPath,
} from '../../activities/bills/einvoice/en16931-validation';

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

function jarPath(): string {
  const repo = process.env.MAVEN_REPO ?? join(homedir(), '.m2', 'repository');
  const { group, name, version } = ARTIFACT;
  return join(repo, ...group.split('.'), name, version, `${name}-${version}.jar`);
}

function fetchJar(log: (m: string) => void): string {
  const jar = jarPath();
  if (existsSync(jar)) return jar;
  log(`[en16931] fetching ${ARTIFACT.group}:${ARTIFACT.name}:${ARTIFACT.version} (Maven Central)…`);
  const r = spawnSync(
    'mvn',
    [
      '-q',
      '-B',
      'dependency:get',
      `-Dartifact=${ARTIFACT.group}:${ARTIFACT.name}:${ARTIFACT.version}`,
      '-Dtransitive=false',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: 600_000 },
  );
  if (r.status !== 0 || !existsSync(jar))
    throw new Error(
      `could not fetch the EN 16931 rules with mvn (${r.error?.message ?? `exit ${r.status}`}): ${(r.stdout + r.stderr).slice(-500)}`,
    );
  return jar;
}

/** Extracts one member of the jar (a zip) with unzip, or the JDK's jar tool. */
function unzipMember(jar: string, member: string): Buffer {
  const viaUnzip = spawnSync('unzip', ['-p', jar, member], { maxBuffer: 64 * 1024 * 1024 });
  if (viaUnzip.status === 0 && viaUnzip.stdout.length > 0) return viaUnzip.stdout;
  const dir = mkdtempSync(join(tmpdir(), 'en16931-'));
  try {
    execFileSync('jar', ['xf', jar, member], { cwd: dir });
    return readFileSync(join(dir, member));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function en16931RulesInstalled(): boolean {
  return existsSync(sefPath('cii')) && existsSync(sefPath('ubl'));
}

export function ensureEn16931Rules(log: (m: string) => void = console.log): string {
  const dir = en16931RulesDir();
  if (en16931RulesInstalled()) return dir;
  mkdirSync(dir, { recursive: true });
  const jar = fetchJar(log);
  const xslt3 = require.resolve('xslt3/xslt3.js', { paths: [PROJECT_ROOT] });
  for (const [syntax, m] of Object.entries(MEMBERS) as [
    keyof typeof MEMBERS,
    (typeof MEMBERS)['cii'],
  ][]) {
    if (existsSync(sefPath(syntax))) continue;
    const xslt = unzipMember(jar, m.path);
    const sha = createHash('sha256').update(xslt).digest('hex');
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

if (require.main === module) {
  const started = Date.now();
  const dir = ensureEn16931Rules();
  console.log(
    `[bootstrap] EN 16931 rules ${EN16931_RULES_VERSION} ready in ${dir} (${Math.round((Date.now() - started) / 1000)}s)`,
  );
}
