// `zoneward serve` from the source tree (no build): `npx tsx test/tempest/zoneward-serve.ts serve --port 9001`.
import { main } from '../../src/server/cli.js';

process.exitCode = await main(process.argv.slice(2));
