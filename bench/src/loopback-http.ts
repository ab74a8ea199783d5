import http from 'node:http';

/** An answer as a client over the network receives it: the bytes on the wire, not decoded. */
export interface LoopbackAnswer {
  statusCode: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * GET requests to a server listening on loopback, over one kept-alive connection as a browser keeps
 * it: the answer's bytes come through a real socket, where `app.inject` hands them over in memory
 * (and copies them three times on the way: light-my-request's chunk copy, its concatenation and its
 * decoding into a string).
 */
export function loopbackClient(baseUrl: string): {
  get(path: string, headers: Record<string, string>): Promise<LoopbackAnswer>;
  close(): void;
} {
  const { hostname, port } = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return {
    get: (path, headers) =>
      new Promise((resolve, reject) => {
        const request = http.get({ host: hostname, port, path, headers, agent }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () =>
            resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
          );
        });
        request.on('error', reject);
      }),
    close: () => agent.destroy(),
  };
}
