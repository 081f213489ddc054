export interface WebCrypto {
    subtle: {
        importKey(format: 'raw', keyData: Uint8Array<ArrayBuffer>, algorithm: {
            name: 'HMAC';
            hash: 'SHA-256';
        }, extractable: false, usages: ['sign']): Promise<unknown>;
        sign(algorithm: 'HMAC', key: never, data: Uint8Array<ArrayBuffer>): Promise<ArrayBuffer>;
    };
    randomUUID(): string;
}
export declare function webCrypto(): Promise<WebCrypto>;
