import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LociEngine } from '../../main/engine/engine.js';
import { startBrowserMode } from '../../main/server/browser-mode.js';
import { MAX_TREE_DEPTH } from '../../main/engine/store/tree-depth.js';
import type { MindMapView } from '../../main/engine/api.js';
import { FIXTURE_NOTES } from '../fixtures/paths.js';

// A mind map deeper than a page can render (as a model pass or a deeply nested note could make one):
// 5,000 levels written into a real index's mind-map rows under a real note. The engine's answer, over
// real HTTP, is cut to MAX_TREE_DEPTH with every node kept, in document order.
const tmp = mkdtempSync(path.join(os.tmpdir(), 'loci-deep-mm-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function measure(root: MindMapView): { depth: number; texts: string[] } {
  let depth = 0;
  const texts: string[] = [];
  const stack: [MindMapView, number][] = [[root, 0]];
  while (stack.length) {
    const [n, d] = stack.pop()!;
    depth = Math.max(depth, d);
    texts.push(n.text);
    for (let i = n.children.length - 1; i >= 0; i--) stack.push([n.children[i]!, d + 1]);
  }
  return { depth, texts };
}

describe('mind map depth', () => {
  it('a 5,000-level mind map is answered cut to a renderable depth, nothing dropped', async () => {
    const notes = path.join(tmp, 'notes');
    cpSync(FIXTURE_NOTES, notes, { recursive: true });
    const engine = await LociEngine.open({ dbPath: path.join(tmp, 'index.db') });
    const mode = await startBrowserMode({ engine, staticDir: tmp, log: () => {} });
    try {
      await engine.library.index(notes);
      const doc = engine.views.documents().find((d) => d.relPath === 'nested-headings.md')!;
      const root = engine.db.prepare('SELECT id, extractor FROM mm_nodes WHERE document_id = ? AND parent_id IS NULL').get(doc.id) as { id: number; extractor: string };
      const before = measure(engine.views.mindMap(doc.relPath)!).texts.length;
      const insert = engine.db.prepare(
        "INSERT INTO mm_nodes (document_id, parent_id, kind, text, path_text, depth, ord, line_from, line_to, extractor) VALUES (?, ?, 'route', ?, ?, ?, 0, 1, 1, ?)",
      );
      engine.db.transaction(() => {
        let parent = root.id;
        for (let i = 1; i <= 5000; i++) parent = Number(insert.run(doc.id, parent, `level ${i}`, `level ${i}`, 100 + i, root.extractor).lastInsertRowid);
      })();

      const r = await fetch(`${mode.server.url}/api/call/notes.mindMap`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-loci-token': mode.server.token },
        body: JSON.stringify({ docPath: doc.relPath }),
      });
      expect(r.status).toBe(200);
      const { result } = (await r.json()) as { result: MindMapView };
      const { depth, texts } = measure(result);
      expect(depth).toBeLessThanOrEqual(MAX_TREE_DEPTH);
      expect(texts.length).toBe(before + 5000);
      const levels = texts.filter((t) => t.startsWith('level ')).map((t) => Number(t.slice(6)));
      expect(levels).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
    } finally {
      await mode.close();
    }
  }, 60_000);
});
