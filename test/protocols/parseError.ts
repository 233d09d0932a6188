// The ProtocolError a protocol is refused with (for the cases that check its message and path).
import { parseProtocol, ProtocolError } from '../../api/services/protocols/index.ts';

export function error(input: unknown, maxBackwardJumps?: number): ProtocolError {
  try {
    parseProtocol(input, maxBackwardJumps);
  } catch (err) {
    if (err instanceof ProtocolError) return err;
    throw err;
  }
  throw new Error('expected a ProtocolError');
}
