import { describe, expect, it } from 'vitest';
import { validatedEmit } from '../../main/contract/dispatcher.js';
import { modelService } from '../../main/host/models.js';
import { embedderOffer, type CatalogueModel } from '../../renderer/src/lib/model-use.js';
import { languagesLine } from '../../renderer/src/lib/languages.js';

// The first-run model step's embedding offer, over the real catalogue as models.list gives it to the UI.
const catalogue = (modelService(validatedEmit(() => undefined), () => ({ answers: [], search: [] }), () => '/nonexistent').list({}) as { catalogue: CatalogueModel[] }).catalogue;
const offer = (en: number, zh: number, und = 0) => embedderOffer(catalogue, { en, zh, und });

describe('the embedding model offered for a library', () => {
  it('is the catalogue’s recommendation for English notes, an empty library or one it cannot tell', () => {
    const recommended = catalogue.find((m) => m.role === 'embedding' && m.recommended)!;
    expect(recommended.languages).toEqual(['en']);
    for (const o of [offer(40, 0), offer(40, 3), offer(0, 0), offer(0, 0, 12), offer(10, 0, 30), embedderOffer(catalogue, {}), embedderOffer(catalogue, null)]) expect(o).toEqual({ model: recommended, reason: null });
  });

  it('reads Chinese for Chinese notes, and both languages for a mixed library, saying why', () => {
    const zh = offer(1, 30)!;
    expect(zh.model.languages).toContain('zh');
    expect(zh.model.id).toBe('bge-small-zh-v1.5');
    expect(zh.reason).toBe('Chosen for your notes (97% Chinese): all-MiniLM-L6-v2 (ONNX, quantised) reads English only.');
    const mixed = offer(10, 10)!;
    expect(mixed.model.id).toBe('multilingual-e5-small');
    expect(mixed.reason).toMatch(/^Chosen for your notes \(50% English, 50% Chinese\)/);
  });

  it('reads German notes, which share English’s letters but not its words, with a multilingual model', () => {
    const de = embedderOffer(catalogue, { de: 30, en: 8, und: 2 })!;
    expect(de.model.id).toBe('multilingual-e5-small');
    expect(de.reason).toBe('Chosen for your notes (75% German, 20% English): all-MiniLM-L6-v2 (ONNX, quantised) reads English only.');
    // A language under a fifth of the notes does not decide.
    expect(embedderOffer(catalogue, { en: 90, fr: 10 })!.model.id).toBe('all-minilm-l6-v2');
  });

  it('offers nothing when the catalogue has no embedding model', () => {
    expect(embedderOffer(catalogue.filter((m) => m.role !== 'embedding'), { en: 1 })).toBeNull();
  });
});

describe('the notes’ languages in words', () => {
  it('names each language, most notes first, and the undetermined ones', () => {
    expect(languagesLine({ zh: 1, en: 10, und: 2, de: 3 })).toBe('10 notes in English, 3 in German, 2 undetermined, 1 in Chinese');
    expect(languagesLine({ zh: 1 })).toBe('1 note in Chinese');
    expect(languagesLine({})).toBe('—');
  });
});
