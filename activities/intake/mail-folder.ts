import { watch, type FSWatcher } from 'node:fs';
import { mkdir, readFile, readdir, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseInboundEmail, type EmailLimits, type InboundEmail } from './email';

/**
 * The watched-folder intake: `*.eml` files dropped in a folder are claimed (an atomic rename
 * into `processing/`, so two pollers never take the same file), parsed, handed to the handler,
 * then moved to `processed/`; a message that cannot be read goes to `failed/` beside a
 * `<name>.reason.txt`. A handler failure (the database away, say) is not the message's fault:
 * the file goes back to the folder and is tried again on the next pass.
 */

export type MailFolderOutcome =
  | { file: string; status: 'processed'; messageId: string | null; result: unknown }
  | { file: string; status: 'failed'; reason: string }
  | { file: string; status: 'retry'; reason: string };

export interface MailFolderOptions {
  dir: string;
  limits?: Partial<EmailLimits>;
  handle: (email: InboundEmail, file: string) => Promise<unknown>;
}

export const MAIL_FOLDER_SUBDIRS = {
  processing: 'processing',
  processed: 'processed',
  failed: 'failed',
} as const;

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** A free name in a folder: the file's own, or with a counter when one of that name is there. */
async function freeName(dir: string, file: string): Promise<string> {
  if (!(await exists(join(dir, file)))) return file;
  for (let n = 1; ; n++) {
    const candidate = file.replace(/(\.eml)?$/i, `.${n}$1`);
    if (!(await exists(join(dir, candidate)))) return candidate;
  }
}

/** One pass over the folder: every `*.eml` in it is processed, failed or put back for a retry. */
export async function processMailFolder(opts: MailFolderOptions): Promise<MailFolderOutcome[]> {
  const sub = (s: keyof typeof MAIL_FOLDER_SUBDIRS) => join(opts.dir, MAIL_FOLDER_SUBDIRS[s]);
  await Promise.all([
    mkdir(sub('processing'), { recursive: true }),
    mkdir(sub('processed'), { recursive: true }),
    mkdir(sub('failed'), { recursive: true }),
  ]);
  const files = (await readdir(opts.dir, { withFileTypes: true }))
    .filter((e) => e.isFile() && /\.eml$/i.test(e.name))
    .map((e) => e.name)
    .sort();
  const outcomes: MailFolderOutcome[] = [];
  for (const file of files) {
    const claimed = join(sub('processing'), file);
    try {
      await rename(join(opts.dir, file), claimed);
    } catch {
      continue; // another poller claimed it first
    }
    const parsed = await parseInboundEmail(await readFile(claimed), opts.limits);
    if (!parsed.ok) {
      const name = await freeName(sub('failed'), file);
      await rename(claimed, join(sub('failed'), name));
      const reason = `${parsed.error.code}: ${parsed.error.message}`;
      await writeFile(join(sub('failed'), `${name}.reason.txt`), `${reason}\n`);
      outcomes.push({ file, status: 'failed', reason });
      continue;
    }
    try {
      const result = await opts.handle(parsed.email, file);
      await rename(claimed, join(sub('processed'), await freeName(sub('processed'), file)));
      outcomes.push({ file, status: 'processed', messageId: parsed.email.messageId, result });
    } catch (err) {
      await rename(claimed, join(opts.dir, file));
      outcomes.push({
        file,
        status: 'retry',
        reason: err instanceof Error ? err.message : String(err),
      });
    }
  }
  return outcomes;
}

/**
 * Watches the folder: a pass when a file appears (fs.watch) and every `intervalMs` in any case
 * (watch events are not guaranteed on every file system). Passes never overlap.
 */
export function watchMailFolder(
  opts: MailFolderOptions & {
    intervalMs?: number;
    onOutcomes?: (o: MailFolderOutcome[]) => void;
    onError?: (err: unknown) => void;
  },
): { stop: () => Promise<void> } {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const pass = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = processMailFolder(opts)
      .then((o) => {
        if (o.length) opts.onOutcomes?.(o);
      })
      .catch((err: unknown) => opts.onError?.(err))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          pass();
        }
      });
  };
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(opts.dir, () => pass());
  } catch {
    watcher = null; // polling alone still picks files up
  }
  const timer = setInterval(pass, opts.intervalMs ?? 5000);
  pass();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      watcher?.close();
      while (running) await running;
    },
  };
}
