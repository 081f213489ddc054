var __rewriteRelativeImportExtension = (this && this.__rewriteRelativeImportExtension) || function (path, preserveJsx) {
    if (typeof path === "string" && /^\.\.?\//.test(path)) {
        return path.replace(/\.(tsx)$|((?:\.d)?)((?:\.[^./]+?)?)\.([cm]?)ts$/i, function (m, tsx, d, ext, cm) {
            return tsx ? preserveJsx ? ".jsx" : ".js" : d && (!ext || !cm) ? m : (d + ext + "." + cm.toLowerCase() + "js");
        });
    }
    return path;
};
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
    const loaded = (await import(__rewriteRelativeImportExtension(/* @vite-ignore */ moduleName)));
    cached = loaded.webcrypto;
    return cached;
}
