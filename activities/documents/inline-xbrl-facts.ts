/**
 * The facts of an inline XBRL filing, built from what the streaming read collected: each
 * fact's name, context, unit, continuations and value checked and transformed, or refused on
 * its own with a typed reason; then duplicates folded and the dei summary taken.
 */
import type { TextMark } from './html-text';
import {
  negateDecimal,
  normalizeSpace,
  shiftDecimal,
  transformNumber,
  transformText,
} from './inline-xbrl-formats';
import type {
  Accumulator,
  ContextBuilder,
  ContinuationBuilder,
  FactBuilder,
  Scope,
  UnitBuilder,
} from './inline-xbrl-builders';
import { deiOf } from './inline-xbrl-dei';
import { collapseDuplicates } from './inline-xbrl-duplicates';
import type { InlineXbrlLimits } from './inline-xbrl-limits';
import {
  FactRefusalType,
  type FactPeriod,
  type FactLocation,
  type InlineFact,
  type RefusedFact,
  type DeiSummary,
  type InlineXbrlIssue,
} from '../../workflows/inline-fact';

const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

/** What the streaming read of a filing collected, for `finishFacts`. */
export interface CollectedFacts {
  facts: FactBuilder[];
  continuations: Map<string, ContinuationBuilder>;
  contexts: Map<string, ContextBuilder>;
  units: Map<string, UnitBuilder>;
  /** Facts refused while reading, for nesting too deep. */
  tooDeep: RefusedFact[];
  /** `-sec-ix-hidden` displays, by the id of the hidden fact they show. */
  shownHidden: Map<string, Accumulator & { start: TextMark; end?: TextMark }>;
  pages: string[];
  /** Issues found so far; the facts' issues are added to it. */
  issues: InlineXbrlIssue[];
  limits: InlineXbrlLimits;
}

const resolve = (scope: Scope, qname: string): [string, string] | undefined => {
  const i = qname.indexOf(':');
  const prefix = i < 0 ? '' : qname.slice(0, i);
  const ns = scope.get(prefix) ?? scope.get(prefix.toLowerCase());
  return ns === undefined ? undefined : [ns, qname.slice(i + 1)];
};

export function finishFacts(collected: CollectedFacts): {
  facts: InlineFact[];
  refused: RefusedFact[];
  dei: DeiSummary;
} {
  const { facts, continuations, contexts, units, tooDeep, shownHidden, pages, issues, limits } =
    collected;
  const refused: RefusedFact[] = [...tooDeep];
  const out: InlineFact[] = [];
  const refuse = (f: FactBuilder, type: FactRefusalType, message: string) =>
    refused.push({ id: f.attrs.id ?? null, concept: f.attrs.name ?? null, type, message });
  const ids = new Set<string>();
  for (const f of facts) {
    const id = f.attrs.id ?? `_fact${f.seq}`;
    if (ids.has(id)) {
      refuse(f, FactRefusalType.DuplicateId, `Another fact already has the id ${id}`);
      continue;
    }
    ids.add(id);
    const name = f.attrs.name;
    if (!name) {
      refuse(f, FactRefusalType.MissingName, 'The fact has no name attribute');
      continue;
    }
    if (f.unclosed) {
      refuse(f, FactRefusalType.Unclosed, `Fact ${id} is not closed before the document ends`);
      continue;
    }
    const qn = resolve(f.scope, name);
    if (!qn) {
      refuse(f, FactRefusalType.UnknownPrefix, `No namespace is declared for ${name}`);
      continue;
    }
    const ctxRef = f.attrs.contextref;
    const ctx = ctxRef === undefined ? undefined : contexts.get(ctxRef);
    if (!ctx) {
      refuse(f, FactRefusalType.MissingContext, `Context ${ctxRef ?? '(none)'} is not defined`);
      continue;
    }
    const period: FactPeriod | undefined = ctx.instant
      ? { type: 'instant', instant: ctx.instant }
      : ctx.start && ctx.end
        ? { type: 'duration', start: ctx.start, end: ctx.end }
        : ctx.forever
          ? { type: 'forever' }
          : undefined;
    if (!period) {
      refuse(f, FactRefusalType.MissingContext, `Context ${ctx.id} has no period`);
      continue;
    }
    const dates =
      period.type === 'instant'
        ? [period.instant]
        : period.type === 'duration'
          ? [period.start, period.end]
          : [];
    const badDate = dates.find((d) => !isCalendarDate(d));
    if (badDate !== undefined) {
      refuse(
        f,
        FactRefusalType.InvalidPeriod,
        `Context ${ctx.id} has the date "${badDate.slice(0, 40)}"`,
      );
      continue;
    }
    let unitString: string | null = null;
    if (f.numeric) {
      const u = f.attrs.unitref === undefined ? undefined : units.get(f.attrs.unitref);
      if (!u || u.num.length === 0) {
        refuse(
          f,
          FactRefusalType.MissingUnit,
          `Unit ${f.attrs.unitref ?? '(none)'} is not defined`,
        );
        continue;
      }
      unitString = u.num.join('*') + (u.den.length ? `/${u.den.join('*')}` : '');
    }
    // The displayed text, and for text facts the continuation chain that completes it.
    let text = f.parts.join('');
    let truncated = f.truncated;
    const continuedAt = f.attrs.continuedat;
    if (!f.numeric && continuedAt) {
      const seen = new Set<string>();
      let next: string | undefined = continuedAt;
      let failure: [FactRefusalType, string] | undefined;
      const chain: string[] = [text];
      while (next) {
        if (seen.has(next)) {
          failure = [FactRefusalType.ContinuationCycle, `Continuation ${next} is reached twice`];
          break;
        }
        seen.add(next);
        const c = continuations.get(next);
        if (!c) {
          failure = [FactRefusalType.ContinuationMissing, `Continuation ${next} is not defined`];
          break;
        }
        chain.push(c.parts.join(''));
        truncated ||= c.truncated;
        next = c.continuedAt;
      }
      if (failure) {
        refuse(f, failure[0], failure[1]);
        continue;
      }
      text = chain.join(' ');
    }
    const shown = f.hidden ? shownHidden.get(id) : undefined;
    const displayedText = normalizeSpace(shown ? shown.parts.join('') : text);
    const nil =
      (f.attrs['xsi:nil'] ?? '').trim() === 'true' && resolve(f.scope, 'xsi:nil')?.[0] === XSI_NS;
    let value: string | null = null;
    let scale: number | null = null;
    const sign = f.attrs.sign === '-' ? '-' : null;
    if (f.numeric) {
      if (f.attrs.scale !== undefined) {
        const s = f.attrs.scale.trim();
        if (!/^-?\d{1,3}$/.test(s)) {
          refuse(f, FactRefusalType.InvalidScale, `Scale "${f.attrs.scale}" is not an integer`);
          continue;
        }
        scale = Number(s);
      }
      if (!nil) {
        const r = transformNumber(f.attrs.format, text);
        if (!r.ok) {
          refuse(f, FactRefusalType.InvalidNumber, `"${displayedText.slice(0, 80)}": ${r.reason}`);
          continue;
        }
        value = shiftDecimal(r.value, scale ?? 0);
        if (sign) value = negateDecimal(value);
      }
    } else if (!nil) {
      const r = transformText(f.attrs.format, text);
      if (r.ok) value = r.value;
      else {
        value = displayedText;
        issues.push({ type: 'UntransformedFormat', factId: id, message: r.reason });
      }
      if (truncated) value = value.slice(0, limits.maxTextValue);
    }
    const dims = ctx.dims
      .map((d) => ({ ...d }))
      .sort((a, b) => (a.dimension < b.dimension ? -1 : a.dimension > b.dimension ? 1 : 0));
    out.push({
      id,
      concept: name,
      conceptNs: qn[0],
      numeric: f.numeric,
      value,
      valueTruncated: !f.numeric && truncated,
      contextId: ctx.id,
      unitId: f.numeric ? (f.attrs.unitref ?? null) : null,
      unit: unitString,
      decimals: f.numeric ? (f.attrs.decimals?.trim() ?? null) : null,
      scale,
      sign,
      format: f.attrs.format ?? null,
      period,
      dimensions: dims,
      displayedText: displayedText.slice(0, limits.maxTextValue),
      hidden: f.hidden,
      location: shown ? locate(shown) : locate(f),
      duplicateIds: [],
    });
  }
  return {
    facts: limits.keepDuplicates ? out : collapseDuplicates(out, issues),
    refused,
    dei: deiOf(out),
  };

  function locate(f: { start?: TextMark; end?: TextMark }): FactLocation | null {
    const s = f.start?.position;
    const e = f.end?.position;
    if (!s || !e) return null;
    const text = pages[s.page];
    if (text === undefined) return null;
    let start = s.offset;
    let end = e.page === s.page ? e.offset : text.length;
    while (start < end && text[start] === ' ') start++;
    while (end > start && text[end - 1] === ' ') end--;
    return end > start ? { page: s.page, start, end } : null;
  }
}

function isCalendarDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}
