// Piscina's task module: the default export runs in a worker thread, for each batch of notes or for the
// document layer's neighbour lists.
import { prepareNotes, type PrepareResult, type PrepareTask } from './prepare-note.js';
import { neighbourLists, type NeighbourTask } from './neighbour-task.js';
import type { Scored } from '../embed/vector-matrix.js';
import { workerData } from 'node:worker_threads';
import { seedCommonComponents, type CommonComponentSeed } from '../embed/static-embedder.js';

/** What the pool hands each worker when it starts. */
export interface IndexWorkerData {
  commonComponents: CommonComponentSeed[];
}

const data = workerData as IndexWorkerData | null | undefined;
if (data?.commonComponents) seedCommonComponents(data.commonComponents);

export default function task(t: PrepareTask | NeighbourTask): Promise<PrepareResult[]> | Promise<Map<number, Scored[]>> {
  return 'neighbours' in t ? neighbourLists(t) : prepareNotes(t);
}
