/** The dei (document and entity information) summary of a filing, from its facts. */
import type { DeiSummary, InlineFact } from '../../workflows/inline-fact';

const DEI_FIELDS: Record<string, keyof DeiSummary> = {
  EntityRegistrantName: 'registrantName',
  EntityCentralIndexKey: 'cik',
  DocumentType: 'documentType',
  DocumentFiscalYearFocus: 'fiscalYearFocus',
  DocumentFiscalPeriodFocus: 'fiscalPeriodFocus',
  DocumentPeriodEndDate: 'periodEndDate',
};

/** The filer and the period the filing covers, from its dei facts (company-wide contexts). */
export function deiOf(facts: InlineFact[]): DeiSummary {
  const dei: DeiSummary = {};
  for (const f of facts) {
    if (!/^http:\/\/xbrl\.sec\.gov\/dei\//.test(f.conceptNs) || f.dimensions.length > 0) continue;
    const field = DEI_FIELDS[f.concept.slice(f.concept.indexOf(':') + 1)];
    if (field && f.value !== null && dei[field] === undefined) dei[field] = f.value;
  }
  return dei;
}
