// The stopword package ships no types: the lists Cairn reads (ISO 639-3 names, lower-case words).
declare module 'stopword' {
  export const deu: readonly string[];
  export const spa: readonly string[];
  export const fra: readonly string[];
  export const ita: readonly string[];
  export const por: readonly string[];
  export const nld: readonly string[];
}
