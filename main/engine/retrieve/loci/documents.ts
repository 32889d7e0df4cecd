// The notes a question's rankings reach, each with its fused score, its rank in every ranking and how it
// was reached (what `--explain` shows).
export interface LociDocument {
  docId: number;
  title: string;
  score: number;
  ranks: { bm25?: number; dense?: number; title?: number; ppr?: number };
  titleInQuestion: boolean;
  /** The documents whose text mentions this one's title (when it was reached as a bridge). */
  bridgedFrom: { docId: number; title: string; mention: string }[];
}

export class LociDocuments {
  readonly byId = new Map<number, LociDocument>();
  constructor(private readonly titleOf: Map<number, string>) {}

  /** The document's entry, made on first reach. */
  entry(docId: number): LociDocument {
    let d = this.byId.get(docId);
    if (!d) {
      d = { docId, title: this.titleOf.get(docId) ?? '', score: 0, ranks: {}, titleInQuestion: false, bridgedFrom: [] };
      this.byId.set(docId, d);
    }
    return d;
  }

  all(): LociDocument[] {
    return [...this.byId.values()];
  }

  /** The top k by score, ties by id (so a run is repeatable). */
  ranked(k: number): LociDocument[] {
    return this.all().sort((a, b) => b.score - a.score || a.docId - b.docId).slice(0, k);
  }
}
