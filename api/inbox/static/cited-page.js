// Cited PDF pages, drawn in the browser by pdf.js from the stored file (served from this
// origin; the CSP admits no other script and no eval). Each div.pdf-page names the file, the
// page, the cited span's text with a little context on each side, and the printed number.
// The span is found among the page's text items by its characters (whitespace, ligatures and
// dash forms aside, as the server's text extraction normalises them); where the same words
// occur more than once, the occurrence whose surroundings match the stored context wins.
// Only the span's characters are highlighted, and the number inside it is marked. A character
// is placed by its share of its item's width (pdf.js reports widths per item, not per glyph).
'use strict';

const figures = Array.from(document.querySelectorAll('div.pdf-page[data-file]'));
if (figures.length > 0) void drawAll();

function setState(fig, state, text) {
  fig.dataset.state = state;
  const status = fig.querySelector('.pdf-status');
  if (status) status.textContent = text;
}

async function drawAll() {
  const base = figures[0].dataset.pdfjs;
  let pdfjs;
  try {
    pdfjs = await import(base + '/build/pdf.min.mjs');
  } catch (err) {
    for (const fig of figures) setState(fig, 'error', 'pdf.js did not load: ' + message(err));
    return;
  }
  pdfjs.GlobalWorkerOptions.workerSrc = base + '/build/pdf.worker.min.mjs';
  const documents = new Map();
  for (const fig of figures) {
    try {
      await draw(pdfjs, base, documents, fig);
    } catch (err) {
      setState(fig, 'error', 'The page could not be drawn: ' + message(err));
    }
  }
}

function message(err) {
  return err && err.message ? err.message : String(err);
}

/** One loading task per file, shared by every citation of it on the page. */
function open(pdfjs, base, documents, url) {
  if (!documents.has(url))
    documents.set(
      url,
      pdfjs.getDocument({
        url: url,
        isEvalSupported: false,
        standardFontDataUrl: base + '/standard_fonts/',
        cMapUrl: base + '/cmaps/',
        cMapPacked: true,
        wasmUrl: base + '/wasm/',
      }).promise,
    );
  return documents.get(url);
}

async function draw(pdfjs, base, documents, fig) {
  const pdf = await open(pdfjs, base, documents, fig.dataset.file);
  const n = Number(fig.dataset.page);
  if (!(n >= 1 && n <= pdf.numPages)) {
    setState(fig, 'error', 'The PDF has no page ' + fig.dataset.page);
    return;
  }
  const page = await pdf.getPage(n);
  const unscaled = page.getViewport({ scale: 1 });
  const width = Math.min(fig.clientWidth || 800, 900);
  const viewport = page.getViewport({ scale: width / unscaled.width });
  const ratio = window.devicePixelRatio || 1;
  const sheet = fig.querySelector('.pdf-sheet');
  const canvas = fig.querySelector('canvas');
  const marks = fig.querySelector('.pdf-marks');
  canvas.width = Math.floor(viewport.width * ratio);
  canvas.height = Math.floor(viewport.height * ratio);
  sheet.style.width = viewport.width + 'px';
  sheet.style.height = viewport.height + 'px';
  await page.render({
    canvas: canvas,
    canvasContext: canvas.getContext('2d'),
    viewport: viewport,
    transform: ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : undefined,
  }).promise;

  const content = await page.getTextContent();
  const runs = readingOrder(pdfjs, viewport, content.items);
  const found = findSpan(
    runs,
    fig.dataset.span,
    fig.dataset.number,
    fig.dataset.before,
    fig.dataset.after,
  );
  marks.replaceChildren();
  if (!found) {
    setState(
      fig,
      'not-found',
      'Page ' +
        n +
        ' is drawn, but the cited words were not found on it: check the stored text below.',
    );
    return;
  }
  for (const box of boxes(found.span)) marks.append(mark('hl hl-span', box));
  for (const box of boxes(found.number)) marks.append(mark('hl hl-number', box));
  fig.dataset.matched = found.span.map((c) => c.ch).join('');
  setState(
    fig,
    'rendered',
    'Page ' +
      n +
      ' as printed: the cited span is highlighted' +
      (found.number.length ? ', the number ' + fig.dataset.number + ' outlined.' : '.'),
  );
}

/**
 * The page's text items placed on it (top-left origin, CSS pixels) and put in reading order:
 * lines top to bottom, items left to right in a line, as the server laid out the stored text.
 */
function readingOrder(pdfjs, viewport, items) {
  const runs = [];
  for (const item of items) {
    if (typeof item.str !== 'string' || item.str === '') continue;
    const t = pdfjs.Util.transform(viewport.transform, item.transform);
    const size = Math.hypot(t[2], t[3]);
    if (!(size > 0)) continue;
    runs.push({
      str: item.str,
      x: t[4],
      y: t[5],
      size: size,
      angle: Math.atan2(t[1], t[0]),
      width: item.width * viewport.scale,
    });
  }
  runs.sort((a, b) => a.y - b.y || a.x - b.x);
  const lines = [];
  for (const run of runs) {
    const line = lines[lines.length - 1];
    if (line && Math.abs(run.y - line.y) < 0.5 * Math.min(run.size, line.size)) line.runs.push(run);
    else lines.push({ y: run.y, size: run.size, runs: [run] });
  }
  return lines.flatMap((l) => l.runs.sort((a, b) => a.x - b.x));
}

const LIGATURES = {
  '\ufb00': 'ff',
  '\ufb01': 'fi',
  '\ufb02': 'fl',
  '\ufb03': 'ffi',
  '\ufb04': 'ffl',
  '\ufb05': 'st',
  '\ufb06': 'st',
};

/** One character as compared: none for whitespace and invisible ones, one dash for all dashes. */
function normal(ch) {
  if (/[\s\u00ad\u200b-\u200d\u2060\ufeff\u0000-\u001f\u007f\ufffd]/.test(ch)) return '';
  if (/[\u2012\u2013\u2212\ufe63\uff0d]/.test(ch)) return '-';
  return LIGATURES[ch] || ch;
}

function normalText(s) {
  return Array.from(s || '', normal).join('');
}

/** Each compared character of the page with the item and index it was printed from. */
function characters(runs) {
  const out = [];
  for (const run of runs) {
    const chars = Array.from(run.str);
    chars.forEach((ch, i) => {
      for (const c of normal(ch)) out.push({ ch: c, run: run, i: i, of: chars.length });
    });
  }
  return out;
}

function commonSuffix(a, b) {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

function commonPrefix(a, b) {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

function findSpan(runs, spanText, numberText, beforeText, afterText) {
  const chars = characters(runs);
  const page = chars.map((c) => c.ch).join('');
  const span = normalText(spanText);
  if (span === '') return null;
  const before = normalText(beforeText);
  const after = normalText(afterText);
  let best = -1;
  let bestScore = -1;
  for (let at = page.indexOf(span); at >= 0; at = page.indexOf(span, at + 1)) {
    const score =
      commonSuffix(page.slice(Math.max(0, at - before.length), at), before) +
      commonPrefix(page.slice(at + span.length, at + span.length + after.length), after);
    if (score > bestScore) {
      best = at;
      bestScore = score;
    }
  }
  if (best < 0) return null;
  const spanChars = chars.slice(best, best + span.length);
  const number = normalText(numberText);
  const k = number ? span.indexOf(number) : -1;
  return { span: spanChars, number: k >= 0 ? spanChars.slice(k, k + number.length) : [] };
}

/** One box per item a run of characters touches, over just those characters. */
function boxes(chars) {
  const byRun = new Map();
  for (const c of chars) {
    const b = byRun.get(c.run);
    if (b) {
      b.from = Math.min(b.from, c.i);
      b.to = Math.max(b.to, c.i + 1);
    } else byRun.set(c.run, { run: c.run, from: c.i, to: c.i + 1, of: c.of });
  }
  return Array.from(byRun.values());
}

function mark(className, b) {
  const r = b.run;
  const el = document.createElement('div');
  el.className = className;
  const ascent = 0.9 * r.size;
  el.style.left = r.x + (b.from / b.of) * r.width + 'px';
  el.style.top = r.y - ascent + 'px';
  el.style.width = Math.max(1, ((b.to - b.from) / b.of) * r.width) + 'px';
  el.style.height = 1.15 * r.size + 'px';
  el.style.transformOrigin = '0 ' + ascent + 'px';
  if (r.angle) el.style.transform = 'rotate(' + r.angle + 'rad)';
  return el;
}
