import type { Client } from '@temporalio/client';
import { stringify } from 'yaml';
import type { z } from 'zod';
import { loadConfig, type AppConfig } from '../../config/env';
import { openDatabase, type Database, type Db } from '../../db/connection';
import { InvalidRequestError } from '../errors';
import { connectClient } from '../temporal-connection';

/**
 * What every command needs, opened lazily (a `--help` or a file replay opens nothing) and
 * closed once when the command ends. Tests build one over their own database and client.
 */
export interface CliContext {
  config(): AppConfig;
  db(): Promise<Db>;
  temporal(): Promise<Client>;
  /** The Temporal namespace the client talks to. */
  namespace(): string;
  out: Output;
  close(): Promise<void>;
}

/**
 * Runs one command's body with a context made for this invocation (honouring the global
 * --json) and closes its connections afterwards, whatever happened.
 */
export type Runner = <A extends unknown[]>(
  fn: (ctx: CliContext, ...args: A) => Promise<void>,
) => (...args: A) => Promise<void>;

/** Reads print JSON with --json, readable YAML otherwise; notes and progress go to stderr. */
export interface Output {
  json: boolean;
  print(value: unknown): void;
  /** Text already laid out for a person (tables, sentences), written as it is. */
  write(text: string): void;
  note(line: string): void;
}

const plain = (v: unknown): unknown =>
  JSON.parse(
    JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x)),
  ) as unknown;

export function consoleOutput(
  json: boolean,
  write = (s: string) => process.stdout.write(s),
): Output {
  return {
    json,
    print: (value) =>
      write(json ? `${JSON.stringify(plain(value), null, 2)}\n` : stringify(plain(value))),
    write,
    note: (line) => {
      if (!json) process.stderr.write(`${line}\n`);
    },
  };
}

/** The CLI's own context: configuration from the environment, connections on first use. */
export function processContext(json: boolean): CliContext {
  let cfg: AppConfig | undefined;
  let database: Promise<Database> | undefined;
  let client: Promise<Client> | undefined;
  const config = () => (cfg ??= loadConfig());
  const db = async () => (await (database ??= openDatabase(config()))).db;
  return {
    config,
    db,
    // The codec's data keys are in the database: opened when a payload first needs one.
    temporal: () => (client ??= connectClient(config(), db)),
    namespace: () => config().TEMPORAL_NAMESPACE,
    out: consoleOutput(json),
    close: async () => {
      if (client) await (await client).connection.close();
      if (database) await (await database).close();
    },
  };
}

/** Options validated by zod: a bad flag is an InvalidRequestError naming it, nothing starts. */
export function parseOptions<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw InvalidRequestError.fromZod('arguments', parsed.error);
  return parsed.data;
}

export function need<T>(v: T | undefined, flag: string): T {
  if (v === undefined)
    throw new InvalidRequestError(`--${flag} is required`, [{ path: flag, message: 'required' }]);
  return v;
}
