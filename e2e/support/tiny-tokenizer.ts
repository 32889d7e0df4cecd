// A BERT WordPiece tokenizer folder built from the words of the repo's sample notes, in the files a
// Hugging Face model folder carries (tokenizer.json, tokenizer_config.json, vocab.txt, config.json): a
// tokenizer transformers.js loads and runs for real, so the embedding-model journey needs no model hub
// and nothing beside the repo. Its vocabulary is small; what the spec checks is the app's flow around it.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SAMPLE_NOTES } from './notes.js';

const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];

export function writeTinyTokenizer(folder: string): { vocabSize: number } {
  const words = new Set<string>();
  const chars = new Set<string>();
  for (const f of (readdirSync(SAMPLE_NOTES, { recursive: true, encoding: 'utf8' }) as string[]).filter((f) => /\.(md|txt)$/.test(f)).sort()) {
    const text = readFileSync(path.join(SAMPLE_NOTES, f), 'utf8');
    for (const w of text.match(/[\p{L}\p{N}]+/gu) ?? []) words.add(w);
    for (const c of text) if (/\S/u.test(c)) chars.add(c);
  }
  // Every character (alone and as a continuation) so no word falls to [UNK]; then whole words.
  const vocab = [...SPECIAL, ...[...chars].sort(), ...[...chars].sort().map((c) => `##${c}`), ...[...words].sort()];
  const ids = Object.fromEntries([...new Set(vocab)].map((t, i) => [t, i]));
  const id = (t: string) => ids[t]!;
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'vocab.txt'), `${Object.keys(ids).join('\n')}\n`);
  writeFileSync(
    path.join(folder, 'tokenizer.json'),
    JSON.stringify({
      version: '1.0',
      truncation: null,
      padding: null,
      added_tokens: SPECIAL.map((content) => ({ id: id(content), content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
      normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: false },
      pre_tokenizer: { type: 'BertPreTokenizer' },
      post_processor: {
        type: 'TemplateProcessing',
        single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
        pair: [
          { SpecialToken: { id: '[CLS]', type_id: 0 } },
          { Sequence: { id: 'A', type_id: 0 } },
          { SpecialToken: { id: '[SEP]', type_id: 0 } },
          { Sequence: { id: 'B', type_id: 1 } },
          { SpecialToken: { id: '[SEP]', type_id: 1 } },
        ],
        special_tokens: Object.fromEntries(['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [id(t)], tokens: [t] }])),
      },
      decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
      model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: ids },
    }),
  );
  writeFileSync(
    path.join(folder, 'tokenizer_config.json'),
    JSON.stringify({ cls_token: '[CLS]', sep_token: '[SEP]', pad_token: '[PAD]', unk_token: '[UNK]', mask_token: '[MASK]', do_lower_case: false, model_max_length: 512, tokenizer_class: 'BertTokenizer' }),
  );
  writeFileSync(path.join(folder, 'special_tokens_map.json'), JSON.stringify({ cls_token: '[CLS]', sep_token: '[SEP]', pad_token: '[PAD]', unk_token: '[UNK]', mask_token: '[MASK]' }));
  const vocabSize = Object.keys(ids).length;
  writeFileSync(
    path.join(folder, 'config.json'),
    JSON.stringify({ architectures: ['BertModel'], model_type: 'bert', hidden_size: 24, num_attention_heads: 1, num_hidden_layers: 1, max_position_embeddings: 512, pad_token_id: 0, type_vocab_size: 2, vocab_size: vocabSize }),
  );
  return { vocabSize };
}
