import { normaliseEntity } from '../../text/entity-norm.js';
import type { ExtractedEntity, ExtractedTriple, ParsedChunk, ParsedNote } from '../../types.js';

const MAX_ENTITY_CHARS = 80;

/** Deduplicates per chunk, and makes sure every triple's subject and object is also an entity. */
export class ExtractionCollector {
  readonly entities: ExtractedEntity[] = [];
  readonly triples: ExtractedTriple[] = [];
  private readonly entityKeys = new Set<string>();
  private readonly tripleKeys = new Set<string>();
  private readonly chunkLines = new Map<number, string[]>();

  constructor(private readonly note: ParsedNote) {}

  chunk(ord: number): ParsedChunk {
    return this.note.chunks.find((c) => c.ord === ord) ?? this.firstChunk();
  }

  /** The chunk holding a line; a line in a heading (between chunks) belongs to the chunk after it. */
  chunkAtLine(line: number): ParsedChunk {
    return (
      this.note.chunks.find((c) => c.lineFrom <= line && line <= c.lineTo) ??
      this.note.chunks.find((c) => c.lineFrom > line) ??
      this.lastChunk()
    );
  }

  // A parsed note always has at least one chunk (parse.ts makes one for an empty body), so these hold.
  private firstChunk(): ParsedChunk {
    return this.note.chunks[0]!;
  }

  private lastChunk(): ParsedChunk {
    return this.note.chunks[this.note.chunks.length - 1]!;
  }

  /** The first line in [from, to] of the chunk whose text mentions `name` (case-insensitive), if any. */
  lineContaining(chunk: ParsedChunk, name: string, from: number, to: number): number | null {
    let lines = this.chunkLines.get(chunk.ord);
    if (!lines) {
      lines = chunk.text.toLowerCase().split('\n');
      this.chunkLines.set(chunk.ord, lines);
    }
    const needle = name.toLowerCase();
    for (let line = Math.max(from, chunk.lineFrom); line <= Math.min(to, chunk.lineTo); line++) {
      if (lines[line - chunk.lineFrom]?.includes(needle)) return line;
    }
    return null;
  }

  entity(name: string, type: string, chunkOrd: number, lineFrom: number, lineTo: number): string | null {
    const clean = name.replace(/\s+/g, ' ').trim();
    const norm = normaliseEntity(clean);
    if (!norm || clean.length > MAX_ENTITY_CHARS) return null;
    const key = `${chunkOrd}\u0000${norm}`;
    if (!this.entityKeys.has(key)) {
      this.entityKeys.add(key);
      this.entities.push({ name: clean, norm, type, chunkOrd, lineFrom, lineTo });
    }
    return norm;
  }

  triple(subject: string, relation: string, object: string, chunkOrd: number, lineFrom: number, lineTo: number): void {
    const s = this.entity(subject, 'phrase', chunkOrd, lineFrom, lineTo);
    const o = this.entity(object, 'phrase', chunkOrd, lineFrom, lineTo);
    if (!s || !o || s === o) return;
    const key = `${chunkOrd}\u0000${s}\u0000${relation}\u0000${o}`;
    if (this.tripleKeys.has(key)) return;
    this.tripleKeys.add(key);
    this.triples.push({ subject: subject.trim(), relation, object: object.trim(), chunkOrd, lineFrom, lineTo });
  }
}
