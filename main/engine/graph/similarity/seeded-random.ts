/**
 * Uniform numbers in [-1, 1) from a 32-bit xorshift seeded by the caller: the graph's random projections
 * (SimHash planes, the principal basis's start) are drawn the same way on every run, so a rebuild of the
 * same vectors finds the same candidates.
 */
export function seededUniform(seed: number): () => number {
  let s = seed;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) / 4294967296) * 2 - 1;
  };
}
