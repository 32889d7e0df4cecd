import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const TOPICS = ['harbour', 'orchard', 'glacier', 'library', 'railway', 'monastery', 'vineyard', 'observatory'];
const PEOPLE = ['Erik Holm', 'Ada Lind', 'Mara Okafor', 'Jonas Berg', 'Li Wei', 'Sofia Costa'];

/** Writes `n` small linked Markdown notes in a few folders (no shared data needed): `<topic>/<topic>-<i>.md`. */
export async function writeGeneratedNotes(root: string, n: number, lines = 8): Promise<string[]> {
  const paths: string[] = [];
  for (let i = 0; i < n; i++) {
    const t = TOPICS[i % TOPICS.length]!;
    const who = PEOPLE[i % PEOPLE.length]!;
    const body = Array.from({ length: lines }, (_, j) => `The ${t} visit number ${i} had detail ${j}: ${who} described section ${j} of the ${t} in ${1900 + ((i + j) % 120)}.`).join('\n');
    const rel = join(t, `${t}-${i}.md`);
    await mkdir(join(root, t), { recursive: true });
    await writeFile(join(root, rel), `# ${t} ${i}\n\n## Notes\n\n${body}\n\nSee [[${TOPICS[(i + 1) % TOPICS.length]} ${i + 1}]].\n`);
    paths.push(rel);
  }
  return paths;
}
