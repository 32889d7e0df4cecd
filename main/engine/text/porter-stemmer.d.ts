// wink-eng-lite-web-model ships its English Porter stemmer as a CommonJS file with no types.
declare module 'wink-eng-lite-web-model/dist/porter-stemmer.js' {
  /** The stem of one lowercase English word. */
  export default function stem(word: string): string;
}
