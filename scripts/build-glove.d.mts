// Types for scripts/build-glove.mjs (plain JS so it runs at postinstall without tsx); used by tests.
export const MAGIC: string;
export const FORMAT_VERSION: number;
export const HEADER_BYTES: number;
export const DEFAULT_WORDS: number;
export const DEFAULT_OUT: string;
export function convert(
  source: string,
  out: string,
  opts?: { maxWords?: number },
): { dim: number; count: number; sourceSize: number; bytes: number };
export function isUpToDate(out: string, maxWords?: number): boolean;
