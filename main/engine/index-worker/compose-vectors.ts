import type { WordSums } from '../embed/static-embedder.js';
import { mindMapPathText } from '../store/documents.js';
import type { Extraction, MindMapNode, ParsedNote } from '../types.js';
import { chunkTexts, docText, EMBED_MAX_CHARS } from './owner-texts.js';

/**
 * A note's vectors from the built-in embedder, each text segmented once. The texts are those of
 * owner-texts.ts — the document (title and prose), each chunk (title and chunk), each FCI, each mind-map
 * path (ancestors' texts and the node's) — and they overlap: a chunk's words are in the document's, a
 * node's path starts with its parent's. Each distinct piece is cut into words once and the running sums
 * are carried over (a path's sum continues its parent's), adding the same words in the same order as
 * embedding the joined text would: the vectors are bit-for-bit those of `embed` (and of embedMissing).
 * A text cut at EMBED_MAX_CHARS is embedded from its cut text, as `embed` would see it.
 */
export function composeNoteVectors(
  sums: WordSums,
  dim: number,
  note: ParsedNote,
  extraction: Extraction,
): { doc: Float32Array; chunks: Float32Array[]; fcis: Float32Array[]; mm: Float32Array[] } {
  const cache = new Map<string, string[]>();
  const words = (text: string): string[] => {
    let w = cache.get(text);
    if (!w) cache.set(text, (w = sums.words(text)));
    return w;
  };
  const zero = () => new Float32Array(dim);
  const direct = (text: string) => {
    const acc = zero();
    sums.add(acc, words(text));
    return sums.finish(acc);
  };
  const titleSum = zero();
  sums.add(titleSum, words(note.title));

  const whole = docText(note);
  let doc: Float32Array;
  if (whole.length < EMBED_MAX_CHARS) {
    const acc = Float32Array.from(titleSum);
    for (const c of note.chunks) if (!c.isCode) sums.add(acc, words(c.text));
    doc = sums.finish(acc);
  } else {
    doc = direct(whole);
  }

  const texts = chunkTexts(note);
  const chunks = note.chunks.map((c, i) => {
    const text = texts[i]!;
    if (text.length >= EMBED_MAX_CHARS) return direct(text);
    const acc = Float32Array.from(titleSum);
    sums.add(acc, words(c.text));
    return sums.finish(acc);
  });

  const fcis = extraction.fcis.map((f) => direct(f.text.slice(0, EMBED_MAX_CHARS)));

  const mm: Float32Array[] = [];
  // Depth-first, node before children: the order the nodes are written in (mindMapTexts' order).
  const walk = (node: MindMapNode, parentPath: string, parentSum: Float32Array | null) => {
    const path = mindMapPathText(parentPath, node.text);
    let sum: Float32Array | null = null;
    if (path.length < EMBED_MAX_CHARS && (parentSum || !parentPath)) {
      sum = parentSum ? Float32Array.from(parentSum) : zero();
      sums.add(sum, words(node.text));
      mm.push(sums.finish(sum));
    } else {
      mm.push(direct(path.slice(0, EMBED_MAX_CHARS)));
    }
    for (const child of node.children) walk(child, path, sum);
  };
  walk(extraction.mindMap, '', null);
  return { doc, chunks, fcis, mm };
}
