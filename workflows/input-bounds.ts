/**
 * Structural bounds on any JSON a caller hands us (a write, an analysis request, an HTTP
 * body), checked before a schema sees it: nesting depth, node count, string size, no NUL
 * or lone UTF-16 surrogates (PostgreSQL text and jsonb cannot hold them, and they would
 * otherwise surface as a retried database error), no prototype keys, finite numbers.
 * Pure and linear in the input's size, so workflows, clients and the API share it.
 */
export interface InputBounds {
  maxDepth: number;
  maxNodes: number;
  maxStringLength: number;
  maxKeys: number;
}

export const DEFAULT_INPUT_BOUNDS: InputBounds = {
  maxDepth: 16,
  maxNodes: 50_000,
  maxStringLength: 100_000,
  maxKeys: 1_000,
};

export interface BoundsIssue {
  path: string;
  message: string;
}

const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be stored as text, or undefined when it can. */
export function textProblem(s: string, maxLength: number): string | undefined {
  if (s.length > maxLength) return `text longer than ${maxLength} characters`;
  if (s.includes('\u0000')) return 'text contains a NUL character';
  if (LONE_SURROGATE.test(s)) return 'text contains an unpaired UTF-16 surrogate';
  return undefined;
}

export function checkInputBounds(
  value: unknown,
  bounds: InputBounds = DEFAULT_INPUT_BOUNDS,
): { ok: true } | { ok: false; issues: BoundsIssue[] } {
  const issues: BoundsIssue[] = [];
  let nodes = 0;
  const walk = (v: unknown, path: string[], depth: number): void => {
    if (issues.length >= 20) return;
    nodes += 1;
    if (nodes > bounds.maxNodes) {
      if (nodes === bounds.maxNodes + 1)
        issues.push({ path: path.join('.'), message: `more than ${bounds.maxNodes} values` });
      return;
    }
    if (typeof v === 'string') {
      const p = textProblem(v, bounds.maxStringLength);
      if (p) issues.push({ path: path.join('.'), message: p });
      return;
    }
    if (typeof v === 'number') {
      if (!Number.isFinite(v))
        issues.push({ path: path.join('.'), message: 'not a finite number' });
      return;
    }
    if (v === null || typeof v !== 'object') return;
    if (depth >= bounds.maxDepth) {
      issues.push({
        path: path.join('.'),
        message: `nested deeper than ${bounds.maxDepth} levels`,
      });
      return;
    }
    if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, [...path, String(i)], depth + 1));
      return;
    }
    const keys = Object.keys(v);
    if (keys.length > bounds.maxKeys) {
      issues.push({ path: path.join('.'), message: `more than ${bounds.maxKeys} keys` });
      return;
    }
    // JSON.parse makes "__proto__" an own key; Object.keys lists it.
    for (const k of keys) {
      if (PROTOTYPE_KEYS.has(k)) {
        issues.push({ path: [...path, k].join('.'), message: `the key "${k}" is not allowed` });
        continue;
      }
      const kp = textProblem(k, 200);
      if (kp) {
        issues.push({ path: path.join('.'), message: `a key: ${kp}` });
        continue;
      }
      walk((v as Record<string, unknown>)[k], [...path, k], depth + 1);
    }
  };
  walk(value, [], 0);
  return issues.length === 0 ? { ok: true } : { ok: false, issues };
}

/** Uploaded documents larger than this are refused before they are stored or parsed. */
export const MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;
