import http from 'node:http';

/** An answer as a client over the network receives it: the bytes on the wire, not decoded. */
export interface LoopbackAnswer {
  statusCode: number;
  headers: http.IncomingHttpHeaders;
  /** Bytes received. */
  bytes: number;
  /** The bytes themselves, when asked for. */
  body: Buffer | null;
}

/**
 * GET requests to a server listening on loopback, over one kept-alive connection as a browser keeps
 * it: the answer's bytes come through a real socket, where `app.inject` hands them over in memory
 * (and copies them three times on the way: light-my-request's chunk copy, its concatenation and its
 * decoding into a string). The client runs in the server's process, so unless the body is asked for
 * it only counts the bytes as they arrive, as a browser's process would take them off the server's
 * hands: keeping and joining them made a garbage of 4.7 MB a call that was the benchmark's, not the
 * server's (it doubled the collector's time per call).
 */
export function loopbackClient(baseUrl: string): {
  get(path: string, headers: Record<string, string>, keepBody?: boolean): Promise<LoopbackAnswer>;
  close(): void;
} {
  const { hostname, port } = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return {
    get: (path, headers, keepBody = false) =>
      new Promise((resolve, reject) => {
        const request = http.get({ host: hostname, port, path, headers, agent }, (response) => {
          const chunks: Buffer[] = [];
          let bytes = 0;
          response.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            if (keepBody) chunks.push(chunk);
          });
          response.on('error', reject);
          response.on('end', () =>
            resolve({
              statusCode: response.statusCode ?? 0,
              headers: response.headers,
              bytes,
              body: keepBody ? Buffer.concat(chunks) : null,
            }),
          );
        });
        request.on('error', reject);
      }),
    close: () => agent.destroy(),
  };
}
