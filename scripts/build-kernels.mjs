/**
 * Compile the WebAssembly kernels (src/variants/kernels/as/*.ts, AssemblyScript with SIMD) to
 * wasm/<name>.wasm, where src/variants/kernels/load.ts finds them (from src/ and from dist/).
 * Run by `npm run build` (and so by `npm ci`). The output depends only on the sources and the
 * pinned compiler: same sources, same bytes.
 */
import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import asc from 'assemblyscript/asc';

const root = fileURLToPath(new URL('../', import.meta.url));
const srcDir = path.join(root, 'src', 'variants', 'kernels', 'as');
const outDir = path.join(root, 'wasm');
mkdirSync(outDir, { recursive: true });

for (const file of readdirSync(srcDir)
  .filter((f) => f.endsWith('.ts'))
  .sort()) {
  const name = file.replace(/\.ts$/, '');
  const { error, stderr } = await asc.main([
    path.join(srcDir, file),
    '--outFile',
    path.join(outDir, `${name}.wasm`),
    '-O3',
    '--noAssert',
    '--enable',
    'simd',
    '--runtime',
    'stub',
    '--initialMemory',
    '1',
  ]);
  if (error) {
    process.stderr.write(stderr.toString());
    process.stderr.write(`build-kernels: ${file}: ${error.message}\n`);
    process.exit(1);
  }
}
