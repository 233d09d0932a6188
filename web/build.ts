// Bundles the lab board (web/board) into web/dist with esbuild: one script and one stylesheet,
// served by the API, nothing from a CDN. Run by stack/provision.sh; the API builds it on start
// when it is missing (a clean clone started without provisioning, or an image).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const WEB = path.dirname(fileURLToPath(import.meta.url));
export const BOARD_DIST = path.join(WEB, 'dist');

export async function buildBoard(): Promise<void> {
  const out = `${BOARD_DIST}.tmp-${process.pid}`;
  await build({
    entryPoints: [path.join(WEB, 'board', 'main.ts'), path.join(WEB, 'board', 'board.css')],
    outdir: out,
    bundle: true,
    minify: true,
    sourcemap: false,
    format: 'esm',
    target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
    logLevel: 'warning',
  });
  // Swap in whole, so that a server never serves half a bundle.
  fs.rmSync(BOARD_DIST, { recursive: true, force: true });
  fs.renameSync(out, BOARD_DIST);
}

export function boardBuilt(): boolean {
  return fs.existsSync(path.join(BOARD_DIST, 'main.js')) && fs.existsSync(path.join(BOARD_DIST, 'board.css'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await buildBoard();
  console.log(`[provision] lab board bundled in ${path.relative(process.cwd(), BOARD_DIST)}`);
}
