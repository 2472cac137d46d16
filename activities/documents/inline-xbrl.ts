import { renderHtml, type TextMark } from './html-text';
import {
  newAcc,
  push,
  type Accumulator,
  type ContextBuilder,
  type ContinuationBuilder,
  type Entry,
  type FactBuilder,
  type Scope,
  type UnitBuilder,
} from './inline-xbrl-builders';
import { finishFacts } from './inline-xbrl-facts';
import { normalizeSpace } from './inline-xbrl-formats';
import {
  DEFAULT_INLINE_XBRL_LIMITS,
  MAX_OPEN_ELEMENTS,
  type InlineXbrlLimits,
} from './inline-xbrl-limits';
import {
  FactRefusalType,
  type InlineFact,
  type RefusedFact,
  type DeiSummary,
  type InlineXbrlIssue,
} from '../../workflows/inline-fact';

export { factKey, roundDecimal } from './inline-xbrl-duplicates';
export {
  DEFAULT_INLINE_XBRL_LIMITS,
  MAX_OPEN_ELEMENTS,
  type InlineXbrlLimits,
} from './inline-xbrl-limits';

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

/** Cheap test on the raw text (linear, one pass): does this HTML declare the inline XBRL namespace? */
export function hasInlineXbrl(html: string): boolean {
  return /xmlns:[\w.-]+\s*=\s*["']http:\/\/www\.xbrl\.org\/20(13|08)\/inlineXBRL["']/.test(html);
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
  return {
    status: 'facts',
    pages,
    factElements,
    issues,
    ...finishFacts({
      facts,
      continuations,
      contexts,
      units,
      tooDeep,
      shownHidden,
      pages,
      issues,
      limits,
    }),
  };
}
