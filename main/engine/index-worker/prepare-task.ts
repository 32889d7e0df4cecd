// Piscina's task module: the default export runs in a worker thread for each batch of notes.
import { prepareNotes } from './prepare-note.js';

export default prepareNotes;
