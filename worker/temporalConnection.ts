// The worker's connection to the Temporal server. The SDK gzips every request and asks the server
// to gzip every answer; to a server on this machine that is CPU spent at both ends for nothing
// (about 2.5% of the dev server's CPU in a simulation sweep went to it). A server elsewhere keeps
// the SDK's default. pyworker/cellar_worker/main.py makes the same choice.
import net from 'node:net';
import { NativeConnection, type GrpcCompressionConfig } from '@temporalio/worker';

/** Whether `host:port` names this machine (localhost, 127.0.0.0/8 or ::1). */
export function isLoopbackAddress(address: string): boolean {
  const host = address.startsWith('[')
    ? address.slice(1, address.indexOf(']'))
    : address.slice(0, address.lastIndexOf(':'));
  return host === 'localhost' || host === '::1' || (net.isIPv4(host) && host.startsWith('127.'));
}

export function grpcCompressionFor(address: string): GrpcCompressionConfig {
  return { codec: isLoopbackAddress(address) ? 'none' : 'gzip' };
}

export function connectWorker(address: string): Promise<NativeConnection> {
  return NativeConnection.connect({ address, grpcCompression: grpcCompressionFor(address) });
}
