import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

/**
 * Serves one PGlite session to many Postgres wire-protocol connections.
 *
 * PGlite is a single session. pglite-socket's multiplexer interleaves connections message by
 * message, so two clients' extended-protocol batches (Parse/Bind/Execute/Sync, sent with
 * unnamed statements by node-postgres) can mix: one client's Bind meets another's Parse and
 * queries fail or, worse, run with the wrong statement. Here a connection's messages are run
 * as one batch up to each Sync (or simple Query), under a session lock; while a connection
 * has a transaction open, it keeps the lock, so no other client's statement lands inside it.
 */
const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;
/** Messages that end a batch: Sync, simple Query, Flush, CopyDone, CopyFail. */
const BATCH_END = new Set(['S', 'Q', 'H', 'c', 'f'].map((c) => c.charCodeAt(0)));
const TERMINATE = 'X'.charCodeAt(0);
const FLUSH = 'H'.charCodeAt(0);

class SessionLock {
  private holder: number | null = null;
  private readonly waiters: { id: number; grant: () => void }[] = [];

  async acquire(id: number): Promise<void> {
    if (this.holder === null || this.holder === id) {
      this.holder = id;
      return;
    }
    await new Promise<void>((grant) => this.waiters.push({ id, grant }));
  }

  /** Keeps the lock for `id` while its transaction is open; otherwise hands it on. */
  release(id: number, keep: boolean): void {
    if (this.holder !== id || keep) return;
    const next = this.waiters.shift();
    this.holder = next?.id ?? null;
    next?.grant();
  }

  holds(id: number): boolean {
    return this.holder === id;
  }
}

export class EmbeddedWireServer {
  private readonly lock = new SessionLock();
  private readonly sockets = new Set<Socket>();
  private server: Server | null = null;
  private nextId = 1;

  constructor(private readonly db: PGlite) {}

  listen(port: number, host: string): Promise<void> {
    this.server = createServer((socket) => this.serve(socket));
    return new Promise((resolve, reject) => {
      this.server?.once('error', reject);
      this.server?.listen(port, host, () => resolve());
    });
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }

  private serve(socket: Socket): void {
    const id = this.nextId++;
    this.sockets.add(socket);
    socket.setNoDelay(true);
    let buffer = Buffer.alloc(0);
    let started = false;
    let batch: Buffer[] = [];
    let chain = Promise.resolve();
    let closed = false;

    // After a Flush the client is mid-way through an extended-protocol exchange: keep the lock
    // until its Sync, as for an open transaction.
    const run = (messages: Buffer, midExchange = false) => {
      chain = chain.then(async () => {
        if (closed) return;
        await this.lock.acquire(id);
        try {
          const out = await this.db.execProtocolRaw(new Uint8Array(messages));
          if (!socket.destroyed && out.length > 0) socket.write(Buffer.from(out));
        } finally {
          this.lock.release(id, midExchange || this.db.isInTransaction());
        }
      });
      chain.catch(() => socket.destroy());
    };

    const end = () => {
      if (closed) return;
      closed = true;
      this.sockets.delete(socket);
      // A client gone mid-transaction must not leave the session locked or half-written.
      chain = chain.then(async () => {
        if (this.lock.holds(id)) {
          if (this.db.isInTransaction()) await this.db.exec('ROLLBACK').catch(() => undefined);
          this.lock.release(id, false);
        }
      });
    };

    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (!started) {
          if (buffer.length < 8) return;
          const len = buffer.readInt32BE(0);
          const code = buffer.readInt32BE(4);
          if (code === SSL_REQUEST) {
            buffer = buffer.subarray(8);
            socket.write('N');
            continue;
          }
          if (buffer.length < len) return;
          const msg = buffer.subarray(0, len);
          buffer = buffer.subarray(len);
          if (code === CANCEL_REQUEST) {
            socket.end();
            return;
          }
          if (code !== PROTOCOL_3) {
            socket.destroy();
            return;
          }
          started = true;
          run(Buffer.from(msg));
          continue;
        }
        if (buffer.length < 5) return;
        const total = 1 + buffer.readInt32BE(1);
        if (buffer.length < total) return;
        const type = buffer[0] as number;
        const msg = Buffer.from(buffer.subarray(0, total));
        buffer = buffer.subarray(total);
        if (type === TERMINATE) {
          socket.end();
          end();
          return;
        }
        batch.push(msg);
        if (BATCH_END.has(type)) {
          run(Buffer.concat(batch), type === FLUSH);
          batch = [];
        }
      }
    });
    socket.on('close', end);
    socket.on('error', end);
  }
}
