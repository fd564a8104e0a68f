/**
 * The handler's shortcuts give what the WHATWG objects give: a light response's body read from
 * its string, and a request URL split without the parser when it is plain.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTarget } from '../../../src/adapters/http/handler.js';
import { LightResponse } from '../../../src/adapters/http/light.js';

const light = (body: string | null, status = 200) =>
  new LightResponse({ status, headers: { 'content-type': 'application/json' }, body }) as unknown as Response;

describe('a light response read in process', () => {
  it('reads its body once, as a Response does', async () => {
    for (const make of [() => light('{"a":"é"}'), () => new Response('{"a":"é"}')]) {
      const r = make();
      expect(r.bodyUsed).toBe(false);
      expect(await r.json()).toEqual({ a: 'é' });
      expect(r.bodyUsed).toBe(true);
      await expect(r.text()).rejects.toThrow(TypeError);
      // A body already read stays read when the real object is asked for.
      expect(r.headers.get('content-type')).toMatch(/json|text/);
      expect(r.bodyUsed).toBe(true);
    }
  });

  it('gives the same bytes, text and errors as the real Response', async () => {
    for (const body of ['', 'plain', '{"zone":"ü.example."}', '{not json']) {
      expect(new Uint8Array(await light(body).arrayBuffer())).toEqual(new Uint8Array(await new Response(body).arrayBuffer()));
      expect(await (light(body) as unknown as LightResponse).bytes()).toEqual(new Uint8Array(await new Response(body).arrayBuffer()));
      expect(await light(body).text()).toBe(await new Response(body).text());
      const real = await new Response(body).json().then((v: unknown) => ({ v }), (e: unknown) => ({ e: (e as Error).name }));
      const ours = await light(body).json().then((v: unknown) => ({ v }), (e: unknown) => ({ e: (e as Error).name }));
      expect(ours).toEqual(real);
    }
  });

  it('reads a null body as empty every time', async () => {
    const r = light(null, 204);
    expect(await r.text()).toBe('');
    expect(await r.text()).toBe('');
    expect(r.bodyUsed).toBe(false);
    expect(r.body).toBeNull();
  });
});

describe('parseTarget', () => {
  const check = (url: string): void => {
    let expected: unknown;
    try {
      const u = new URL(url);
      expected = { origin: u.origin, pathname: u.pathname, search: u.search.slice(1) };
    } catch (e) {
      expected = (e as Error).name;
    }
    let got: unknown;
    try {
      got = { ...parseTarget(url, new Map()) };
    } catch (e) {
      got = (e as Error).name;
    }
    expect(got, url).toEqual(expected);
  };

  it('agrees with new URL on the cases a shortcut could get wrong', () => {
    for (const url of [
      'http://localhost/v2/zones/abc',
      'HTTP://LocalHost:80/v2/zones?x=1',
      'https://h:443/v2/',
      'http://h:8080/v2/zones/%2e%2E/x',
      'http://h/v2/./zones/../x',
      'http://h/v2/.well-known',
      'http://h/v2/zones?a=b c#frag',
      'http://h/v2/zo nes',
      'http://h/v2\\zones',
      'http://u:p@h/v2/zones',
      'http://h?x=/y',
      'http://h',
      'http://[::1]:9001/v2/zones?name=é',
      'http://h/v2/zones/%ZZ',
      "http://h/v2/zones?name='x'&a=+b",
      'http://h:99999/v2',
      'http:/h/v2',
    ])
      check(url);
  });

  it('agrees with new URL on any URL made of path-like characters', () => {
    const chars = fc.constantFrom(...'aZ09-._~!$&\'()*+,;=:@%/?#\\ .é\t[]'.split(''));
    fc.assert(
      fc.property(fc.constantFrom('http://h', 'https://H.example:443', 'http://127.0.0.1:80', 'http://[::1]'), fc.array(chars, { maxLength: 24 }), (origin, rest) => {
        check(`${origin}/${rest.join('')}`);
      }),
      { numRuns: 2000 },
    );
  });
});
