import type { StoredFact } from '../../../db/repositories/filing-facts';
import { EQUITY_WITH_NCI, extensionMatches, STANDARD_CONCEPTS } from './concept-map';
import type { FiscalCalendar, PeriodInfo } from './fiscal-calendar';
import { distinguishingDimensions, membersPerAxis, type PartMember } from './segment-member';

/**
 * A filing's company-total numeric facts, indexed for the fact path: which facts report a
 * line item (its standard concepts in order, else an extension concept named like it), and
 * which periods the line item has. Duplicates were folded at ingestion into the most precise
 * fact, so one concept and period is one fact.
 *
 * With `part`, the index holds one part of the company instead of its total: the facts that
 * carry one of those members and no other dimension that distinguishes anything
 * (segment-member.ts).
 */
export class FactIndex {
  private readonly byConcept = new Map<string, StoredFact[]>();

  constructor(
    facts: readonly StoredFact[],
    readonly calendar: FiscalCalendar,
    part?: readonly PartMember[],
  ) {
    const perAxis = part ? membersPerAxis(facts) : new Map<string, number>();
    const isPart = (f: StoredFact) => {
      const own = f.dimensions.filter((d) =>
        part!.some((m) => m.dimension === d.dimension && m.member === d.member),
      );
      const others = f.dimensions.filter((d) => !own.includes(d));
      return own.length === 1 && distinguishingDimensions(others, perAxis).length === 0;
    };
    for (const f of facts) {
      if (!f.numeric || f.value === null || f.period.end === null) continue;
      if (part ? !isPart(f) : f.dimensions.length > 0) continue;
      const list = this.byConcept.get(f.concept) ?? [];
      list.push(f);
      this.byConcept.set(f.concept, list);
    }
  }

  /** Concepts that report the metric in this filing, most specific first. */
  conceptsFor(metricId: string, opts: { withNoncontrolling?: boolean } = {}): string[] {
    const has = (c: string) => this.byConcept.has(c);
    if (metricId === 'total_equity') {
      // Equity of the parent and equity with noncontrolling interests are two lines.
      const parent = (STANDARD_CONCEPTS.total_equity ?? []).filter(has);
      const withNci = EQUITY_WITH_NCI.filter(has);
      const chosen = opts.withNoncontrolling ? withNci : parent.length > 0 ? parent : withNci;
      if (chosen.length > 0) return chosen;
    }
    const present = (STANDARD_CONCEPTS[metricId] ?? []).filter(has);
    if (present.length > 0) return present;
    return [...this.byConcept.keys()].filter((c) => extensionMatches(metricId, c)).sort();
  }

  /** The periods the metric has facts for, classified by the fiscal calendar. */
  periodsFor(metricId: string, opts: { withNoncontrolling?: boolean } = {}): PeriodInfo[] {
    const seen = new Map<string, PeriodInfo>();
    for (const c of this.conceptsFor(metricId, opts))
      for (const f of this.byConcept.get(c) ?? []) {
        const k = `${f.period.start ?? ''}..${f.period.end}`;
        if (!seen.has(k))
          seen.set(
            k,
            this.calendar.classify({
              start: f.period.type === 'instant' ? null : f.period.start,
              end: f.period.end!,
            }),
          );
      }
    return [...seen.values()];
  }

  /**
   * The facts reporting the metric for exactly that period, one per concept that has one
   * (one per concept and member for a part named by two members), in the concepts' order
   * (two standard concepts often carry the same total: Revenues and
   * RevenueFromContractWithCustomer…).
   */
  factsFor(
    metricId: string,
    p: PeriodInfo,
    opts: { withNoncontrolling?: boolean } = {},
  ): StoredFact[] {
    const out: StoredFact[] = [];
    for (const c of this.conceptsFor(metricId, opts)) {
      const hits = (this.byConcept.get(c) ?? []).filter(
        (f) =>
          f.period.end === p.end &&
          (p.instant
            ? f.period.type === 'instant'
            : f.period.type === 'duration' && f.period.start === p.start),
      );
      out.push(...hits);
    }
    return out;
  }
}
