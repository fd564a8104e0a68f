import { createDnsService } from '../src/index.js';
import { manualClock, sequentialIds, seededRandom } from '../src/testing/index.js';
const clock = manualClock('2026-01-01T00:00:00Z');
let c1 = process.cpuUsage();
const dns = createDnsService({ clock, ids: sequentialIds(), random: seededRandom(1), quotas: { zones: -1 } });
const member = (i: number) => ({ projectId: `project-${i}`, roles: ['member'] });
for (let n = 0; n < 20000; n++) { if (n % 16 === 0) clock.advance(1); await dns.zones.create(member(n % 100), { name: `zone-${n}.example.com.`, email: 'h@example.com' }); }
{ const u = process.cpuUsage(c1); console.log('create cpu µs', ((u.user + u.system) / 20000).toFixed(1)); }
const c0 = process.cpuUsage();
for (let i = 0; i < 4000; i++) await dns.zones.list(member(7), { limit: '20' });
const u = process.cpuUsage(c0); console.log('page cpu µs', ((u.user + u.system) / 4000).toFixed(1));
