/** What `cairn import` reads; the CLI lists them without loading the readers. */
export const IMPORT_FORMATS = ['cairn', 'mem0', 'openclaw'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];
