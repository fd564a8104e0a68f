import { pyInt } from '../../kernel/validation.js';
import type { MasterAddress } from '../../ports/master.js';

export type { MasterAddress, MasterPort, MasterRecord, TransferLimits } from '../../ports/master.js';

/**
 * A rendered `masters` entry (`host` or `host:port`) as the address the real service reaches:
 * split at the first colon, and the rest is the port only when it is an integer, so a bare IPv6
 * literal is a host on port 53 (reference §4.10).
 * @internal
 */
export function masterAddress(entry: string): MasterAddress {
  const colon = entry.indexOf(':');
  if (colon < 0) return { host: entry, port: 53 };
  const port = pyInt(entry.slice(colon + 1));
  // The API only stores entries whose integer port is 1–65535, rendered without `:53`.
  if (port.isErr() || port.value < 1 || port.value > 65535) return { host: entry, port: 53 };
  return { host: entry.slice(0, colon), port: port.value };
}
