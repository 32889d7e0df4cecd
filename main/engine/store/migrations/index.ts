import m0001 from './0001_initial.js';
import m0002 from './0002_indexes.js';
import m0003 from './0003_library_folders.js';
import m0004 from './0004_delete_paths.js';
import m0005 from './0005_stemmed_fts.js';
import m0006 from './0006_write_less.js';
import m0007 from './0007_chat_passages.js';
import m0008 from './0008_unjudged_languages.js';
import m0009 from './0009_kept_replies.js';
import m0010 from './0010_released_replies.js';
import m0011 from './0011_released_vectors.js';
import m0012 from './0012_derived_snapshots.js';
import m0013 from './0013_migration_names.js';

/** Append-only: never edit a shipped migration, add the next number under a new name (indexes record names). */
export const migrations: { version: number; name: string; sql: string }[] = [
  { version: 1, name: 'initial', sql: m0001 },
  { version: 2, name: 'indexes', sql: m0002 },
  { version: 3, name: 'library folders', sql: m0003 },
  { version: 4, name: 'delete paths', sql: m0004 },
  { version: 5, name: 'stemmed fts', sql: m0005 },
  { version: 6, name: 'write less', sql: m0006 },
  { version: 7, name: 'chat passages', sql: m0007 },
  { version: 8, name: 'unjudged languages', sql: m0008 },
  { version: 9, name: 'kept replies', sql: m0009 },
  { version: 10, name: 'released replies', sql: m0010 },
  { version: 11, name: 'released vectors', sql: m0011 },
  { version: 12, name: 'derived snapshots', sql: m0012 },
  { version: 13, name: 'migration names', sql: m0013 },
];
