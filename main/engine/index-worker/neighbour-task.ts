import { VectorMatrix, type Scored } from '../embed/vector-matrix.js';
import { exactNeighbours } from '../graph/similarity/exact-neighbours.js';

/** Every document's K exact nearest neighbours, computed in a worker while the engine's thread fuses mind maps. */
export interface NeighbourTask {
  neighbours: number;
  dim: number;
  ids: Int32Array;
  data: Float32Array;
}

export function neighbourLists(t: NeighbourTask): Promise<Map<number, Scored[]>> {
  return exactNeighbours(new VectorMatrix(t.dim, { ids: t.ids, data: t.data }), t.neighbours);
}
