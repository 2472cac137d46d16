/**
 * Page layout: pdf.js text items placed in their reading direction, grouped into lines by
 * baseline, and the lines joined into the page text (blank lines at paragraph and table
 * breaks, soft-hyphenated words glued back together).
 */
import { normalizeChars, renderLine, type Run } from './pdf-line-text';

/** The subset of pdf.js' TextItem that the layout reads. */
export interface RawTextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
}

interface Line {
  runs: Run[];
  /** Baseline and size of the largest run: superscripts must not move the line. */
  y: number;
  size: number;
}

/** Share of the smaller run's height that must overlap a line's band to join it outright. */
const LINE_OVERLAP = 0.5;
/** Overlap that still joins a run to the line it overlaps most (0.3 = baselines 0.7 em apart). */
const WEAK_LINE_OVERLAP = 0.3;
/** A vertical gap between baselines above this many line heights is a paragraph/table break. */
const BLANK_LINE_GAP = 2.1;

const SOFT_HYPHEN = '\u00AD';

export function layoutPage(
  items: readonly RawTextItem[],
  viewportTransform: readonly number[],
): string {
  // Runs are bucketed by reading direction, so that a page drawn rotated by
  // its content stream (common for landscape statement tables) is laid out
  // in its own frame, and a vertical margin label does not shred the body.
  const byDirection = new Map<number, Run[]>();
  for (const item of items) {
    if (typeof item.str !== 'string' || item.str.trim() === '') continue;
    const placed = placeRun(item, viewportTransform);
    if (!placed) continue;
    let bucket = byDirection.get(placed.direction);
    if (!bucket) byDirection.set(placed.direction, (bucket = []));
    bucket.push(placed.run);
  }

  const blocks = [...byDirection.values()]
    .map((runs) => ({ runs, weight: runs.reduce((n, r) => n + r.text.length, 0) }))
    .sort((a, b) => b.weight - a.weight)
    // Blank lines mark paragraph and table breaks of the page body; between
    // the scattered labels of a rotated chart axis they would only be noise.
    .map((block, i) => layoutRuns(block.runs, i === 0))
    .filter((t) => t !== '');
  return blocks.join('\n\n');
}

function placeRun(
  item: RawTextItem,
  vt: readonly number[],
): { direction: number; run: Run } | undefined {
  const t = item.transform;
  const [a0 = 0, b0 = 0, c0 = 0, d0 = 0, e0 = 0, f0 = 0] = t;
  const [va = 1, vb = 0, vc = 0, vd = 1, ve = 0, vf = 0] = vt;
  // Item matrix in display space (viewport applies /Rotate and flips y down).
  const a = va * a0 + vc * b0;
  const b = vb * a0 + vd * b0;
  const c = va * c0 + vc * d0;
  const d = vb * c0 + vd * d0;
  const e = va * e0 + vc * f0 + ve;
  const f = vb * e0 + vd * f0 + vf;

  const size = Math.hypot(c, d) || item.height || Math.hypot(a, b);
  if (!(size > 0) || !Number.isFinite(e) || !Number.isFinite(f)) return undefined;

  const quarterTurns = ((Math.round(Math.atan2(b, a) / (Math.PI / 2)) % 4) + 4) % 4;
  // Rotate the origin back so this direction's baselines run along +x.
  let x: number;
  let y: number;
  switch (quarterTurns) {
    case 0:
      x = e;
      y = f;
      break;
    case 1:
      x = f;
      y = -e;
      break;
    case 2:
      x = -e;
      y = -f;
      break;
    default:
      x = -f;
      y = e;
      break;
  }

  const raw = normalizeChars(item.str);
  const leading = raw.length - raw.trimStart().length;
  const trailing = raw.length - raw.trimEnd().length;
  const text = raw.trim();
  if (text === '') return undefined;
  const width = Math.max(0, item.width);
  // pdf.js reports the advance of the whole string; shift the box to the
  // visible glyphs so gaps are measured between ink, not between spaces.
  const perChar = raw.length > 0 ? width / raw.length : 0;
  return {
    direction: quarterTurns,
    run: {
      text,
      x: x + leading * perChar,
      y,
      width: Math.max(0, width - (leading + trailing) * perChar),
      size,
      spaceBefore: leading > 0,
      spaceAfter: trailing > 0,
    },
  };
}

function layoutRuns(runs: Run[], blankLines: boolean): string {
  runs.sort((p, q) => p.y - q.y || p.x - q.x);

  // Runs that only graze the current line (superscripts between two tightly
  // set header lines, checkboxes centred on two lines, labels set a little
  // above their row's figures) are placed once all lines exist, on the line
  // they overlap most.
  const deferred: Run[] = [];
  const lines = groupLines(runs, deferred);
  const orphans: Run[] = [];
  for (const run of deferred) {
    let best: Line | undefined;
    let bestOverlap = WEAK_LINE_OVERLAP;
    for (const line of lines) {
      const overlap = lineOverlap(line, run);
      if (overlap >= bestOverlap) {
        best = line;
        bestOverlap = overlap;
      }
    }
    if (best) best.runs.push(run);
    else orphans.push(run);
  }
  if (orphans.length > 0) {
    lines.push(...groupLines(orphans, undefined));
    lines.sort((p, q) => p.y - q.y);
  }

  const out: string[] = [];
  let previous: Line | undefined;
  for (const line of lines) {
    const text = renderLine(line.runs);
    if (text === '') continue;
    if (
      blankLines &&
      previous &&
      line.y - previous.y > BLANK_LINE_GAP * Math.max(line.size, previous.size)
    ) {
      out.push('');
    }
    out.push(text);
    previous = line;
  }
  return joinSoftHyphenated(out).join('\n');
}

/**
 * A soft hyphen only prints at a line break, where it splits a word: glue
 * the word back together on the first line. Anywhere else it is invisible.
 */
function joinSoftHyphenated(lines: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const original = lines[i] ?? '';
    let line = original;
    const next = lines[i + 1];
    if (line.endsWith(SOFT_HYPHEN) && next) {
      const word = /^\S+/.exec(next)?.[0];
      if (word) {
        line = line.slice(0, -1) + word;
        const rest = next.slice(word.length).trimStart();
        if (rest === '') i++;
        else lines[i + 1] = rest;
      }
    }
    line = line.replaceAll(SOFT_HYPHEN, '').trimEnd();
    const isBlankMarker = original === '';
    if (line === '' && !isBlankMarker) continue;
    if (line === '' && (out.length === 0 || out[out.length - 1] === '')) continue;
    out.push(line);
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out;
}

/** Greedy grouping of runs sorted by baseline; weak matches go to `deferred` when given. */
function groupLines(sorted: readonly Run[], deferred: Run[] | undefined): Line[] {
  const lines: Line[] = [];
  let current: Line | undefined;
  for (const run of sorted) {
    const overlap = current ? lineOverlap(current, run) : 0;
    if (current && overlap >= LINE_OVERLAP) {
      current.runs.push(run);
      // The largest run defines the line, so superscripts cannot drag it up.
      if (run.size > current.size) {
        current.size = run.size;
        current.y = run.y;
      }
    } else if (current && deferred && overlap >= WEAK_LINE_OVERLAP) {
      deferred.push(run);
    } else {
      current = { runs: [run], y: run.y, size: run.size };
      lines.push(current);
    }
  }
  return lines;
}

/** Vertical overlap of the glyph bands (baseline-ascent .. baseline+descent), in units of the smaller one. */
function lineOverlap(line: Line, run: Run): number {
  const top = Math.max(line.y - 0.8 * line.size, run.y - 0.8 * run.size);
  const bottom = Math.min(line.y + 0.2 * line.size, run.y + 0.2 * run.size);
  return (bottom - top) / Math.min(line.size, run.size);
}
