let cached;
export async function webCrypto() {
    if (cached)
        return cached;
    const global = globalThis.crypto;
    if (global?.subtle && typeof global.randomUUID === 'function') {
        cached = global;
        return cached;
    }
    const moduleName = 'node:crypto';
    const loaded = (await import(/* @vite-ignore */ moduleName));
    cached = loaded.webcrypto;
    return cached;
}
