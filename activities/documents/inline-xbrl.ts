import { renderHtml, type TextMark } from './html-text';
import {
  canonicalDecimal,
  negateDecimal,
  normalizeSpace,
  shiftDecimal,
  transformNumber,
  transformText,
} from './inline-xbrl-formats';
import {
  FactRefusalType,
  type FactPeriod,
  type FactDimension,
  type FactLocation,
  type InlineFact,
  type RefusedFact,
  type DeiSummary,
  type InlineXbrlIssue,
} from '../../workflows/inline-fact';

/**
 * Inline XBRL (the tagged facts of an SEC 10-K/10-Q in HTML) read in the same parse that
 * renders the filing's text pages, so each fact knows where its displayed text sits in the
 * stored page text. Pure: text in, pages and facts out; no database, no I/O.
 */

const IX_NS = new Set([
  'http://www.xbrl.org/2013/inlineXBRL',
  'http://www.xbrl.org/2008/inlineXBRL',
]);
const XBRLI_NS = 'http://www.xbrl.org/2003/instance';
const XBRLDI_NS = 'http://xbrl.org/2006/xbrldi';
const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

export interface InlineXbrlLimits {
  /** More fact elements than this: the filing is read as text only, with the reason. */
  maxFacts: number;
  /** Characters kept of a non-numeric fact's value (text blocks run to hundreds of KB). */
  maxTextValue: number;
  /** Every fact element as written, duplicates not folded (the Arelle comparison reads them so). */
  keepDuplicates?: boolean;
}

export const DEFAULT_INLINE_XBRL_LIMITS: InlineXbrlLimits = {
  maxFacts: 50_000,
  maxTextValue: 4_000,
};

export type InlineXbrlResult = {
  pages: string[];
  /** Fact elements in the file (counted even past the limit). */
  factElements: number;
  issues: InlineXbrlIssue[];
} & (
  | { status: 'none' }
  | { status: 'text-only'; reason: string }
  | { status: 'facts'; facts: InlineFact[]; refused: RefusedFact[]; dei: DeiSummary }
);

/** Namespace prefixes in scope at once, at most (real filings declare a few dozen). */
const MAX_PREFIXES = 1_000;

/** Facts, continuations and -sec-ix-hidden displays open at once, at most. */
export const MAX_OPEN_ELEMENTS = 32;

/** Cheap test on the raw text (linear, one pass): does this HTML declare the inline XBRL namespace? */
export function hasInlineXbrl(html: string): boolean {
  return /xmlns:[\w.-]+\s*=\s*["']http:\/\/www\.xbrl\.org\/20(13|08)\/inlineXBRL["']/.test(html);
}

type Scope = Map<string, string>;

interface Accumulator {
  parts: string[];
  length: number;
  /** Text is kept only at the ix:exclude depth the element opened at. */
  excludeDepth: number;
  cap: number;
  truncated: boolean;
}

interface FactBuilder extends Accumulator {
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

interface ContinuationBuilder extends Accumulator {
  kind: 'continuation';
  id: string;
  continuedAt?: string;
}

interface ContextBuilder {
  id: string;
  scope: Scope;
  instant?: string;
  start?: string;
  end?: string;
  forever: boolean;
  dims: FactDimension[];
}

interface UnitBuilder {
  id: string;
  num: string[];
  den: string[];
}

type Entry = {
  selfClosed: boolean;
  scope: Scope;
  onClose?: () => void;
};

function newAcc(excludeDepth: number, cap: number): Accumulator {
  return { parts: [], length: 0, excludeDepth, cap, truncated: false };
}

function push(acc: Accumulator, text: string) {
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

/**
 * Renders the filing's pages (identical to `htmlToPages`) and reads its inline XBRL facts:
 * concept and namespace, exact value after format, scale and sign, unit, decimals, period,
 * dimensions, displayed text and its place in the pages; continuations, exclusions and hidden
 * facts. A fact that cannot be read is refused on its own with a typed reason; duplicates
 * fold into their most precise reading.
 */
export function parseInlineXbrl(
  html: string,
  limits: InlineXbrlLimits = DEFAULT_INLINE_XBRL_LIMITS,
): InlineXbrlResult {
  const facts: FactBuilder[] = [];
  const continuations = new Map<string, ContinuationBuilder>();
  const contexts = new Map<string, ContextBuilder>();
  const units = new Map<string, UnitBuilder>();
  const stack: Entry[] = [];
  const rootScope: Scope = new Map([['xml', 'http://www.w3.org/XML/1998/namespace']]);
  let open: Accumulator[] = [];
  let excludeDepth = 0;
  let hiddenDepth = 0;
  let factElements = 0;
  let ending = false;
  /** Text of the xbrli/xbrldi element being read (a period date, a member, a measure). */
  let capture: { text: string } | undefined;
  let context: ContextBuilder | undefined;
  let unit: UnitBuilder | undefined;
  let inDenominator = false;
  let sawIx = false;
  let mark: () => TextMark = () => ({});
  const tooDeep: RefusedFact[] = [];
  const shownHidden = new Map<string, Accumulator & { start: TextMark; end?: TextMark }>();

  const resolve = (scope: Scope, qname: string): [string, string] | undefined => {
    const i = qname.indexOf(':');
    const prefix = i < 0 ? '' : qname.slice(0, i);
    const ns = scope.get(prefix) ?? scope.get(prefix.toLowerCase());
    return ns === undefined ? undefined : [ns, qname.slice(i + 1)];
  };

  const { pages } = renderHtml(html, (markFn) => {
    mark = markFn;
    return {
      onopentag(name, attrs, selfClosing) {
        const parent = stack[stack.length - 1]?.scope ?? rootScope;
        let scope = parent;
        for (const k in attrs) {
          // Scopes are copied per declaring element: a hostile file declaring thousands of
          // prefixes would make that quadratic, so past MAX_PREFIXES declarations are ignored.
          if ((k === 'xmlns' || k.startsWith('xmlns:')) && scope.size < MAX_PREFIXES) {
            if (scope === parent) scope = new Map(parent);
            scope.set(k === 'xmlns' ? '' : k.slice(6), attrs[k] ?? '');
          }
        }
        const entry: Entry = { selfClosed: selfClosing, scope };
        stack.push(entry);
        const style = attrs.style;
        if (style !== undefined && style.includes('-sec-ix-hidden')) showHidden(style, entry);
        const colon = name.indexOf(':');
        if (colon >= 0) {
          const ns = scope.get(name.slice(0, colon));
          const local = name.slice(colon + 1);
          if (ns !== undefined && IX_NS.has(ns)) {
            sawIx = true;
            openIx(local, attrs, entry);
          } else if (ns === XBRLI_NS || ns === XBRLDI_NS) openXbrli(local, attrs, entry);
        }
        if (selfClosing) {
          const close = entry.onClose;
          entry.onClose = undefined;
          close?.();
        }
      },
      ontext(text) {
        if (capture) capture.text += text;
        for (const acc of open) if (acc.excludeDepth === excludeDepth) push(acc, text);
      },
      onclosetag() {
        const entry = stack.pop();
        entry?.onClose?.();
      },
      onend() {
        ending = true;
      },
    };
  });

  /**
   * EDGAR's `-sec-ix-hidden:ID` style: the element displays fact ID, whose tag sits in
   * ix:hidden (a value the transformations cannot read from the printed text). Its text and
   * place are the fact's displayed text and location.
   */
  function showHidden(style: string, entry: Entry) {
    const id = /-sec-ix-hidden\s*:\s*([^;\s]+)/.exec(style)?.[1];
    if (id === undefined || shownHidden.has(id)) return;
    if (open.length >= MAX_OPEN_ELEMENTS || shownHidden.size >= limits.maxFacts) return;
    const acc: Accumulator & { start: TextMark; end?: TextMark } = {
      ...newAcc(excludeDepth, 1_000),
      start: mark(),
    };
    shownHidden.set(id, acc);
    open.push(acc);
    entry.onClose = () => {
      acc.end = mark();
      open = open.filter((a) => a !== acc);
    };
  }

  function openIx(local: string, attrs: Record<string, string>, entry: Entry) {
    switch (local) {
      case 'nonfraction':
      case 'nonnumeric': {
        factElements++;
        if (factElements > limits.maxFacts) return;
        const numeric = local === 'nonfraction';
        // Every text node is added to each open fact: nesting is bounded so that cost stays
        // linear in the file (real filings nest a text block or two around their numbers).
        if (open.length >= MAX_OPEN_ELEMENTS) {
          tooDeep.push({
            id: attrs.id ?? null,
            concept: attrs.name ?? null,
            type: FactRefusalType.TooDeeplyNested,
            message: `More than ${MAX_OPEN_ELEMENTS} facts and continuations are open around this one`,
          });
          return;
        }
        const f: FactBuilder = {
          kind: 'fact',
          seq: facts.length,
          numeric,
          attrs,
          scope: entry.scope,
          hidden: hiddenDepth > 0,
          unclosed: false,
          ...newAcc(excludeDepth, numeric ? 1_000 : limits.maxTextValue),
        };
        if (!f.hidden) f.start = mark();
        facts.push(f);
        open.push(f);
        entry.onClose = () => {
          if (!f.hidden) f.end = mark();
          f.unclosed = ending && !entry.selfClosed;
          open = open.filter((a) => a !== f);
        };
        return;
      }
      case 'continuation': {
        const c: ContinuationBuilder = {
          kind: 'continuation',
          id: attrs.id ?? '',
          continuedAt: attrs.continuedat,
          ...newAcc(excludeDepth, limits.maxTextValue),
        };
        if (open.length >= MAX_OPEN_ELEMENTS) return; // its facts find it missing
        if (c.id && !continuations.has(c.id)) continuations.set(c.id, c);
        open.push(c);
        entry.onClose = () => {
          open = open.filter((a) => a !== c);
        };
        return;
      }
      case 'exclude':
        excludeDepth++;
        entry.onClose = () => excludeDepth--;
        return;
      case 'hidden':
        hiddenDepth++;
        entry.onClose = () => hiddenDepth--;
        return;
      default:
        return;
    }
  }

  function openXbrli(local: string, attrs: Record<string, string>, entry: Entry) {
    const captureInto = (set: (text: string) => void) => {
      const c = { text: '' };
      capture = c;
      entry.onClose = () => {
        set(c.text.trim());
        capture = undefined;
      };
    };
    switch (local) {
      case 'context': {
        const c: ContextBuilder = {
          id: attrs.id ?? '',
          scope: entry.scope,
          forever: false,
          dims: [],
        };
        context = c;
        entry.onClose = () => {
          if (c.id && !contexts.has(c.id)) contexts.set(c.id, c);
          context = undefined;
        };
        return;
      }
      case 'instant':
        if (context) captureInto((t) => context && (context.instant = t));
        return;
      case 'startdate':
        if (context) captureInto((t) => context && (context.start = t));
        return;
      case 'enddate':
        if (context) captureInto((t) => context && (context.end = t));
        return;
      case 'forever':
        if (context) context.forever = true;
        return;
      case 'explicitmember':
        if (context) {
          const dims = context.dims;
          captureInto((t) => dims.push({ dimension: attrs.dimension ?? '', member: t }));
        }
        return;
      case 'typedmember':
        if (context) {
          const dims = context.dims;
          captureInto((t) =>
            dims.push({ dimension: attrs.dimension ?? '', typedValue: normalizeSpace(t) }),
          );
        }
        return;
      case 'unit': {
        const u: UnitBuilder = { id: attrs.id ?? '', num: [], den: [] };
        unit = u;
        entry.onClose = () => {
          if (u.id && !units.has(u.id)) units.set(u.id, u);
          unit = undefined;
        };
        return;
      }
      case 'unitdenominator':
        inDenominator = true;
        entry.onClose = () => (inDenominator = false);
        return;
      case 'measure':
        if (unit) {
          const u = unit;
          const den = inDenominator;
          captureInto((t) => (den ? u.den : u.num).push(t));
        }
        return;
      default:
        return;
    }
  }

  const issues: InlineXbrlIssue[] = [];
  if (!sawIx) return { status: 'none', pages, factElements, issues };
  if (factElements > limits.maxFacts)
    return {
      status: 'text-only',
      reason: `The filing has ${factElements} inline XBRL facts; at most ${limits.maxFacts} are read, so it is stored as text only`,
      pages,
      factElements,
      issues,
    };
  return { status: 'facts', pages, factElements, issues, ...finish() };

  function finish(): { facts: InlineFact[]; refused: RefusedFact[]; dei: DeiSummary } {
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
            refuse(
              f,
              FactRefusalType.InvalidNumber,
              `"${displayedText.slice(0, 80)}": ${r.reason}`,
            );
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
  }

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

/** Sort key of a fact's aspects other than the value: one fact per key. */
export function factKey(
  f: Pick<InlineFact, 'concept' | 'conceptNs' | 'period' | 'dimensions' | 'unit'>,
): string {
  const p = f.period;
  const period =
    p.type === 'instant' ? p.instant : p.type === 'duration' ? `${p.start}/${p.end}` : 'forever';
  const dims = f.dimensions
    .map((d) => `${d.dimension}=${d.member ?? `{${d.typedValue ?? ''}}`}`)
    .join(',');
  return `${f.conceptNs}#${f.concept.slice(f.concept.indexOf(':') + 1)}|${period}|${dims}|${f.unit ?? ''}`;
}

const precision = (d: string | null): number =>
  d === null ? -Infinity : d.toUpperCase() === 'INF' ? Infinity : Number(d);

/** `value` rounded half away from zero to `decimals` places (negative: tens, hundreds …). */
export function roundDecimal(value: string, decimals: number): string {
  if (!Number.isFinite(decimals)) return canonicalDecimal(value);
  const neg = value.startsWith('-');
  const abs = neg ? value.slice(1) : value;
  const scaled = shiftDecimal(abs, decimals);
  const [int = '0', frac = ''] = scaled.split('.');
  let n = BigInt(int);
  if ((frac[0] ?? '0') >= '5') n += 1n;
  const r = shiftDecimal(n.toString(), -decimals);
  return neg && r !== '0' ? `-${r}` : r;
}

/**
 * Facts with the same concept, period, dimensions and unit are one fact: the most precise
 * reading (highest decimals) stands, the first in the document among equals; the others'
 * ids are kept on it. Readings that disagree beyond rounding are an issue, not a silent pick.
 */
function collapseDuplicates(facts: InlineFact[], issues: InlineXbrlIssue[]): InlineFact[] {
  const byKey = new Map<string, InlineFact>();
  const out: InlineFact[] = [];
  for (const f of facts) {
    const key = factKey(f);
    const kept = byKey.get(key);
    if (!kept) {
      byKey.set(key, f);
      out.push(f);
      continue;
    }
    let winner = kept;
    let loser = f;
    if (f.numeric && precision(f.decimals) > precision(kept.decimals)) {
      winner = f;
      loser = kept;
    }
    if (f.numeric && winner.value !== null && loser.value !== null) {
      const d = precision(loser.decimals);
      if (roundDecimal(winner.value, d) !== roundDecimal(loser.value, d))
        issues.push({
          type: 'InconsistentDuplicate',
          factId: loser.id,
          message: `${loser.concept} ${loser.value} (decimals ${loser.decimals}) disagrees with ${winner.id} ${winner.value}`,
        });
    }
    if (winner !== kept) {
      Object.assign(kept, { ...winner, duplicateIds: [...kept.duplicateIds, kept.id] });
    } else kept.duplicateIds.push(f.id);
  }
  return out;
}

const DEI_FIELDS: Record<string, keyof DeiSummary> = {
  EntityRegistrantName: 'registrantName',
  EntityCentralIndexKey: 'cik',
  DocumentType: 'documentType',
  DocumentFiscalYearFocus: 'fiscalYearFocus',
  DocumentFiscalPeriodFocus: 'fiscalPeriodFocus',
  DocumentPeriodEndDate: 'periodEndDate',
};

/** The filer and the period the filing covers, from its dei facts (company-wide contexts). */
function deiOf(facts: InlineFact[]): DeiSummary {
  const dei: DeiSummary = {};
  for (const f of facts) {
    if (!/^http:\/\/xbrl\.sec\.gov\/dei\//.test(f.conceptNs) || f.dimensions.length > 0) continue;
    const field = DEI_FIELDS[f.concept.slice(f.concept.indexOf(':') + 1)];
    if (field && f.value !== null && dei[field] === undefined) dei[field] = f.value;
  }
  return dei;
}
