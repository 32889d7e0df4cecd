import type { Command } from 'commander';
import { dbOption, jsonOption, print, withEngine } from '../options.js';
import type { MindMapView } from '../../engine/api.js';
import { termField } from '../terminal.js';

export function registerMindmap(program: Command): void {
  program
    .command('mindmap')
    .description("print a note's mind map (topic › routes › facts) with source lines")
    .argument('<note>', 'the note path relative to its folder, e.g. Guide/Setup.md')
    .addOption(dbOption())
    .addOption(jsonOption())
    .action(async (note: string, opts: { db: string; json?: boolean }) => {
      await withEngine({ ...opts, existing: true }, async (engine) => {
        const map = engine.views.mindMap(note);
        if (!map) throw new Error(`No mind map for '${termField(note)}': is it indexed? (loci stats lists the index)`);
        print(!!opts.json, map, () => formatTree(map));
      });
    });
}

function formatTree(node: MindMapView, depth = 0): string {
  const lines = node.lineFrom ? ` (lines ${node.lineFrom}-${node.lineTo})` : '';
  const related = node.related.length ? `  ↔ ${node.related.map((r) => `${termField(r.docPath)}: ${termField(r.text)}`).join('; ')}` : '';
  return [`${'  '.repeat(depth)}${depth === 0 ? '' : '- '}${termField(node.text)}${lines}${related}`, ...node.children.map((c) => formatTree(c, depth + 1))].join('\n');
}
