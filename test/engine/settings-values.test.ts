// Settings are validated by value, not only by key, from the one zod declaration in
// main/contract/shapes/settings.ts; the UI's form is described from the same declaration.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, type Db } from '../../main/engine/store/db.js';
import { getSetting, setSetting } from '../../main/engine/store/settings.js';
import { DEFAULT_SETTINGS, describeSettings, readSettings, writeSettings } from '../../main/engine/settings.js';
import { availableMethods } from '../../main/engine/retrieve/index.js';
import { calls } from '../../main/contract/contract.js';

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loci-settings-values-'));
  db = openDb(join(dir, 'index.db'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const storedRows = () => db.prepare('SELECT key, value FROM settings ORDER BY key').all();

describe('settings values', () => {
  const bad: [Record<string, unknown>, string, RegExp][] = [
    [{ threads: 0.5 }, 'threads', /whole number/],
    [{ threads: 0 }, 'threads', /at least 1/],
    [{ threads: '2' }, 'threads', /must be a number/],
    [{ sequences: 100 }, 'sequences', /at most 16/],
    [{ docNeighbours: 0 }, 'docNeighbours', /at least 1/],
    [{ docNeighbours: 51 }, 'docNeighbours', /at most 50/],
    [{ fusionTopic: 1.5 }, 'fusionTopic', /at most 1/],
    [{ fusionFact: 0 }, 'fusionFact', /above 0/],
    [{ maxBytes: -1 }, 'maxBytes', /at least 1024/],
    [{ maxBytes: 2 ** 40 }, 'maxBytes', /at most 1 GiB/],
    [{ embedder: 'bogus' }, 'embedder', /"glove", "glove:<file>", "transformers:<model folder>" or "openai:http:\/\/host:port\/v1#model"/],
    [{ embedder: 'openai:127.0.0.1:11434' }, 'embedder', /openai:http:\/\/host:port\/v1#model/],
    [{ embedder: 'transformers:' }, 'embedder', /transformers:<model folder>/],
    [{ method: 'magic' }, 'method', /must be one of bm25/],
    [{ model: 42 }, 'model', /must be a string/],
  ];
  for (const [patch, key, why] of bad) {
    it(`refuses ${JSON.stringify(patch)} naming '${key}'`, () => {
      expect(() => writeSettings(db, patch)).toThrow(new RegExp(`Setting '${key}' .*${why.source}`));
    });
  }

  it('refuses keys that are not settings, including prototype keys', () => {
    for (const key of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'colour']) {
      const patch = JSON.parse(`{"${key}": 1}`) as Record<string, unknown>;
      expect(Object.keys(patch)).toEqual([key]);
      expect(() => writeSettings(db, patch)).toThrow(new RegExp(`Unknown setting '${key}'`));
    }
    expect(storedRows()).toEqual([]);
  });

  it('stores nothing of an update with one bad value', () => {
    writeSettings(db, { threads: 3 });
    const before = storedRows();
    expect(() => writeSettings(db, { sequences: 4, docNeighbours: 5, threads: 0.5 })).toThrow(/'threads'/);
    expect(storedRows()).toEqual(before);
    expect(readSettings(db)).toMatchObject({ threads: 3, sequences: DEFAULT_SETTINGS.sequences, docNeighbours: DEFAULT_SETTINGS.docNeighbours });
  });

  it('accepts good values, trims specs, and resets to the default with null', () => {
    writeSettings(db, { embedder: '  transformers:/models/minilm ', threads: 4, fusionTopic: 0.5, method: 'bm25' });
    expect(getSetting(db, 'embedder', null)).toBe('transformers:/models/minilm');
    // An OpenAI-compatible embeddings server (Ollama, LM Studio, llama.cpp, vLLM), as the CLI takes it.
    writeSettings(db, { embedder: 'openai:http://127.0.0.1:11434/v1#nomic-embed-text' });
    expect(readSettings(db).embedder).toBe('openai:http://127.0.0.1:11434/v1#nomic-embed-text');
    writeSettings(db, { embedder: '  transformers:/models/minilm ' });
    expect(readSettings(db)).toMatchObject({ threads: 4, fusionTopic: 0.5, method: 'bm25' });
    writeSettings(db, { threads: null });
    expect(readSettings(db).threads).toBe(DEFAULT_SETTINGS.threads);
  });

  it('reads a stored value its setting no longer accepts as the default (an index is never bricked by a setting)', () => {
    setSetting(db, 'embedder', 'bogus');
    setSetting(db, 'threads', 0.5);
    setSetting(db, 'docNeighbours', 7);
    const s = readSettings(db);
    expect(s.embedder).toBe(DEFAULT_SETTINGS.embedder);
    expect(s.threads).toBe(DEFAULT_SETTINGS.threads);
    expect(s.docNeighbours).toBe(7);
  });
});

describe('settings.describe', () => {
  it('describes every setting from its declaration: label, group, control, bounds, default', () => {
    const described = describeSettings();
    expect(described.map((d) => d.key).sort()).toEqual(Object.keys(DEFAULT_SETTINGS).sort());
    expect(calls['settings.describe'].response.parse(described)).toEqual(described);
    for (const d of described) {
      expect(d.label.length).toBeGreaterThan(0);
      expect(d.description.length).toBeGreaterThan(10);
      expect(d.default).toEqual(DEFAULT_SETTINGS[d.key as keyof typeof DEFAULT_SETTINGS]);
      // The default passes its own setting's validation, and the bounds shown are the ones enforced.
      expect(() => writeSettings(db, { [d.key]: d.default })).not.toThrow();
      if (d.min !== undefined) expect(() => writeSettings(db, { [d.key]: d.min! - (d.integer ? 1 : 1e-9) })).toThrow(new RegExp(`'${d.key}'`));
      if (d.max !== undefined) expect(() => writeSettings(db, { [d.key]: d.max! + (d.integer ? 1 : 1e-9) })).toThrow(new RegExp(`'${d.key}'`));
      if (d.kind === 'number') expect(typeof d.default).toBe('number');
    }
    const byKey = new Map(described.map((d) => [d.key, d]));
    expect(byKey.get('method')).toMatchObject({ kind: 'select', options: availableMethods() });
    expect(byKey.get('threads')).toMatchObject({ kind: 'number', min: 1, integer: true });
    expect(byKey.get('fusionFact')).toMatchObject({ kind: 'number', max: 1 });
    expect(byKey.get('embedder')).toMatchObject({ kind: 'select', allowCustom: true });
    expect(new Set(described.map((d) => d.group)).size).toBeGreaterThan(2);
  });
});
