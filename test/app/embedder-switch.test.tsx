import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { EventPayload } from '../../main/contract/contract.js';
import { EmbedderSwitchStatus } from '../../renderer/src/components/EmbedderSwitch.js';
import { AppContext, type AppContextValue } from '../../renderer/src/lib/app-context.js';

// What Settings says of a switch under way, from the switch's latest event (stats.switching when the view
// opens). Rendered to markup: the context's client is only subscribed to in an effect, which does not run here.
type Switch = EventPayload<'embedder.switch'>;
const render = (initial: Switch) =>
  renderToStaticMarkup(
    <AppContext.Provider value={{} as AppContextValue}>
      <EmbedderSwitchStatus initial={initial} onSettled={() => {}} />
    </AppContext.Provider>,
  ).replace(/<[^>]+>/g, ' ');
const progress = { phase: 'embed' as const, done: 120_000, total: 132_906, etaSeconds: 12_780 };

describe('EmbedderSwitchStatus', () => {
  it('says the previous embedder answers while what questions read is re-embedded, in texts and hours', () => {
    const text = render({ spec: 'transformers:/m/minilm', id: 'transformers:minilm@256', state: 'running', progress });
    expect(text).toContain('Re-embedding your notes for transformers:minilm@256 — Embed: 120,000 / 132,906 about 3 h 33 min left');
    expect(text).toContain('Questions use the previous embedder until then; notes you edit meanwhile are indexed as usual.');
  });

  it('says search uses the new embedder while the fact paths are embedded, and what waits for them', () => {
    const text = render({ spec: 'transformers:/m/minilm', id: 'transformers:minilm@256', state: 'running', progress, answering: true });
    expect(text).toContain('Search uses transformers:minilm@256.');
    expect(text).toContain("Embedding PG-RAG&#x27;s fact paths for it — Embed: 120,000 / 132,906");
    expect(text).toContain('Notes you edit meanwhile are searchable at once.');
    expect(text).not.toContain('previous embedder');
  });

  it('tells a failure before the swap (the previous embedder stays) from one after it (the next index run finishes)', () => {
    const before = render({ spec: 's', id: 'openai:e5', state: 'failed', progress: null, message: 'out of memory' });
    expect(before).toContain('The embedder was not changed to openai:e5: out of memory. Search goes on with the previous one.');
    const after = render({ spec: 's', id: 'openai:e5', state: 'failed', progress: null, answering: true, message: 'out of memory' });
    expect(after).toContain('Search uses openai:e5, but embedding PG-RAG&#x27;s fact paths for it stopped: out of memory.');
    expect(after).toContain('The next index run of a folder finishes them.');
  });
});
