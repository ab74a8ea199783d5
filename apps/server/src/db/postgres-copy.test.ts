import fc from 'fast-check';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { testStorages } from '../../testing/test-storage';
import {
  BinaryCopyReader,
  bytesField,
  copyRows,
  int8Field,
  sqlInteger,
  sqlText,
  textField,
  type CopyField,
} from './postgres-copy';

/** A binary COPY stream as PostgreSQL writes it: signature, flags, header extension, rows, trailer. */
function copyStream(rows: readonly (readonly (Buffer | null)[])[]): Buffer {
  const parts: Buffer[] = [
    Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'),
    Buffer.alloc(4),
    Buffer.from([0, 0, 0, 3, 9, 9, 9]),
  ];
  for (const row of rows) {
    const count = Buffer.alloc(2);
    count.writeInt16BE(row.length);
    parts.push(count);
    for (const field of row) {
      const length = Buffer.alloc(4);
      length.writeInt32BE(field === null ? -1 : field.length);
      parts.push(length);
      if (field) parts.push(field);
    }
  }
  parts.push(Buffer.from([0xff, 0xff]));
  return Buffer.concat(parts);
}

const decodeRow = (fields: CopyField[]) => fields.map((field) => (field === null ? null : Buffer.from(field)));

describe('BinaryCopyReader', () => {
  const rows = fc.array(
    fc.array(fc.option(fc.uint8Array({ maxLength: 40 }).map(Buffer.from), { nil: null }), { maxLength: 4 }),
    {
      maxLength: 20,
    },
  );

  it('reads the same rows however the stream is cut into messages', () => {
    fc.assert(
      fc.property(rows, fc.array(fc.nat(), { maxLength: 12 }), (written, cuts) => {
        const stream = copyStream(written);
        const reader = new BinaryCopyReader(decodeRow);
        let from = 0;
        for (const cut of [...cuts.map((c) => c % (stream.length + 1))].sort((a, b) => a - b)) {
          // Each message in memory the driver reuses: the reader must not keep a view on it.
          const message = Buffer.from(stream.subarray(from, cut));
          reader.push(message);
          message.fill(0);
          from = cut;
        }
        reader.push(stream.subarray(from));
        expect(reader.finish()).toEqual(written.map((row) => row.map((field) => field && Buffer.from(field))));
      }),
    );
  });

  it('refuses a stream that is not binary COPY, or ends early', () => {
    expect(() => new BinaryCopyReader(decodeRow).push(Buffer.from('not a copy stream at all'))).toThrow(
      'Not a binary COPY stream',
    );
    const reader = new BinaryCopyReader(decodeRow);
    const stream = copyStream([[Buffer.from('a')]]);
    reader.push(stream.subarray(0, stream.length - 3));
    expect(() => reader.finish()).toThrow('Binary COPY stream ended early');
  });
});

describe('copyRows on PostgreSQL', () => {
  const storages = testStorages('postgres');
  afterEach(() => storages.close());

  it('reads text, bigint and bytea (large values included) as a select does', async () => {
    const { db } = await storages.open();
    await sql`create table copied (code text, t bigint, data bytea)`.execute(db);
    const large = Buffer.alloc(300_000, 7);
    large.writeUInt32BE(0xdeadbeef, 150_000);
    const rows = [
      { code: 'c1', t: 1_700_000_000_000, data: Buffer.from([1, 2, 3]) },
      { code: 'é ünïcode', t: -5, data: Buffer.alloc(0) },
      { code: "it's", t: 9_007_199_254_740_991, data: large },
    ];
    await db
      .insertInto('copied' as never)
      .values(rows as never)
      .execute();
    const select = `select code, t, data from copied where code in (${rows.map((row) => sqlText(row.code)).join(', ')}) order by t`;
    const read = await copyRows(db, select, ([code, t, data]) => ({
      code: textField(code!),
      t: int8Field(t!),
      data: Buffer.from(bytesField(data!)),
    }));
    expect(read).toEqual([...rows].sort((a, b) => a.t - b.t));
    expect(await copyRows(db, `select data from copied where t > ${sqlInteger(2 ** 53 - 1)}`, decodeRow)).toEqual([]);
  });

  it('fails with the database’s error and leaves the pool usable', async () => {
    const { db } = await storages.open();
    await expect(copyRows(db, 'select * from no_such_table', decodeRow)).rejects.toThrow('no_such_table');
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db);
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('refuses values it cannot write as literals, and a transaction', async () => {
    expect(() => sqlInteger(0.5)).toThrow('Not an integer');
    expect(sqlText("a'b")).toBe("'a''b'");
    const { db } = await storages.open();
    await db.transaction().execute(async (trx) => {
      await expect(copyRows(trx, 'select 1', decodeRow)).rejects.toThrow('own PostgreSQL instance');
    });
  });
});
