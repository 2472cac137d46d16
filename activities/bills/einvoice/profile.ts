import type { StructuredInvoice } from '../../../workflows/bills/structured-invoice';

/**
 * The profile family named by the specification identifier (BT-24). MINIMUM and BASIC WL
 * carry no invoice lines: they are booking aids under Factur-X / ZUGFeRD, so the EN 16931
 * rules about lines do not apply to them (see en16931-validation.ts).
 */
export function profileOf(specification: string | null): StructuredInvoice['profile'] {
  const s = (specification ?? '').toLowerCase();
  if (!s) return 'other';
  if (s.includes('xrechnung')) return 'xrechnung';
  if (s.includes('peppol')) return 'peppol';
  if (/factur-x\.eu:1p0:minimum|zugferd[^#]*:minimum/.test(s)) return 'minimum';
  if (/basicwl/.test(s)) return 'basic-wl';
  if (/:basic\b/.test(s)) return 'basic';
  if (/:extended\b/.test(s)) return 'extended';
  if (s.includes('urn:cen.eu:en16931:2017')) return 'en16931';
  return 'other';
}

/** Profiles without invoice lines (BG-25). */
export const PROFILES_WITHOUT_LINES = new Set<StructuredInvoice['profile']>([
  'minimum',
  'basic-wl',
]);
