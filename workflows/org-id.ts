import { z } from 'zod';

/**
 * What an org id may be (issue 25 item 8): lower-case letters, digits, `_` and `-`, starting
 * with a letter or digit, at most 64 characters. Workflow ids are `<kind>:<org>:<key>` and the
 * payload codec reads the org from them, so an org id must never hold `:` (nor anything a
 * search-attribute query or a path would need to escape). The database holds the same rule as
 * `organizations_id_alphabet` (0031/0032).
 */
export const ORG_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export const OrgIdSchema = z
  .string()
  .regex(ORG_ID_PATTERN, 'an org id is 1–64 of a-z, 0-9, _ and -, starting with a letter or digit');
