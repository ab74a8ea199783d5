import http from 'node:http';
import { deflateSync } from 'node:zlib';

/**
 * A map tile source and a Nominatim-compatible geocoder on loopback, so the map and address search
 * are tested without any outside service. Tiles are plain generated PNGs; the geocoder knows a few
 * places and records every query.
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 256x256 tile: a pale land colour with a faint grid line on two edges. */
function tilePng(): Buffer {
  const size = 256;
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y += 1) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x += 1) {
      const edge = x === 0 || y === 0;
      row[1 + x * 3] = edge ? 0xd9 : 0xee;
      row[2 + x * 3] = edge ? 0xdf : 0xf1;
      row[3 + x * 3] = edge ? 0xe6 : 0xe9;
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8;
  header[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface Place {
  display_name: string;
  lat: string;
  lon: string;
}

export const PLACES: Place[] = [
  { display_name: '100 Main Street, Fort Worth, TX, USA', lat: '32.75512345', lon: '-97.33098765' },
  { display_name: '200 Main Street, Dallas, TX, USA', lat: '32.78000011', lon: '-96.80000022' },
  { display_name: 'Main Street Park, Irving, TX, USA', lat: '32.81400001', lon: '-96.94900002' },
  ...Array.from({ length: 12 }, (_, i) => ({
    display_name: `${i + 1} Elm Avenue, Plano, TX, USA`,
    lat: String(33.0198 + i / 1000),
    lon: String(-96.6989 - i / 1000),
  })),
];

export interface MapServer {
  url: string;
  tileUrl: string;
  geocoderUrl: string;
  tileRequests: () => number;
  queries: () => URLSearchParams[];
  close(): Promise<void>;
}

export async function startMapServer(): Promise<MapServer> {
  const tile = tilePng();
  let tiles = 0;
  const queries: URLSearchParams[] = [];
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    response.setHeader('access-control-allow-origin', '*');
    if (url.pathname.startsWith('/tiles/')) {
      tiles += 1;
      response.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' });
      response.end(tile);
      return;
    }
    if (url.pathname === '/geocoder/search') {
      queries.push(url.searchParams);
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      const limit = Number(url.searchParams.get('limit') ?? '10');
      const found = PLACES.filter((place) => place.display_name.toLowerCase().includes(q)).slice(0, limit);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(found));
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    tileUrl: `${url}/tiles/{z}/{x}/{y}.png`,
    geocoderUrl: `${url}/geocoder`,
    tileRequests: () => tiles,
    queries: () => queries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
