// The load both HTTP benches put on a server (autocannon, 10 connections): GET of one zone, or
// POST of new zones, each with a name not used before; a non-2xx answer or an error fails the run.
import autocannon from 'autocannon';

/** A running server under test: where to send requests and as whom. */
export interface LoadTarget {
  readonly port: number;
  readonly path: string;
  readonly headers: Record<string, string>;
}

let created = 0;

/** Requests per second, on average, over `seconds` of load. */
export async function load(t: LoadTarget, method: 'GET' | 'POST', seconds: number): Promise<number> {
  const result = await autocannon({
    url: `http://127.0.0.1:${t.port}`,
    connections: 10,
    duration: seconds,
    requests: [
      method === 'GET'
        ? { method: 'GET', path: t.path, headers: t.headers }
        : {
            method: 'POST',
            path: '/v2/zones',
            headers: { ...t.headers, 'content-type': 'application/json' },
            setupRequest: (req) => ({ ...req, body: JSON.stringify({ name: `w${created++}.example.com.`, email: 'hostmaster@example.com' }) }),
          },
    ],
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${method}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}
