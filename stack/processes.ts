// Small helpers for starting local servers: free ports, waiting for a port, stopping children.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { hostInUrl } from './config.ts';

/**
 * The range of ports the kernel hands out by itself: to outgoing connections, and to servers
 * that listen on port 0, as the Temporal dev server does for its internal services.
 */
export function ephemeralRange(): [number, number] {
  try {
    const [low, high] = fs
      .readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (low! > 0 && high! >= low!) return [low!, high!];
  } catch {
    // not Linux: the IANA range that macOS and Windows use
  }
  return [49152, 65535];
}

// A port picked from the ephemeral range can be taken by the kernel between the check and
// the child's bind (a CI run failed on it: "bind: address already in use"), so free ports are
// picked below it; above it when there is no room below; from the kernel as a last resort.
const PICK_FROM = 20_000;
const pickRange = (() => {
  const [low, high] = ephemeralRange();
  const range = low - PICK_FROM >= 1000 ? [PICK_FROM, low - 1] : [high + 1, 65535];
  return range[1]! - range[0]! >= 1000 ? { low: range[0]!, high: range[1]! } : undefined;
})();
const picked = new Set<number>();

/** Listens on `port` (0: any the kernel picks) and closes again; the port, or undefined if it was taken. */
function listenOnce(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', () => resolve(undefined));
    srv.listen(port, '127.0.0.1', () => {
      const { port: bound } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(bound));
    });
  });
}

/** A port nothing listens on, outside the ephemeral range, not handed out before by this process. */
export async function freePort(): Promise<number> {
  if (!pickRange) {
    const port = await listenOnce(0);
    if (port === undefined) throw new Error('found no free port');
    return port;
  }
  const { low, high } = pickRange;
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (picked.has(port) || (await listenOnce(port)) === undefined) continue;
    picked.add(port);
    return port;
  }
  throw new Error(`found no free port in ${low}-${high}`);
}

/** Whether a process with this pid exists. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function portInUse(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect({ port, host });
    sock.once('connect', () => {
      sock.destroy();
      resolve(true);
    });
    sock.once('error', () => resolve(false));
  });
}

/**
 * The address at which to reach a server that listens on `host`: a local one for the wildcard
 * addresses (which accept connections on every interface), else `host` itself.
 */
/** Waits until something accepts connections on `host`:`port` (as given: see reachableHost). */
export async function waitForPort(
  port: number,
  what: string,
  timeoutMs = 60_000,
  child?: ChildProcess,
  host = '127.0.0.1',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null)
      throw new Error(`${what} exited with code ${child.exitCode} before listening`);
    if (await portInUse(port, host)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not listen on ${hostInUrl(host)}:${port} within ${timeoutMs / 1000} s`);
}

export interface ManagedProcess {
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Spawns a child whose output lines go to `onLine`; stop() sends SIGTERM, then SIGKILL after a grace period. */
export function startProcess(
  command: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; onLine?: (line: string) => void; graceMs?: number } = {},
): ManagedProcess {
  const child = spawn(command, args, {
    env: opts.env ?? process.env,
    cwd: opts.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const forward = (stream: NodeJS.ReadableStream | null) => {
    let buf = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      buf += chunk;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line.trim()) opts.onLine?.(line);
      }
    });
  };
  forward(child.stdout);
  forward(child.stderr);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // 'close' comes once the child's output has been read to the end, which can be after 'exit'.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return {
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), opts.graceMs ?? 10_000);
      await exited;
      clearTimeout(timer);
      // Its last lines go out before whatever the caller does next (a process it started
      // that still holds the output open only gets a moment).
      await Promise.race([closed, new Promise((r) => setTimeout(r, 1000).unref())]);
    },
  };
}

export interface ProcessInfo {
  ppid: number;
  /** Program name (at most 15 characters). */
  comm: string;
  /** CPU time of the process and of the children it has reaped. */
  cpuSeconds: number;
}

/** Every process on this (Linux) machine, from /proc. */
export function processTable(): Map<number, ProcessInfo> {
  const tick = 100; // USER_HZ on Linux
  const table = new Map<number, ProcessInfo>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      // fields[1] is ppid; [11] utime, [12] stime, [13] cutime and [14] cstime (fields 4 and
      // 14-17 of proc(5)). The last two hold children that ended, such as PostgreSQL backends
      // whose connection closed; without them a program's total could go down.
      const cpu = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      table.set(Number(entry), {
        ppid: Number(fields[1]),
        comm: stat.slice(stat.indexOf('(') + 1, close),
        cpuSeconds: cpu / tick,
      });
    } catch {
      // The process ended while we read.
    }
  }
  return table;
}

/** Pids of every process below `pid`. */
export function descendants(pid: number, table = processTable()): number[] {
  const children = new Map<number, number[]>();
  for (const [child, { ppid }] of table) {
    const siblings = children.get(ppid);
    if (siblings) siblings.push(child);
    else children.set(ppid, [child]);
  }
  const below = (p: number): number[] => (children.get(p) ?? []).flatMap((child) => [child, ...below(child)]);
  return below(pid);
}
