// Which Temporal servers the worker talks to without gzip: those on this machine only.
import { describe, expect, it } from 'vitest';
import { grpcCompressionFor, isLoopbackAddress } from '../worker/temporalConnection.ts';

describe('gRPC compression by the Temporal server address', () => {
  it('is off for this machine', () => {
    for (const address of ['127.0.0.1:7233', '127.1.2.3:7233', 'localhost:7233', '[::1]:7233']) {
      expect(isLoopbackAddress(address), address).toBe(true);
      expect(grpcCompressionFor(address)).toEqual({ codec: 'none' });
    }
  });

  it('stays gzip for any other host', () => {
    for (const address of [
      'temporal:7233',
      '10.0.0.5:7233',
      'my.tmprl.cloud:7233',
      '[2001:db8::1]:7233',
      '127.0.0.1.example.com:7233',
      'localhost.example.com:443',
    ]) {
      expect(isLoopbackAddress(address), address).toBe(false);
      expect(grpcCompressionFor(address)).toEqual({ codec: 'gzip' });
    }
  });
});
