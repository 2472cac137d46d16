import { z } from 'zod';
import { receiveInboundEmail } from '../../client/receive-email';
import { importStatementAsEvents } from '../../client/intake-client';
import { requireAction } from '../authz';
import { HttpError } from '../http-error';
import { OrgParams, StatementQuery } from '../schemas';
import { json, problems, ok, secured } from '../http';
import type { RouteKit } from './kit';

/** Intake: raw inbound email and bank statement files, each turned into events. */
export function registerIntakeRoutes(kit: RouteKit): void {
  const { app, deps } = kit;
  // Raw RFC 5322 MIME; attachments are ingested as documents, the payload is the event's.
  app.post('/v1/orgs/:org/inbound-email', async (c) => {
    const caller = c.get('caller');
    requireAction(caller, 'receive_email');
    const raw = Buffer.from(await c.req.arrayBuffer());
    const r = await receiveInboundEmail(deps, { orgId: caller.orgId, raw, channel: 'api' });
    if (!r.ok)
      throw new HttpError(/TooLarge/.test(r.error.code) ? 413 : 422, r.error.code, r.error.message);
    return json(202, r.payload);
  });

  // A connector sync's statement file (OFX, CAMT.053, MT940, CSV) as raw bytes: one
  // connector.statement_imported event per statement, or the whole file refused (422, nothing
  // imported) with the importer's typed error.
  app.post('/v1/orgs/:org/statements', async (c) => {
    const caller = c.get('caller');
    requireAction(caller, 'import_statement');
    const q = StatementQuery.safeParse({
      connector: c.req.query('connector'),
      file: c.req.query('file'),
    });
    if (!q.success)
      throw new HttpError(
        400,
        'InvalidRequest',
        q.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
      );
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    const r = await importStatementAsEvents(deps, {
      orgId: caller.orgId,
      connectorId: q.data.connector,
      file: q.data.file,
      bytes,
    });
    if (!r.ok)
      throw new HttpError(
        r.error.code === 'TooLarge' ? 413 : 422,
        r.error.code,
        `${r.error.file}${r.error.line === null ? '' : `:${r.error.line}`}: ${r.error.message}`,
      );
    return json(202, {
      format: r.format,
      lines: r.lines,
      events: r.events.map((e) => ({ eventId: e.eventId, status: e.status })),
    });
  });

  // Raw bodies, outside the JSON schema flow: documented by hand.
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/v1/orgs/{org}/inbound-email',
    tags: ['intake'],
    summary:
      'Receive a raw RFC 5322 message: attachments become documents, it an email.received event',
    security: secured,
    request: {
      params: OrgParams,
      body: { content: { 'message/rfc822': { schema: z.string() } }, required: true },
    },
    responses: { 202: ok('The email.received payload'), ...problems(401, 403, 413, 422) },
  });
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/v1/orgs/{org}/statements',
    tags: ['intake'],
    summary:
      'Import a bank statement file (OFX, CAMT.053, MT940, CSV): one connector.statement_imported event per statement, or nothing',
    security: secured,
    request: {
      params: OrgParams,
      query: StatementQuery,
      body: { content: { 'application/octet-stream': { schema: z.string() } }, required: true },
    },
    responses: {
      202: ok('The format, the number of lines and the events accepted'),
      ...problems(400, 401, 403, 413, 422),
    },
  });
}
