/** The part of SaxonJS (no published types) the EN 16931 validation uses. */
declare module 'saxon-js' {
  const SaxonJS: {
    transform(
      options: { stylesheetInternal: unknown; sourceText: string; destination: 'serialized' },
      mode: 'sync',
    ): { principalResult: string };
  };
  export default SaxonJS;
}
