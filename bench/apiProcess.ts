// The API as its own process (api/main.ts, as npm start runs it), for a browser's timings: with
// the API in the benchmark's process, Playwright's driver shares its event loop, and the API's
// work for the page's next requests would hold up the driver's view of the page.
import path from 'node:path';
import { ROOT } from '../stack/config.ts';
import { freePort, startProcess, waitForPort, type ManagedProcess } from '../stack/processes.ts';

/** Starts api/main.ts with `env` (DATABASE_URL, DATA_DIR, ...) on a free port; resolves once it listens. */
export async function startApiProcess(
  env: Record<string, string>,
  onLine: (line: string) => void = () => {},
): Promise<{ url: string; proc: ManagedProcess }> {
  const port = await freePort();
  const proc = startProcess(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', path.join(ROOT, 'api', 'main.ts')],
    { cwd: ROOT, env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port) }, onLine },
  );
  // It builds every request validator before it listens: a minute or more on a loaded host.
  await waitForPort(port, 'the API process', 600_000, proc.child);
  return { url: `http://127.0.0.1:${port}`, proc };
}
