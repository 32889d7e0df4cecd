// Stands in for the user's editor in the journeys (LOCI_OPEN_COMMAND): writes down what it was asked to
// open, so a test can check that "Open in editor" really ran the command on the note's file.
import { writeFileSync } from 'node:fs';

writeFileSync(process.env.LOCI_E2E_OPENED ?? 'opened.json', JSON.stringify(process.argv.slice(2)));
