// The load generator of `npm run bench -- --uploads`, run pinned to the generator core: sends
// one file to a tus upload URL with tus-js-client (the client browsers and the SDK use), in
// 64 MiB PATCHes, and prints the seconds it took as JSON.
//   node bench/upload-client.ts UPLOAD_URL FILE
import fs from 'node:fs';
import * as tus from 'tus-js-client';

const [uploadUrl, file] = process.argv.slice(2);
if (!uploadUrl || !file) throw new Error('usage: node bench/upload-client.ts UPLOAD_URL FILE');
const size = fs.statSync(file).size;
const started = performance.now();
await new Promise<void>((resolve, reject) => {
  new tus.Upload(fs.createReadStream(file), {
    uploadUrl,
    uploadSize: size,
    chunkSize: 64 * 1024 * 1024,
    retryDelays: [],
    onSuccess: () => {
      resolve();
    },
    onError: reject,
  }).start();
});
process.stdout.write(`${JSON.stringify({ bytes: size, seconds: (performance.now() - started) / 1000 })}\n`);
