import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import {
  EmbeddedPostgresError,
  embeddedDatabaseUrl,
  startEmbeddedPostgres,
  type EmbeddedPostgres,
} from '../db/embedded-postgres';

function freePort(): Promise<number> {
  return new Promise((res) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

async function query(url: string, sql: string): Promise<unknown[]> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

/** The one engine: a real PostgreSQL from npm, initialised on first use, reused, restarted. */
describe('embedded PostgreSQL', () => {
  let root: string;
  let dataDir: string;
  let port: number;
  let owner: EmbeddedPostgres | undefined;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'cs-epg-'));
    chmodSync(root, 0o755);
    dataDir = join(root, 'pg');
    port = await freePort();
    owner = await startEmbeddedPostgres({ dataDir, port, durability: 'fast' });
  });
  afterAll(async () => {
    await owner?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('initialises a cluster with a private random password that is really checked', async () => {
    expect(owner?.startedHere).toBe(true);
    const creds = `${dataDir}.credentials.json`;
    expect(statSync(creds).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(creds, 'utf8')).password).toHaveLength(32);
    await expect(
      query(`postgres://postgres:wrong@127.0.0.1:${port}/postgres`, 'select 1'),
    ).rejects.toThrow(/password authentication failed/);
    expect(await query(embeddedDatabaseUrl(dataDir, port), 'show server_version')).toEqual([
      { server_version: expect.stringMatching(/^17\./) },
    ]);
  });

  it('reuses the cluster another process already serves for the same folder and port', async () => {
    const second = await startEmbeddedPostgres({ dataDir, port });
    expect(second.startedHere).toBe(false);
    await second.stop(); // a reuser's stop leaves the owner's server running
    expect(await query(embeddedDatabaseUrl(dataDir, port), 'select 1 as ok')).toEqual([{ ok: 1 }]);
  });

  it('refuses, naming the variable to set, a port another program holds or a second port for a running folder', async () => {
    const blocker: Server = createServer();
    const busy = await freePort();
    await new Promise<void>((res) => blocker.listen(busy, '127.0.0.1', () => res()));
    try {
      await expect(
        startEmbeddedPostgres({ dataDir: join(root, 'other'), port: busy, durability: 'fast' }),
      ).rejects.toThrow(
        new EmbeddedPostgresError(
          `Port ${busy} on 127.0.0.1 is in use by another program, so the embedded database cannot start there: set EMBEDDED_DB_PORT to a free port, or DATABASE_URL.`,
        ),
      );
    } finally {
      blocker.close();
    }
    await expect(startEmbeddedPostgres({ dataDir, port: port + 1 })).rejects.toThrow(
      /already running on port .*set EMBEDDED_DB_PORT=/,
    );
  });

  it('starts on a port a client socket holds for a moment (an ephemeral-port clash), once it is let go', async () => {
    // A TCP socket bound to the port without SO_REUSEADDR and not listening — what a client
    // autobound to it (or connected to itself while retrying a stopped server) is: the port
    // looks free, yet PostgreSQL's bind fails until the socket is gone. Node's sockets always
    // set SO_REUSEADDR, so the holder is a short Python process; it lets go when told.
    const clashPort = await freePort();
    const holder = spawn('python3', [
      '-c',
      `import socket,sys\ns=socket.socket()\ns.bind(('127.0.0.1',${clashPort}))\nprint('held',flush=True)\nsys.stdin.readline()`,
    ]);
    const holderGone = new Promise((res) => holder.once('exit', res));
    await new Promise<void>((res, rej) => {
      holder.stdout.once('data', () => res());
      holder.once('exit', (code) => rej(new Error(`the port holder exited (${code})`)));
    });
    let bindFailures = 0;
    const pg = await startEmbeddedPostgres({
      dataDir: join(root, 'clash'),
      port: clashPort,
      durability: 'fast',
      onLog: (line) => {
        if (!/could not bind/.test(line)) return;
        bindFailures++;
        holder.stdin.end('go\n');
      },
    });
    try {
      await holderGone;
      expect(bindFailures).toBe(1);
      expect(await query(pg.url, 'select 1 as ok')).toEqual([{ ok: 1 }]);
    } finally {
      await pg.stop();
    }
  });

  it('keeps data across a restart, and says how to recover when the credentials are lost', async () => {
    const url = embeddedDatabaseUrl(dataDir, port);
    await query(url, 'create table kept (n int); insert into kept values (42)');
    await owner?.stop();
    owner = await startEmbeddedPostgres({ dataDir, port, durability: 'fast' });
    expect(owner.startedHere).toBe(true);
    expect(owner.url).toBe(url);
    expect(await query(url, 'select n from kept')).toEqual([{ n: 42 }]);

    await owner.stop();
    owner = undefined;
    rmSync(`${dataDir}.credentials.json`);
    await expect(startEmbeddedPostgres({ dataDir, port })).rejects.toThrow(
      /credentials.json is missing; remove the folder to start afresh, or set DATABASE_URL/,
    );
  });

  const asRoot = userInfo().uid === 0 ? it : it.skip;
  asRoot(
    'as root, runs as the postgres OS user, in a reachable folder when the requested one is private',
    async () => {
      const privateRoot = mkdtempSync(join(tmpdir(), 'cs-epg-private-')); // mode 700, root's
      let pg: EmbeddedPostgres | undefined;
      try {
        pg = await startEmbeddedPostgres({
          dataDir: join(privateRoot, 'pg'),
          port: await freePort(),
          durability: 'fast',
        });
        expect(pg.dataDir.startsWith('/var/tmp/countersign-postgres/')).toBe(true);
        expect(statSync(pg.dataDir).uid).not.toBe(0);
        expect(await query(pg.url, 'select current_user as u')).toEqual([{ u: 'postgres' }]);
      } finally {
        await pg?.stop();
        if (pg) rmSync(pg.dataDir, { recursive: true, force: true });
        rmSync(privateRoot, { recursive: true, force: true });
      }
      expect(existsSync(pg.dataDir)).toBe(false);
    },
  );
});
