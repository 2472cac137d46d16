import type { StoredFact } from '../../../db/repositories/filing-facts';
import type { FactDimension } from '../../../workflows/inline-fact';

/**
 * The part of the company a question names — a product line, a reportable segment, a region —
 * read from the filing's own dimension members, not from a list of phrases: every member the
 * filing tags on a product, segment or geography axis is a name the question may use
 * (`aapl:GreaterChinaSegmentMember` is "Greater China", `tsla:AutomotiveSalesMember` is
 * "automotive sales", `country:DE` is "Germany"). A question that names one is answered from
 * that member's facts, never from the company total; one that names two parts, or a part the
 * filing reports no fact of, goes to a person.
 */

/** The axes whose members are parts of the company a question can ask about. */
export const PART_AXES: ReadonlySet<string> = new Set([
  'srt:ProductOrServiceAxis',
  'us-gaap:StatementBusinessSegmentsAxis',
  'srt:StatementGeographicalAxis',
]);

/** ISO country members (`country:XX`) by the names a question uses. */
const COUNTRY_NAMES: Readonly<Record<string, readonly string[]>> = {
  US: ['united states'],
  CA: ['canada'],
  MX: ['mexico'],
  BR: ['brazil'],
  GB: ['united kingdom'],
  IE: ['ireland'],
  FR: ['france'],
  DE: ['germany'],
  NL: ['netherlands'],
  CH: ['switzerland'],
  CN: ['china', 'mainland china'],
  JP: ['japan'],
  KR: ['south korea', 'korea'],
  TW: ['taiwan'],
  IN: ['india'],
  SG: ['singapore'],
  AU: ['australia'],
};

export interface PartMember {
  dimension: string;
  member: string;
  /**
   * The filer's own printed names of the member: the row label where one of its facts is
   * displayed ("Freight revenues" for `us-gaap:CargoAndFreightMember`), kept only when no
   * other member and no company total is printed under it and it has a word of its own.
   */
  printed?: string[];
}

export type NamedPart =
  /** The question names no part of the company this filing tags. */
  | { status: 'none' }
  /** One part, named by these words; the members that carry that name (usually one). */
  | { status: 'one'; words: string; members: PartMember[] }
  /** Two or more different parts ("the Americas and Europe segments"). */
  | { status: 'several'; words: string[] };

/** `aapl:WearablesHomeandAccessoriesMember` → "wearables homeand accessories" (segment dropped). */
export function memberNames(member: string): string[] {
  const [prefix, local = ''] = member.split(':');
  if (prefix === 'country') return [...(COUNTRY_NAMES[local] ?? [])];
  const words = local
    .replace(/Member$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '' && w !== 'segment' && w !== 'segments');
  return words.length === 0 ? [] : [words.join(' ')];
}

/**
 * Letters and digits only, with each one's place in the original text; "&" reads "and", and
 * with `dropAnd` the word "and" (or "&") is left out ("Fabric & Home Care" is the member
 * FabricHomeCare).
 */
function compact(text: string, dropAnd: boolean): { chars: string; at: number[] } {
  let chars = '';
  const at: number[] = [];
  for (const m of text.toLowerCase().matchAll(/[a-z0-9]+|&/g)) {
    const word = m[0] === '&' ? 'and' : m[0];
    if (dropAnd && word === 'and') continue;
    for (let k = 0; k < word.length; k++) {
      chars += word[k];
      at.push(m[0] === '&' ? m.index : m.index + k);
    }
  }
  return { chars, at };
}

const isWordChar = (c: string | undefined) => c !== undefined && /[a-z0-9]/i.test(c);

/**
 * Where a name occurs in the text as whole words, spaces, "&" and "and" aside ("i phone" and
 * "iPhone", "Fabric & Home Care" and "fabric home care"), a plural "s" allowed at its end.
 */
function occurrences(text: string, name: string): { start: number; end: number }[] {
  const lower = text.toLowerCase();
  const out: { start: number; end: number }[] = [];
  for (const dropAnd of [false, true]) {
    const t = compact(text, dropAnd);
    const n = compact(name, dropAnd).chars;
    if (n.length < 2) continue;
    for (let i = t.chars.indexOf(n); i >= 0; i = t.chars.indexOf(n, i + 1)) {
      const start = t.at[i]!;
      let last = t.at[i + n.length - 1]!;
      if (isWordChar(lower[start - 1])) continue;
      if (isWordChar(lower[last + 1])) {
        if (lower[last + 1] === 's' && !isWordChar(lower[last + 2])) last += 1;
        else continue;
      }
      if (!out.some((o) => o.start === start && o.end === last + 1))
        out.push({ start, end: last + 1 });
    }
  }
  return out;
}

/**
 * The members of part axes this filing's numeric facts carry. The only member of its axis is
 * the whole company (Netflix's one "streaming" product, a single reportable segment) when its
 * figures are the company's; one whose figure differs from the company total of the same line
 * and period (a filer that tags one segment only) is a part.
 */
export function partMembers(
  facts: readonly StoredFact[],
  totals: readonly StoredFact[],
): PartMember[] {
  const seen = new Map<string, PartMember>();
  for (const f of facts) {
    if (!f.numeric) continue;
    for (const d of f.dimensions)
      if (d.member && PART_AXES.has(d.dimension))
        seen.set(`${d.dimension}=${d.member}`, { dimension: d.dimension, member: d.member });
  }
  const perAxis = membersPerAxis(facts);
  const periodKey = (f: StoredFact) => `${f.concept}|${f.period.start ?? ''}|${f.period.end ?? ''}`;
  const total = new Map(
    totals.filter((t) => t.value !== null).map((t) => [periodKey(t), t.value!] as const),
  );
  const differsFromTotal = (m: PartMember) =>
    facts.some(
      (f) =>
        f.value !== null &&
        f.dimensions.length === 1 &&
        f.dimensions[0]!.dimension === m.dimension &&
        f.dimensions[0]!.member === m.member &&
        total.has(periodKey(f)) &&
        total.get(periodKey(f)) !== f.value,
    );
  return [...seen.values()].filter(
    (m) => (perAxis.get(m.dimension) ?? 0) > 1 || differsFromTotal(m),
  );
}

/** Words that name no part by themselves ("Total", "Net sales", "Other revenues"). */
const GENERIC_WORDS = new Set(
  (
    'total net gross other others sales sale revenue revenues income incomes operating operations ' +
    'segment segments and of the from in by for all products product services service ' +
    'amount amounts consolidated company reportable'
  ).split(' '),
);

/** The row label printed before the figures of the line at `offset` ("Freight revenues   $ 22,811"). */
function printedLabel(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(start, offset);
  const cut = before.search(/[$(\d]/);
  return (cut >= 0 ? before.slice(0, cut) : before).replace(/\s+/g, ' ').trim();
}

/**
 * Adds each member's printed names (see `PartMember.printed`): the labels of the rows its facts
 * are displayed in, minus those printed for another member or for a company total, and those
 * of generic words only.
 */
export function withPrintedNames(
  members: readonly PartMember[],
  partFacts: readonly StoredFact[],
  totalFacts: readonly StoredFact[],
  pages: readonly { page: number; text: string }[],
): PartMember[] {
  const textOf = new Map(pages.map((p) => [p.page, p.text]));
  const labelOf = (f: StoredFact): string | null => {
    const text = f.location ? textOf.get(f.location.page) : undefined;
    if (!f.location || text === undefined) return null;
    const label = printedLabel(text, f.location.start).toLowerCase();
    return label === '' ? null : label;
  };
  const totals = new Set(totalFacts.flatMap((f) => labelOf(f) ?? []));
  const byLabel = new Map<string, Set<string>>();
  for (const f of partFacts)
    for (const d of f.dimensions) {
      if (!d.member || !PART_AXES.has(d.dimension)) continue;
      const label = labelOf(f);
      if (label === null) continue;
      const owners = byLabel.get(label) ?? new Set<string>();
      owners.add(`${d.dimension}=${d.member}`);
      byLabel.set(label, owners);
    }
  return members.map((m) => {
    const key = `${m.dimension}=${m.member}`;
    const printed = [...byLabel]
      .filter(
        ([label, owners]) =>
          owners.size === 1 &&
          owners.has(key) &&
          !totals.has(label) &&
          label.split(/[^a-z0-9]+/).some((w) => w.length > 1 && !GENERIC_WORDS.has(w)),
      )
      .map(([label]) => label);
    return printed.length > 0 ? { ...m, printed } : m;
  });
}

/** Which part of the company the question names, among the filing's members (module comment). */
export function namedPart(question: string, members: readonly PartMember[]): NamedPart {
  const hits = members.flatMap((m) =>
    [...memberNames(m.member), ...(m.printed ?? [])].flatMap((name) =>
      occurrences(question, name).map((o) => ({ ...o, m, words: question.slice(o.start, o.end) })),
    ),
  );
  // A name inside a longer one is not named by itself ("automotive" in "automotive sales").
  const kept = hits.filter(
    (h) =>
      !hits.some((o) => o.start <= h.start && h.end <= o.end && o.end - o.start > h.end - h.start),
  );
  if (kept.length === 0) return { status: 'none' };
  const spans = [...new Set(kept.map((h) => `${h.start}:${h.end}`))];
  if (spans.length > 1) return { status: 'several', words: [...new Set(kept.map((h) => h.words))] };
  const members_: PartMember[] = [];
  for (const h of kept)
    if (!members_.some((m) => m.dimension === h.m.dimension && m.member === h.m.member))
      members_.push(h.m);
  return { status: 'one', words: kept[0]!.words, members: members_ };
}

/**
 * The dimensions that say which part a fact is about: the filing's "operating segments"
 * consolidation member and an axis with a single member in the filing (a company with one
 * reportable segment tags it on every figure) distinguish nothing and are set aside.
 */
export function distinguishingDimensions(
  dims: readonly FactDimension[],
  membersPerAxis: ReadonlyMap<string, number>,
): FactDimension[] {
  return dims.filter(
    (d) =>
      !(
        d.dimension === 'srt:ConsolidationItemsAxis' &&
        d.member === 'us-gaap:OperatingSegmentsMember'
      ) && (membersPerAxis.get(d.dimension) ?? 0) > 1,
  );
}

/** How many distinct members each axis has among the filing's numeric facts. */
export function membersPerAxis(facts: readonly StoredFact[]): Map<string, number> {
  const sets = new Map<string, Set<string>>();
  for (const f of facts)
    if (f.numeric)
      for (const d of f.dimensions) {
        const s = sets.get(d.dimension) ?? new Set<string>();
        s.add(d.member ?? `typed:${d.typedValue ?? ''}`);
        sets.set(d.dimension, s);
      }
  return new Map([...sets].map(([k, s]) => [k, s.size]));
}

/** Whether a printed label or heading names the part ("Greater China:", "iPhone", "Beauty"). */
export function namesPart(text: string, words: string): boolean {
  return occurrences(text, words).length > 0;
}
