import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { MODEL_TIERS, type ModelTier } from '../../workflows/agent-runs/config';

const PriceSchema = z
  .object({
    model: z.string().min(1),
    inputPerMTok: z.number().int().nonnegative(),
    outputPerMTok: z.number().int().nonnegative(),
    cacheWritePerMTok: z.number().int().nonnegative(),
    cacheReadPerMTok: z.number().int().nonnegative(),
  })
  .strict();
export type ModelPrice = z.infer<typeof PriceSchema>;
const PriceTableSchema = z.object(
  Object.fromEntries(MODEL_TIERS.map((t) => [t, PriceSchema])) as Record<
    ModelTier,
    typeof PriceSchema
  >,
);
export type PriceTable = Record<ModelTier, ModelPrice>;

export function loadPriceTable(file = join(__dirname, 'model-prices.json')): PriceTable {
  return PriceTableSchema.parse(JSON.parse(readFileSync(file, 'utf8'))) as PriceTable;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
}

const MILLION = 1_000_000n;
/** tokens × micro-dollars per million tokens, rounded up to a whole micro-dollar (integers only). */
const part = (tokens: number, perMTok: number) =>
  (BigInt(tokens) * BigInt(perMTok) + MILLION - 1n) / MILLION;

export function costMicroUsd(price: ModelPrice, u: Usage): bigint {
  return (
    part(u.inputTokens, price.inputPerMTok) +
    part(u.outputTokens, price.outputPerMTok) +
    part(u.cacheCreationTokens, price.cacheWritePerMTok) +
    part(u.cacheReadTokens, price.cacheReadPerMTok)
  );
}

/**
 * The most a call can cost: every input token at the dearer of the input and cache-write
 * prices, plus max_tokens of output. Input tokens are the request's JSON length / 4 rounded
 * up — the documented estimate used when no count is available — plus a 10 % margin.
 */
export function worstCaseMicroUsd(
  price: ModelPrice,
  requestChars: number,
  maxTokens: number,
): bigint {
  const inputTokens = Math.ceil((Math.ceil(requestChars / 4) * 11) / 10);
  return (
    part(inputTokens, Math.max(price.inputPerMTok, price.cacheWritePerMTok)) +
    part(maxTokens, price.outputPerMTok)
  );
}
