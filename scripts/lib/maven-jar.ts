import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A jar of published validation rules on Maven Central, fetched with mvn into the local
 * repository (so a second bootstrap reuses it) and read as a zip. Shared by the EN 16931 and
 * CIUS rule installers.
 */
export type MavenArtifact = { group: string; name: string; version: string };

export function jarPath(a: MavenArtifact): string {
  const repo = process.env.MAVEN_REPO ?? join(homedir(), '.m2', 'repository');
  return join(repo, ...a.group.split('.'), a.name, a.version, `${a.name}-${a.version}.jar`);
}

export function fetchJar(a: MavenArtifact, label: string, log: (m: string) => void): string {
  const jar = jarPath(a);
  if (existsSync(jar)) return jar;
  log(`[${label}] fetching ${a.group}:${a.name}:${a.version} (Maven Central)…`);
  const r = spawnSync(
    'mvn',
    [
      '-q',
      '-B',
      'dependency:get',
      `-Dartifact=${a.group}:${a.name}:${a.version}`,
      '-Dtransitive=false',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: 600_000 },
  );
  if (r.status !== 0 || !existsSync(jar))
    throw new Error(
      `could not fetch ${a.name} with mvn (${r.error?.message ?? `exit ${r.status}`}): ${(r.stdout + r.stderr).slice(-500)}`,
    );
  return jar;
}

export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** Extracts one member of the jar (a zip) with unzip, or the JDK's jar tool. */
export function unzipMember(jar: string, member: string): Buffer {
  const viaUnzip = spawnSync('unzip', ['-p', jar, member], { maxBuffer: 64 * 1024 * 1024 });
  if (viaUnzip.status === 0 && viaUnzip.stdout.length > 0) return viaUnzip.stdout;
  const dir = mkdtempSync(join(tmpdir(), 'rules-jar-'));
  try {
    execFileSync('jar', ['xf', jar, member], { cwd: dir });
    return readFileSync(join(dir, member));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
