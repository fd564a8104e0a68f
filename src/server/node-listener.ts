import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/**
 * Mounts a WHATWG handler on node:http: the request is handed over with its body as a stream,
 * and the answer written back with every header (repeated ones kept).
 */
export function nodeListener(handle: (request: Request) => Promise<Response>): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    let request: Request;
    try {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (Array.isArray(value)) for (const v of value) headers.append(name, v);
        else if (value !== undefined) headers.set(name, value);
      }
      const method = req.method ?? 'GET';
      const hasBody = method !== 'GET' && method !== 'HEAD';
      // `duplex` is what Node needs to stream a request body; RequestInit does not declare it yet.
      const init: RequestInit & { duplex?: 'half' } = { method, headers, ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}) };
      request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, init);
    } catch {
      // A Host header or a method that no URL or Request can hold.
      res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad Request\n');
      return;
    }
    void handle(request)
      .then(async (response) => {
        const headers: string[] = [];
        for (const [name, value] of response.headers) headers.push(name, value);
        res.writeHead(response.status, headers);
        if (response.body !== null && req.method !== 'HEAD') {
          for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
        }
        res.end();
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end();
      });
  };
}
