import type { Command } from 'commander';
import { z } from 'zod';
import { auditedOrgs } from '../../db/repositories/audit';
import type { AuditHead } from '../../db/repositories/audit';
import { recordAuditAnchors } from '../../activities/audit';
import {
  auditAnchorSecret,
  openSignedHead,
  readAnchors,
  signedHeadOf,
  verifyAgainstAnchor,
  type AnchoredVerification,
} from '../../activities/audit/anchors';
import type { Runner } from './context';
import { parseOptions } from './context';
import { requireOperator } from './operator';

/**
 * audit verify / head / anchor: the hash-chained audit log and its signed anchors. The chain
 * is read from the database; the anchors come from the anchors file (AUDIT_ANCHORS_FILE) or
 * the command line, and are trusted only when their signature verifies under the anchor key.
 */
export function registerAuditCommands(program: Command, run: Runner): void {
  const audit = program.command('audit').description('the hash-chained audit log');
  audit
    .command('verify')
    .description(
      'verify the audit chain against its signed anchor (the last recorded one, or --expect-head); every org when --org is omitted; exit code 3 when broken',
    )
    .option('--org <org>', 'organization id')
    .option('--expect-head <signedHead>', 'a signed head (audit head) the chain must still contain')
    .option('--anchors <file>', 'the anchors file (default AUDIT_ANCHORS_FILE)')
    .option('--no-anchors', 'verify the chain on its own, without anchors')
    .action(
      run(async (ctx, raw: unknown) => {
        const o = parseOptions(
          z.object({
            org: z.string().min(1).optional(),
            expectHead: z.string().min(1).optional(),
            // commander: --no-anchors sets anchors to false; --anchors <file> to the path.
            anchors: z.union([z.string().min(1), z.boolean()]).optional(),
          }),
          raw,
        );
        await requireOperator(ctx, o.org);
        const cfg = ctx.config();
        const db = await ctx.db();
        const problems: string[] = [];
        const expected = new Map<string, AuditHead>();
        if (o.expectHead) {
          const head = openSignedHead(auditAnchorSecret(cfg), o.expectHead);
          if (o.org && o.org !== head.orgId)
            throw new Error(`the signed head is of org ${head.orgId}, not ${o.org}`);
          expected.set(head.orgId, head);
        } else if (o.anchors !== false) {
          const file = typeof o.anchors === 'string' ? o.anchors : cfg.AUDIT_ANCHORS_FILE;
          const recorded = readAnchors(file, auditAnchorSecret(cfg));
          for (const r of recorded.rejected)
            problems.push(`anchors file ${file} line ${r.line} is not a signed head: ${r.reason}`);
          for (const [org, head] of recorded.latest) expected.set(org, head);
        }
        // Orgs named by an anchor are verified even when the database has no row of theirs.
        const orgs = o.org
          ? [o.org]
          : o.expectHead
            ? [...expected.keys()]
            : [...new Set([...(await auditedOrgs(db)), ...expected.keys()])].sort();
        const results: AnchoredVerification[] = [];
        for (const org of orgs)
          results.push(await verifyAgainstAnchor(db, org, expected.get(org) ?? null));
        ctx.out.print(results);
        for (const r of results) {
          if (r.firstBreak)
            problems.push(
              `audit chain of ${r.orgId} is broken: ${r.firstBreak.kind} — ${r.firstBreak.detail}`,
            );
          if (r.anchor && !r.anchor.ok)
            problems.push(
              `audit chain of ${r.orgId} does not hold its anchor: ${r.anchor.kind} — ${r.anchor.detail}`,
            );
        }
        for (const p of problems) console.error(p);
        if (problems.length > 0) process.exitCode = 3;
      }),
    );
  audit
    .command('head')
    .description('the chain head, signed (its token is what --expect-head takes)')
    .requiredOption('--org <org>', 'organization id')
    .action(
      run(async (ctx, raw: unknown) => {
        const o = parseOptions(z.object({ org: z.string().min(1) }), raw);
        await requireOperator(ctx, o.org);
        ctx.out.print(await signedHeadOf(await ctx.db(), auditAnchorSecret(ctx.config()), o.org));
      }),
    );
  audit
    .command('anchor')
    .description(
      "record every org's signed head in the anchors file now (the worker does it on a schedule)",
    )
    .action(
      run(async (ctx) => {
        await requireOperator(ctx);
        const cfg = ctx.config();
        ctx.out.print(
          await recordAuditAnchors(await ctx.db(), {
            secret: auditAnchorSecret(cfg),
            file: cfg.AUDIT_ANCHORS_FILE,
          }),
        );
      }),
    );
}
