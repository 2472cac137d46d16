import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The inbox's static script and stylesheet, read once from api/inbox/static and served from
 * this origin: the CSP allows scripts and styles from 'self' only, never inline.
 */
const DIR = join(__dirname, 'static');

export interface Asset {
  body: string;
  contentType: string;
}

export const INBOX_ASSETS: Readonly<Record<string, Asset>> = {
  'inbox.js': {
    body: readFileSync(join(DIR, 'inbox.js'), 'utf8'),
    contentType: 'text/javascript; charset=utf-8',
  },
  // A module (pdf.js is one): it imports pdf.js from /inbox/assets/pdfjs/ when a page has a
  // PDF page to draw, and does nothing elsewhere.
  'cited-page.js': {
    body: readFileSync(join(DIR, 'cited-page.js'), 'utf8'),
    contentType: 'text/javascript; charset=utf-8',
  },
  'inbox.css': {
    body: readFileSync(join(DIR, 'inbox.css'), 'utf8'),
    contentType: 'text/css; charset=utf-8',
  },
};
