// Web Crypto, from the global where there is one (browsers, Node >= 19) and from node:crypto on
// Node 18, whose global `crypto` is behind a flag. The module name is not a literal so that
// bundlers for browsers leave the fallback alone. Typed here with the few calls the SDK makes,
// so the package's types need neither the DOM library nor Node's.
export interface WebCrypto {
  subtle: {
    importKey(
      format: 'raw',
      keyData: Uint8Array<ArrayBuffer>,
      algorithm: { name: 'HMAC'; hash: 'SHA-256' },
      extractable: false,
      usages: ['sign'],
    ): Promise<unknown>;
    sign(algorithm: 'HMAC', key: never, data: Uint8Array<ArrayBuffer>): Promise<ArrayBuffer>;
  };
  randomUUID(): string;
}

let cached: WebCrypto | undefined;

export async function webCrypto(): Promise<WebCrypto> {
  if (cached) return cached;
  const global = (globalThis as { crypto?: Partial<WebCrypto> }).crypto;
  if (global?.subtle && typeof global.randomUUID === 'function') {
    cached = global as WebCrypto;
    return cached;
  }
  const moduleName = 'node:crypto';
  const loaded = (await import(/* @vite-ignore */ moduleName)) as { webcrypto: WebCrypto };
  cached = loaded.webcrypto;
  return cached;
}
