/**
 * Reference check of the inline XBRL parser against Arelle (`arelle-release` from PyPI) on the
 * dev filings: for every fact element Arelle reads, the same concept (QName and namespace),
 * context (id, period, dimensions), unit, decimals and value — numeric facts in full, text
 * facts on concept and context (and value where a format transforms it). Every difference is
 * listed. Arelle runs offline: the filings reference remote taxonomies, so the comparison is
 * on what the instance itself says, not on the DTS.
 *
 *   npx tsx scripts/ixbrl-arelle-check.ts [dir-of-filings] [--json=out.json]
 *
 * Arelle is installed into a venv at CS_ARELLE_VENV (default .tools/arelle-venv) when missing.
 * Skips with a message when the dataset or Python is absent.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseInlineXbrl, DEFAULT_INLINE_XBRL_LIMITS } from '../activities/documents/inline-xbrl';
import { canonicalDecimal } from '../activities/documents/inline-xbrl-formats';
import { type InlineFact } from '../workflows/inline-fact';

const ROOT = path.resolve(__dirname, '..');
const args = process.argv.slice(2);
const DIR =
  args.find((a) => !a.startsWith('--')) ??
  process.env.CS_IXBRL_DEV_DIR ??
  path.resolve(ROOT, '../shared/datasets/sec-ixbrl-dev/pdfs');
const JSON_OUT = args.find((a) => a.startsWith('--json='))?.slice('--json='.length);
const VENV = process.env.CS_ARELLE_VENV ?? path.join(ROOT, '.tools', 'arelle-venv');
const PY = path.join(VENV, 'bin', 'python');
const DUMP = path.join(__dirname, 'ixbrl-arelle-dump.py');

interface ArelleFact {
  id: string | null;
  concept: string;
  conceptNs: string;
  numeric: boolean;
  contextId: string;
  period: { instant?: string; startDate?: string; endDate?: string; forever?: boolean } | null;
  dimensions: { dimension: string; member?: string; typedValue?: string }[] | null;
  unit: string | null;
  decimals: string | null;
  nil: boolean;
  value: string | null;
  error?: string;
}

function ensureArelle(): boolean {
  const ok = () => spawnSync(PY, ['-c', 'import arelle'], { stdio: 'ignore' }).status === 0;
  if (fs.existsSync(PY) && ok()) return true;
  const python = ['python3', 'python'].find(
    (p) => spawnSync(p, ['--version'], { stdio: 'ignore' }).status === 0,
  );
  if (!python) {
    console.log('SKIP: no python3 on PATH; the Arelle reference check needs it');
    return false;
  }
  console.log(`installing arelle-release into ${VENV} …`);
  execFileSync(python, ['-m', 'venv', VENV], { stdio: 'inherit' });
  execFileSync(PY, ['-m', 'pip', 'install', '-q', 'arelle-release'], { stdio: 'inherit' });
  return ok();
}

function periodOf(f: InlineFact): ArelleFact['period'] {
  const p = f.period;
  return p.type === 'instant'
    ? { instant: p.instant }
    : p.type === 'duration'
      ? { startDate: p.start, endDate: p.end }
      : { forever: true };
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const num = (v: string | null) => {
  if (v === null) return null;
  try {
    return canonicalDecimal(v.trim());
  } catch {
    return `not a decimal: ${v}`;
  }
};

interface FilingReport {
  filing: string;
  arelleFacts: number;
  arelleNumeric: number;
  oursNumeric: number;
  numericIdentical: number;
  numericDifferences: string[];
  /**
   * ixt-sec formats (numwordsen, duryear …) are the SEC's transformations; Arelle applies them
   * only with its EDGAR plugin, which arelle-release on PyPI does not ship: Arelle returns
   * `(ixTransformValueError)` for them. Every other aspect of these facts is still compared.
   */
  numericValueNotComparable: string[];
  textFacts: number;
  /** Text facts with an ixt-sec format: concept and context compared, the value not. */
  textValueNotComparable: number;
  textDifferences: string[];
  onlyOurs: string[];
  arelleSeconds: number;
}

function compare(file: string): FilingReport {
  const started = Date.now();
  const run = spawnSync(PY, [DUMP, file], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (run.status !== 0) throw new Error(`Arelle failed on ${file}: ${run.stderr.slice(-2000)}`);
  const arelleSeconds = (Date.now() - started) / 1000;
  const theirs = run.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ArelleFact);
  const parsed = parseInlineXbrl(fs.readFileSync(file, 'utf8'), {
    ...DEFAULT_INLINE_XBRL_LIMITS,
    keepDuplicates: true,
  });
  const ours = parsed.status === 'facts' ? parsed.facts : [];
  const refused = parsed.status === 'facts' ? parsed.refused : [];
  const byId = new Map(ours.map((f) => [f.id, f]));
  const report: FilingReport = {
    filing: path.basename(file),
    arelleFacts: theirs.length,
    arelleNumeric: theirs.filter((f) => f.numeric).length,
    oursNumeric: ours.filter((f) => f.numeric).length,
    numericIdentical: 0,
    numericDifferences: [],
    numericValueNotComparable: [],
    textFacts: theirs.filter((f) => !f.numeric).length,
    textValueNotComparable: 0,
    textDifferences: [],
    onlyOurs: [],
    arelleSeconds,
  };
  const seen = new Set<string>();
  for (const t of theirs) {
    const id = t.id ?? '(no id)';
    seen.add(id);
    const o = byId.get(id);
    const diffs: string[] = [];
    let notComparable = false;
    if (!o) {
      const why = refused.find((r) => r.id === t.id);
      diffs.push(why ? `refused by us: ${why.type} ${why.message}` : 'missing from ours');
    } else {
      if (o.concept !== t.concept || o.conceptNs !== t.conceptNs)
        diffs.push(`concept ${o.concept} {${o.conceptNs}} vs ${t.concept} {${t.conceptNs}}`);
      if (o.contextId !== t.contextId) diffs.push(`context ${o.contextId} vs ${t.contextId}`);
      if (!sameJson(periodOf(o), t.period))
        diffs.push(`period ${JSON.stringify(periodOf(o))} vs ${JSON.stringify(t.period)}`);
      if (!sameJson(o.dimensions, t.dimensions))
        diffs.push(`dimensions ${JSON.stringify(o.dimensions)} vs ${JSON.stringify(t.dimensions)}`);
      if (t.numeric) {
        if (o.unit !== t.unit) diffs.push(`unit ${o.unit} vs ${t.unit}`);
        if ((o.decimals ?? null) !== (t.decimals ?? null))
          diffs.push(`decimals ${o.decimals} vs ${t.decimals}`);
        const a = t.nil ? null : num(t.value);
        if (t.value === '(ixTransformValueError)' && /^ixt-sec:/.test(o.format ?? ''))
          notComparable = true;
        else if (o.value !== a)
          diffs.push(`value ${o.value} vs ${a}${t.error ? ` (${t.error})` : ''}`);
      } else if (t.value === '(ixTransformValueError)' && /^ixt-sec:/.test(o.format ?? '')) {
        report.textValueNotComparable++;
      } else if (o.format !== null && !t.nil && o.value !== t.value) {
        diffs.push(`value ${JSON.stringify(o.value)} vs ${JSON.stringify(t.value)} (${o.format})`);
      }
    }
    const line = `${id} ${t.concept}: ${diffs.join('; ')}`;
    if (t.numeric && notComparable && diffs.length === 0)
      report.numericValueNotComparable.push(
        `${id} ${t.concept}: ours ${o?.value} from ${JSON.stringify(o?.displayedText)} (${o?.format}); Arelle cannot apply it offline`,
      );
    else if (t.numeric) {
      if (diffs.length === 0) report.numericIdentical++;
      else report.numericDifferences.push(line);
    } else if (diffs.length > 0) report.textDifferences.push(line);
  }
  for (const o of ours) if (!seen.has(o.id)) report.onlyOurs.push(`${o.id} ${o.concept}`);
  return report;
}

function main() {
  if (!fs.existsSync(DIR)) {
    console.log(`SKIP: no filings at ${DIR} (set CS_IXBRL_DEV_DIR)`);
    return;
  }
  if (!ensureArelle()) return;
  const files = fs
    .readdirSync(DIR)
    .filter((f) => /\.html?$/i.test(f))
    .sort()
    .map((f) => path.join(DIR, f));
  const reports: FilingReport[] = [];
  for (const file of files) {
    const r = compare(file);
    reports.push(r);
    console.log(
      `${r.filing}: Arelle ${r.arelleFacts} facts (${r.arelleNumeric} numeric, ${r.arelleSeconds.toFixed(1)} s); numeric identical ${r.numericIdentical}/${r.arelleNumeric}, differences ${r.numericDifferences.length}, value not comparable (ixt-sec) ${r.numericValueNotComparable.length}; text facts with a difference ${r.textDifferences.length}/${r.textFacts} (value not comparable, ixt-sec: ${r.textValueNotComparable}); only in ours ${r.onlyOurs.length}`,
    );
    for (const d of [
      ...r.numericDifferences,
      ...r.numericValueNotComparable.map((x) => `not comparable: ${x}`),
      ...r.textDifferences,
      ...r.onlyOurs.map((x) => `only ours: ${x}`),
    ])
      console.log(`  ${d}`);
  }
  const total = (k: 'arelleNumeric' | 'numericIdentical') => reports.reduce((s, r) => s + r[k], 0);
  const count = (
    k: 'numericDifferences' | 'numericValueNotComparable' | 'textDifferences' | 'onlyOurs',
  ) => reports.reduce((s, r) => s + r[k].length, 0);
  console.log(
    `\nTOTAL ${reports.length} filings: numeric facts identical ${total('numericIdentical')}/${total('arelleNumeric')}, numeric differences ${count('numericDifferences')}, numeric values Arelle cannot transform offline (ixt-sec, other aspects identical) ${count('numericValueNotComparable')}, text-fact differences ${count('textDifferences')}, facts only in ours ${count('onlyOurs')}`,
  );
  if (JSON_OUT) fs.writeFileSync(JSON_OUT, `${JSON.stringify(reports, null, 2)}\n`);
}

main();
