// Style sheets are bundled by esbuild (src/views/bundles.ts); importing one yields nothing.
declare module '*.css';
