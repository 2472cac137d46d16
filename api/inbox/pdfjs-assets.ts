import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * pdf.js for the browser, served from this origin under /inbox/assets/pdfjs/ (the inbox's CSP
 * admits scripts from 'self' only): the library and its worker from pdfjs-dist's modern build,
 * and the data it fetches by itself — the standard 14 fonts (a PDF that does not embed
 * Helvetica renders with them), the CMaps of CID fonts, and the wasm image decoders. Only
 * these four folders, and only plain file names in them, can be asked for.
 */
export const PDFJS_BASE = '/inbox/assets/pdfjs';

// The legacy entry is the one the package's exports name for require.resolve (pdf-runtime.ts
// resolves the same); the package root is two folders up from it.
const ROOT = join(dirname(require.resolve('pdfjs-dist/legacy/build/pdf.mjs')), '..', '..');

const FOLDERS: Readonly<Record<string, string>> = {
  build: 'build',
  standard_fonts: 'standard_fonts',
  cmaps: 'cmaps',
  wasm: 'wasm',
};

const TYPES: [RegExp, string][] = [
  [/\.m?js$/, 'text/javascript; charset=utf-8'],
  [/\.wasm$/, 'application/wasm'],
];

export interface PdfjsFile {
  body: Buffer;
  contentType: string;
}

const cache = new Map<string, PdfjsFile>();

/** A file of pdf.js by folder and name, or null when it is not one it serves. */
export function pdfjsFile(folder: string, name: string): PdfjsFile | null {
  const dir = FOLDERS[folder];
  if (!dir || !/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(name) || name.includes('..')) return null;
  if (dir === 'build' && !/^pdf(\.worker)?\.min\.mjs$/.test(name)) return null;
  const key = `${dir}/${name}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const path = join(ROOT, dir, name);
  if (!existsSync(path)) return null;
  const file = {
    body: readFileSync(path),
    contentType: TYPES.find(([re]) => re.test(name))?.[1] ?? 'application/octet-stream',
  };
  cache.set(key, file);
  return file;
}
