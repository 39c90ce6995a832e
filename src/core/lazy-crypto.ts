// node:crypto, loaded on first use. Loading it costs a fresh process ~8 ms of the main thread
// (measured on this machine), and a cold `cairn search` draws nothing and hashes only its short
// query (in JavaScript: core/text.ts): the modules it loads only name these functions for the
// commands that write.
import { createRequire } from 'node:module';

type NodeCrypto = typeof import('node:crypto');

let loaded: NodeCrypto | undefined;

export function nodeCrypto(): NodeCrypto {
  return (loaded ??= createRequire(import.meta.url)('node:crypto') as NodeCrypto);
}

export const createHash: NodeCrypto['createHash'] = (...args) => nodeCrypto().createHash(...args);
export const createHmac: NodeCrypto['createHmac'] = (...args) => nodeCrypto().createHmac(...args);
export const randomBytes = (size: number): Buffer => nodeCrypto().randomBytes(size);
export const timingSafeEqual: NodeCrypto['timingSafeEqual'] = (a, b) => nodeCrypto().timingSafeEqual(a, b);
