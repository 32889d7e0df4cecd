// How a wikilink is written — `[[target]]`, `[[target|alias]]`, `[[target#heading]]`, `![[embed]]` — declared
// once for the engine (which indexes links) and the renderer (which makes them clickable).
export const WIKILINK_SOURCE = String.raw`!?\[\[([^[\]\n|#^]*)([#^][^[\]\n|]*)?(?:\|([^[\]\n]*))?\]\]`;
