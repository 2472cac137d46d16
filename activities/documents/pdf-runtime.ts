/**
 * Loading pdf.js (ESM-only) into this CommonJS project, once per process, and opening a PDF
 * with it.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import type * as PdfJs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { toOpenError } from './pdf-errors';

type PdfJsModule = typeof PdfJs;
export type PdfDocument = PdfJs.PDFDocumentProxy;

interface Runtime {
  pdfjs: PdfJsModule;
  /** Uint8Array of the realm pdf.js runs in; its `instanceof` checks reject foreign ones. */
  Bytes: Uint8ArrayConstructor;
  cMapUrl: string;
  standardFontDataUrl: string;
}

let runtimePromise: Promise<Runtime> | undefined;

function loadRuntime(): Promise<Runtime> {
  runtimePromise ??= importRuntime().catch((err: unknown) => {
    // A failed import (e.g. a missing package during a deploy) must not poison
    // every later call in this long-lived worker process.
    runtimePromise = undefined;
    throw err;
  });
  return runtimePromise;
}

/**
 * pdf.js ships only as ESM while this project compiles to CommonJS, where
 * TypeScript would turn `import()` into `require()`; a Function body keeps a
 * real `import()`. Jest evaluates modules in a vm sandbox that rejects such an
 * import (without --experimental-vm-modules), so there the import is compiled
 * in Node's main context with its default ESM loader instead. That path is
 * only a fallback because Node 20 flags it as experimental with a warning.
 */
async function importEsm(url: string): Promise<unknown> {
  const viaFunction = new Function('url', 'return import(url)') as (
    url: string,
  ) => Promise<unknown>;
  try {
    return await viaFunction(url);
  } catch (err) {
    const code =
      typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
    const mainContextLoader = vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER;
    if (
      typeof code !== 'string' ||
      !code.startsWith('ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING') ||
      !mainContextLoader
    ) {
      throw err;
    }
    const viaMainContext = vm.runInThisContext('(url) => import(url)', {
      importModuleDynamically: mainContextLoader,
    }) as (url: string) => Promise<unknown>;
    return viaMainContext(url);
  }
}

async function importRuntime(): Promise<Runtime> {
  const entry = require.resolve('pdfjs-dist/legacy/build/pdf.mjs');
  const pdfjs = (await importEsm(pathToFileURL(entry).href)) as PdfJsModule;
  // Node has no web Worker, so pdf.js parses on this thread through its
  // "fake worker". Loading the worker module up front registers its message
  // handler on globalThis, so pdf.js never has to resolve a worker URL at
  // run time (which breaks once this file is bundled or moved).
  const workerUrl = pathToFileURL(path.join(path.dirname(entry), 'pdf.worker.mjs')).href;
  await importEsm(workerUrl);
  pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;

  const packageRoot = path.resolve(path.dirname(entry), '..', '..');
  return {
    pdfjs,
    Bytes: vm.runInThisContext('Uint8Array') as Uint8ArrayConstructor,
    // Without CMaps, text in CID fonts that rely on predefined CMaps decodes to nothing.
    cMapUrl: path.join(packageRoot, 'cmaps') + path.sep,
    standardFontDataUrl: path.join(packageRoot, 'standard_fonts') + path.sep,
  };
}

/** Opens a PDF with pdf.js, or throws the typed PdfTextError of why it does not open. */
export async function openPdf(bytes: Uint8Array): Promise<PdfDocument> {
  const runtime = await loadRuntime();
  // pdf.js keeps (and may transfer) the buffer it is given and rejects Node
  // Buffers; a private copy in its own realm avoids all of that.
  const data = new runtime.Bytes(bytes.byteLength);
  data.set(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const loadingTask = runtime.pdfjs.getDocument({
    data,
    // An empty user password is tried by pdf.js itself; a missing onPassword
    // handler turns "a real password is needed" into a rejected promise.
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    verbosity: 0,
    cMapUrl: runtime.cMapUrl,
    cMapPacked: true,
    standardFontDataUrl: runtime.standardFontDataUrl,
  });
  try {
    return await loadingTask.promise;
  } catch (err) {
    await loadingTask.destroy().catch(() => undefined);
    throw toOpenError(err);
  }
}
