import Anthropic from '@anthropic-ai/sdk';
import type { AppConfig } from '../config/env';

/**
 * The model client a domain's activities use: the caller's override when it passes one (tests
 * aim it at a local server that speaks the Messages API; null turns the model off), else one
 * built from ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL, else none (code mode).
 */
export function anthropicFor(
  cfg: Pick<AppConfig, 'ANTHROPIC_API_KEY' | 'ANTHROPIC_BASE_URL'>,
  override: Anthropic | null | undefined,
): Anthropic | null {
  if (override !== undefined) return override;
  if (!cfg.ANTHROPIC_API_KEY) return null;
  return new Anthropic({
    apiKey: cfg.ANTHROPIC_API_KEY,
    ...(cfg.ANTHROPIC_BASE_URL ? { baseURL: cfg.ANTHROPIC_BASE_URL } : {}),
    maxRetries: 2,
  });
}
