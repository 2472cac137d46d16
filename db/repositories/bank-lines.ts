import { and, count, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../connection';
import { bankLineClassifications, type BankLineStatus } from '../schema';

export interface BankLineRow {
  lineKey: string;
  statementRef: string;
  entryDate: string;
  amountMinor: string;
  currency: string;
  merchant: string;
  merchantKey: string;
  cardKey: string;
  taxCode: string | null;
  status: 'auto' | 'hybrid' | 'asked';
  accountId: string | null;
  requestId: string | null;
  creditAccountId?: string | null;
}

const CHUNK = 1000;
function chunks<T>(xs: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += CHUNK) out.push(xs.slice(i, i + CHUNK));
  return out;
}

/** Lines already recorded for the org (a line is classified once, whichever run sees it again). */
export async function knownLines(
  db: Db,
  orgId: string,
  lineKeys: string[],
): Promise<{ lineKey: string; status: BankLineStatus; accountId: string | null }[]> {
  const out: { lineKey: string; status: BankLineStatus; accountId: string | null }[] = [];
  for (const part of chunks(lineKeys))
    out.push(
      ...(await db
        .select({
          lineKey: bankLineClassifications.lineKey,
          status: bankLineClassifications.status,
          accountId: bankLineClassifications.accountId,
        })
        .from(bankLineClassifications)
        .where(
          and(
            eq(bankLineClassifications.orgId, orgId),
            inArray(bankLineClassifications.lineKey, part),
          ),
        )),
    );
  return out;
}

/** How people resolved each (merchant, card, account): the agent's memory for these merchants. */
export async function humanResolutions(
  db: Db,
  orgId: string,
  merchantKeys: string[],
): Promise<{ merchantKey: string; cardKey: string; accountId: string; count: number }[]> {
  const out: { merchantKey: string; cardKey: string; accountId: string; count: number }[] = [];
  for (const part of chunks([...new Set(merchantKeys)])) {
    const rows = await db
      .select({
        merchantKey: bankLineClassifications.merchantKey,
        cardKey: bankLineClassifications.cardKey,
        accountId: bankLineClassifications.accountId,
        count: count(),
      })
      .from(bankLineClassifications)
      .where(
        and(
          eq(bankLineClassifications.orgId, orgId),
          eq(bankLineClassifications.status, 'human'),
          inArray(bankLineClassifications.merchantKey, part),
        ),
      )
      .groupBy(
        bankLineClassifications.merchantKey,
        bankLineClassifications.cardKey,
        bankLineClassifications.accountId,
      );
    for (const r of rows)
      if (r.accountId) out.push({ ...r, accountId: r.accountId, count: Number(r.count) });
  }
  return out;
}

/** Records lines as posted automatically or asked; idempotent (a recorded line is kept as is). */
export async function recordLines(
  db: Db,
  orgId: string,
  runId: string,
  lines: BankLineRow[],
): Promise<number> {
  let n = 0;
  for (const part of chunks(lines)) {
    const rows = await db
      .insert(bankLineClassifications)
      .values(
        part.map((l) => ({
          orgId,
          runId,
          lineKey: l.lineKey,
          statementRef: l.statementRef,
          entryDate: l.entryDate,
          amountMinor: BigInt(l.amountMinor),
          currency: l.currency,
          merchant: l.merchant,
          merchantKey: l.merchantKey,
          cardKey: l.cardKey,
          taxCode: l.taxCode,
          status: l.status,
          accountId: l.accountId,
          requestId: l.requestId,
          creditAccountId: l.creditAccountId ?? null,
        })),
      )
      .onConflictDoNothing()
      .returning({ lineKey: bankLineClassifications.lineKey });
    n += rows.length;
  }
  return n;
}

/** The lines still waiting in a request, with what posting them needs: a page by line key. */
export async function askedLines(
  db: Db,
  orgId: string,
  requestId: string,
  page: { after?: string; limit: number },
) {
  return db
    .select()
    .from(bankLineClassifications)
    .where(
      and(
        eq(bankLineClassifications.orgId, orgId),
        eq(bankLineClassifications.requestId, requestId),
        eq(bankLineClassifications.status, 'asked'),
        page.after === undefined ? undefined : gt(bankLineClassifications.lineKey, page.after),
      ),
    )
    .orderBy(bankLineClassifications.lineKey)
    .limit(page.limit);
}

/** A person's answers: asked lines become human resolutions (the memory). Idempotent. */
export async function resolveLines(
  db: Db,
  orgId: string,
  requestId: string,
  resolutions: { lineKey: string; accountId: string }[],
): Promise<number> {
  let n = 0;
  for (const part of chunks(resolutions)) {
    const json = JSON.stringify(
      part.map((r) => ({ line_key: r.lineKey, account_id: r.accountId })),
    );
    const res = await db.execute(sql`
      update bank_line_classifications b
         set status = 'human', account_id = r.account_id, resolved_at = now()
        from jsonb_to_recordset(${json}::jsonb) as r(line_key text, account_id text)
       where b.org_id = ${orgId} and b.request_id = ${requestId}
         and b.line_key = r.line_key and b.status = 'asked'`);
    n += res.rowCount ?? 0;
  }
  return n;
}
