// brotli.mjs DIR: writes NAME.br (Brotli: quality 11 for the wasm binaries,
// 9 for the rest) beside each large text or wasm file of the site, and NAME.br.sum with the SHA-256 of NAME, so
// that locus-serve sends the .br only while it matches the file. Brotli
// makes the two wasm binaries about a sixth smaller than gzip does.
// Quality 11 takes most of a minute for engine.wasm but makes the binaries
// about 13% smaller than 9 does, which keeps a first visit under 3 MB with
// the code generator in the engine (web/test/app-load.test.mjs).
// Files whose .br is newer than themselves are skipped.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, extname, basename } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

const compressible = new Set(['.wasm', '.js', '.css', '.json', '.m', '.html']);

function walk(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const name = join(dir, e.name);
    if (e.isDirectory()) { walk(name); continue; }
    if (!compressible.has(extname(name)) || basename(name) === 'sw.js') continue;
    const st = statSync(name);
    if (st.size < 1024) continue;
    let fresh = false;
    try { fresh = statSync(name + '.br').mtimeMs >= st.mtimeMs && statSync(name + '.br.sum').mtimeMs >= st.mtimeMs; } catch { /* not there yet */ }
    if (fresh) continue;
    const data = readFileSync(name);
    const br = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: extname(name) === '.wasm' ? 11 : 9, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } });
    writeFileSync(name + '.br', br);
    writeFileSync(name + '.br.sum', createHash('sha256').update(data).digest('hex') + '\n');
  }
}

walk(process.argv[2] || 'public');
