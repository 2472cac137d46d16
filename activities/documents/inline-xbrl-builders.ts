/**
 * The inline XBRL reader's state while it streams through a filing: facts, continuations,
 * contexts and units as they are being read, and the bounded text they collect.
 */
import type { TextMark } from './html-text';
import type { FactDimension } from '../../workflows/inline-fact';

export type Scope = Map<string, string>;

export interface Accumulator {
  parts: string[];
  length: number;
  /** Text is kept only at the ix:exclude depth the element opened at. */
  excludeDepth: number;
  cap: number;
  truncated: boolean;
}

export interface FactBuilder extends Accumulator {
  kind: 'fact';
  seq: number;
  numeric: boolean;
  attrs: Record<string, string>;
  scope: Scope;
  hidden: boolean;
  start?: TextMark;
  end?: TextMark;
  unclosed: boolean;
}

export interface ContinuationBuilder extends Accumulator {
  kind: 'continuation';
  id: string;
  continuedAt?: string;
}

export interface ContextBuilder {
  id: string;
  scope: Scope;
  instant?: string;
  start?: string;
  end?: string;
  forever: boolean;
  dims: FactDimension[];
}

export interface UnitBuilder {
  id: string;
  num: string[];
  den: string[];
}

export type Entry = {
  selfClosed: boolean;
  scope: Scope;
  onClose?: () => void;
};

export function newAcc(excludeDepth: number, cap: number): Accumulator {
  return { parts: [], length: 0, excludeDepth, cap, truncated: false };
}

export function push(acc: Accumulator, text: string) {
  if (acc.length >= acc.cap) {
    acc.truncated = true;
    return;
  }
  const room = acc.cap - acc.length;
  const t = text.length > room ? text.slice(0, room) : text;
  if (t.length < text.length) acc.truncated = true;
  acc.parts.push(t);
  acc.length += t.length;
}
