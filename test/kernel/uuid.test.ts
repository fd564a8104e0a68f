/** The default id source: version-4 UUIDs as RFC 9562 writes them, from the bytes it is given. */
import { fc, test as fcTest } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { createDnsService } from '../../src/dns/service.js';
import { isUuidLike, pooledFill, uniformSource, uuidV4Source } from '../../src/kernel/uuid.js';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** RFC 9562's text of 16 bytes with the version and variant set, written the obvious way. */
function reference(bytes: Uint8Array): string {
  const b = Uint8Array.from(bytes);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Buffer.from(b).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A byte source that hands out `stream` in order (zeros after it), counting its calls. */
function replay(stream: Uint8Array): { fill: (into: Uint8Array) => void; calls: () => number } {
  let at = 0;
  let calls = 0;
  return {
    fill(into) {
      calls++;
      into.fill(0);
      into.set(stream.subarray(at, at + into.length));
      at += into.length;
    },
    calls: () => calls,
  };
}

describe('uuidV4Source', () => {
  fcTest.prop([fc.uint8Array({ minLength: 16 * 600, maxLength: 16 * 600 })], { numRuns: 20 })(
    'writes each 16 bytes of its source as RFC 9562 does, across refills of its pool',
    (stream) => {
      const source = replay(stream);
      const ids = uuidV4Source(source.fill);
      for (let i = 0; i < 600; i++) expect(ids()).toBe(reference(stream.subarray(16 * i, 16 * i + 16)));
      // 600 ids: pools of 4, 8, 16, ... 256 ids (508 in seven draws), then one of 256: eight.
      expect(source.calls()).toBe(8);
    },
  );

  it('sets the version and variant whatever the bytes', () => {
    for (const byte of [0x00, 0xff, 0x5a]) {
      const id = uuidV4Source((b) => b.fill(byte))();
      expect(id).toMatch(V4);
      expect(isUuidLike(id)).toBe(true);
    }
  });

  it('createDnsService gives random v4 ids by default, never repeated', async () => {
    const dns = createDnsService();
    const ctx = { projectId: 'p', roles: ['member'] };
    const seen = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const zone = (await dns.zones.create(ctx, { name: `z${i}.example.`, email: 'a@example.com' }))._unsafeUnwrap();
      expect(zone.id).toMatch(V4);
      seen.add(zone.id);
    }
    expect(seen.size).toBe(5);
  });
});

describe('pooledFill', () => {
  fcTest.prop([fc.array(fc.integer({ min: 0, max: 40_000 }), { minLength: 1, maxLength: 12 })], { numRuns: 30 })(
    'serves its source\'s bytes in order, each once, whatever the sizes asked (pool refills and targets over the pool too)',
    (sizes) => {
      // The source counts: byte k of its stream is k mod 251, so order and reuse both show.
      let next = 0;
      const fill = pooledFill((into) => {
        for (let i = 0; i < into.length; i++) into[i] = next++ % 251;
      });
      const served: number[] = [];
      const large: boolean[] = [];
      for (const n of sizes) {
        const target = new Uint8Array(n);
        fill(target);
        served.push(...target);
        large.push(n > 16384);
      }
      // Bytes come in the source's order with none served twice: strictly increasing draw numbers,
      // known from the count only when no large target went straight to the source in between.
      if (!large.includes(true)) expect(served).toEqual(served.map((_, k) => k % 251));
      expect(served.length).toBe(sizes.reduce((a, b) => a + b, 0));
    },
  );

  it('fills a Uint32Array through its bytes', () => {
    const fill = pooledFill((into) => into.fill(0xff));
    const words = new Uint32Array(3);
    fill(words);
    expect([...words]).toEqual([0xffffffff, 0xffffffff, 0xffffffff]);
  });
});

describe('uniformSource', () => {
  it('maps 32 random bits to [0, 1), a pool of draws at a time', () => {
    let calls = 0;
    let word = 0;
    const random = uniformSource((into) => {
      calls++;
      for (let i = 0; i < into.length; i++) into[i] = word++ === 0 ? 0 : 0xffffffff;
    });
    const drawn = Array.from({ length: 12 }, () => random());
    expect(drawn[0]).toBe(0);
    expect(drawn.slice(1).every((x) => x === 0xffffffff / 4294967296 && x < 1)).toBe(true);
    // Pools of 4 and 8 numbers: twelve draws in two fills.
    expect(calls).toBe(2);
  });
});

describe('isUuidLike', () => {
  /** The rule as the router states it: braces around the whole and every hyphen dropped, then 32 hex digits. */
  const rule = (s: string): boolean => {
    if (s.length > 38) return false;
    const inner = s.startsWith('{') && s.endsWith('}') ? s.slice(1, -1) : s;
    return /^[0-9a-fA-F]{32}$/.test(inner.replaceAll('-', ''));
  };
  const uuidish = fc
    .tuple(fc.uuid(), fc.array(fc.constantFrom('-', '{', '}', 'g', 'G', '@', '`', '/', ':', 'F', 'f', '0', '\u0141', ''), { maxLength: 4 }), fc.nat(40), fc.boolean())
    .map(([u, extra, at, hyphens]) => {
      const s = hyphens ? u : u.replaceAll('-', '');
      const k = at % (s.length + 1);
      return s.slice(0, k) + extra.join('') + s.slice(k);
    });
  fcTest.prop([fc.oneof(uuidish, fc.string({ maxLength: 40 }), fc.uuid().map((u) => `{${u.toUpperCase()}}`))], { numRuns: 3000 })(
    'answers as the rule does for ids, near-ids and any string',
    (s) => {
      expect(isUuidLike(s)).toBe(rule(s));
    },
  );
});
