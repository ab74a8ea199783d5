import type { Kysely } from 'kysely';
import { BREW_REGISTERS, defaultChannelsMap, tankNumbers } from '@fieldlink/domain/brew';
import type { Database } from '../src/db/schema';
import { FileStore } from '../src/documents/file-store';
import type { AccountIds, MatrixRequest, RouteRule, RouteUse } from './authorization-matrix';

/** The brewing entities of one account the matrix calls with (features/brew). */
export interface BrewIds {
  /** The tank number of `deviceId` in `groupId`; it has the running batch `batchId`. */
  tankNumber: number;
  /** A tank of `groupId` without a batch (a batch is started on it by the positive check). */
  idleTankNumber: number;
  batchId: string;
  /** An ended batch of `deviceId` (deleted by the positive check). */
  spareBatchId: string;
  gravityId: string;
  sensoryId: string;
  annotationId: string;
  /** A ready report of `batchId`. */
  reportId: string;
}

/** Brewing ids that exist nowhere. */
export const MISSING_BREW_IDS: BrewIds = {
  tankNumber: 1,
  idleTankNumber: 2,
  batchId: 'missing-batch-001',
  spareBatchId: 'missing-batch-002',
  gravityId: 'missing-gravity-1',
  sensoryId: 'missing-sensory-1',
  annotationId: 'missing-annotation',
  reportId: 'missing-brew-rep1',
};

/** Adds a running batch with a reading, a tasting note, an annotation and a report, and an ended batch. */
export async function addBrewIds(
  db: Kysely<Database>,
  ids: Pick<AccountIds, 'groupId' | 'deviceId'>,
  key: string,
): Promise<BrewIds> {
  // The group's devices watch fermenters: only fermentation vessels are tanks (domain brew.ts), and
  // the positive check starts a batch on a second, idle one.
  const rows = await db
    .selectFrom('devices')
    .select(['id', 'registers', 'custom', 'tags'])
    .where('group_id', '=', ids.groupId)
    .orderBy('name')
    .orderBy('id')
    .execute();
  for (const [index, row] of rows.entries()) {
    const tags = (JSON.parse(row.tags || '[]') as { id: string; key: string; value: string }[]).filter(
      (tag) => tag.key !== 'vessel',
    );
    const vessel = { id: `matrix-vessel-${row.id}`, key: 'vessel', value: 'fermenter' };
    await db
      .updateTable('devices')
      // Each tank keeps its number when a check moves another device out of the group.
      .set({
        tags: JSON.stringify([...tags, vessel]),
        registers: JSON.stringify({
          ...(JSON.parse(row.registers || '{}') as Record<string, number>),
          [BREW_REGISTERS.VAT_NUMBER]: index + 1,
        }),
      })
      .where('id', '=', row.id)
      .execute();
  }
  const devices = await db
    .selectFrom('devices')
    .select(['id', 'registers', 'custom'])
    .where('group_id', '=', ids.groupId)
    .orderBy('name')
    .orderBy('id')
    .execute();
  const numbers = tankNumbers(devices.map((device) => ({ registers: JSON.parse(device.registers || '{}') })));
  const index = devices.findIndex((device) => device.id === ids.deviceId);
  const brew: BrewIds = {
    tankNumber: numbers[index]!,
    // A group of one tank has no idle one: a number no tank has (refused all the same).
    idleTankNumber: numbers[index === 0 ? 1 : 0] ?? Math.max(...numbers) + 1,
    batchId: `matrix-batch-${key}`,
    spareBatchId: `matrix-spare-batch-${key}`,
    gravityId: `matrix-gravity-${key}`,
    sensoryId: `matrix-sensory-${key}`,
    annotationId: `matrix-annotation-${key}`,
    reportId: `matrix-brew-report-${key}`,
  };
  const now = Date.now();
  const batch = {
    device_id: ids.deviceId,
    props: JSON.stringify({ beerName: 'Matrix ale', style: '', originalGravity: 1.05, targetGravity: null, notes: '' }),
    is_demo: 0,
    channels_map: JSON.stringify(defaultChannelsMap(devices[index]!.custom)),
    co2_total_gain: 1,
    tank_level: null,
    tank_level_at_ferm_start: null,
    co2_total_at_start: null,
    pressurized_at: null,
    frozen_gravity: null,
    created_by: null,
    created_at: now,
  };
  await db
    .insertInto('brew_batches')
    .values([
      {
        ...batch,
        id: brew.batchId,
        state: 'FERMENTING',
        start_at: now - 86_400_000,
        end_at: null,
        transitions: JSON.stringify([{ state: 'FERMENTING', timestamp: now - 86_400_000 }]),
      },
      {
        ...batch,
        id: brew.spareBatchId,
        state: 'MANUALLY_ENDED',
        start_at: now - 30 * 86_400_000,
        end_at: now - 20 * 86_400_000,
        transitions: JSON.stringify([{ state: 'MANUALLY_ENDED', timestamp: now - 20 * 86_400_000 }]),
      },
    ])
    .execute();
  await db
    .insertInto('brew_gravities')
    .values({ id: brew.gravityId, batch_id: brew.batchId, value: 1.03, t: now - 3_600_000, created_by: null })
    .execute();
  const ratings = { aroma: 4, flavor: 4, mouthfeel: 3, appearance: 4, overall: 4, carbonation: 3 };
  await db
    .insertInto('brew_sensories')
    .values({
      id: brew.sensoryId,
      batch_id: brew.batchId,
      ratings: JSON.stringify(ratings),
      notes: '',
      t: now,
      created_by: null,
    })
    .execute();
  await db
    .insertInto('brew_annotations')
    .values({
      id: brew.annotationId,
      batch_id: brew.batchId,
      kind: 'plotLine',
      text: 'Dry hopped',
      t: now,
      color: '#8a8f98',
      channel_code: null,
      sensory_id: null,
    })
    .execute();
  const file = await new FileStore(db).create('matrix.pdf', 'application/pdf');
  await file.write('%PDF-1.4 matrix');
  const stored = await file.finish();
  await db
    .insertInto('brew_reports')
    .values({
      id: brew.reportId,
      batch_id: brew.batchId,
      state: 'READY',
      error: null,
      file_id: stored.id,
      created_by: null,
      created_at: now,
      generated_at: now,
    })
    .execute();
  return brew;
}

const get = (url: string, query: Record<string, string>): MatrixRequest => ({ method: 'GET', url, query });
const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, body: Record<string, unknown>): MatrixRequest => ({
  method,
  url,
  body,
});

/** A call naming one batch (or an item of it): on the caller's batch, refused on another account's. */
function onBatch(
  access: RouteUse['access'],
  method: 'POST' | 'PUT' | 'DELETE',
  url: string,
  body: (brew: BrewIds) => Record<string, unknown>,
): RouteUse {
  return {
    access,
    own: (ids) => send(method, url, body(ids.brew)),
    foreign: (own, other) => {
      const mine = own.brew;
      const theirs = other.brew;
      // Their batch, and (for items) their item on my batch.
      const requests = [send(method, url, body(theirs))];
      const mixed = { ...body(theirs), batchId: mine.batchId };
      if ('id' in mixed) requests.push(send(method, url, mixed));
      return requests;
    },
  };
}

/** Who may make each brewing call (docs/decisions.md, "Brewing"). */
export const BREW_AUTHORIZATION: Record<string, RouteRule> = {
  'GET /api/v1/brew/overview': {
    kind: 'api',
    uses: [
      {
        access: 'viewDashboard',
        own: (ids) => get('/api/v1/brew/overview', { groupId: ids.groupId }),
        foreign: (_own, other) => [get('/api/v1/brew/overview', { groupId: other.groupId })],
      },
    ],
  },
  'GET /api/v1/brew/batches': {
    kind: 'api',
    uses: [
      {
        access: 'viewDashboard',
        own: (ids) => get('/api/v1/brew/batches', { groupId: ids.groupId, accountId: ids.accountId }),
        foreign: (own, other) => [
          get('/api/v1/brew/batches', { groupId: other.groupId }),
          get('/api/v1/brew/batches', { groupId: own.groupId, accountId: other.accountId }),
        ],
      },
    ],
  },
  'GET /api/v1/brew/batch': {
    kind: 'api',
    uses: [
      {
        access: 'viewDashboard',
        own: (ids) => get('/api/v1/brew/batch', { batchId: ids.brew.batchId }),
        foreign: (_own, other) => [get('/api/v1/brew/batch', { batchId: other.brew.batchId })],
      },
    ],
  },
  'POST /api/v1/brew/batch': {
    kind: 'api',
    uses: [
      {
        access: 'editBrewInfo',
        own: (ids) =>
          send('POST', '/api/v1/brew/batch', {
            groupId: ids.groupId,
            tankNumber: ids.brew.idleTankNumber,
            props: { beerName: 'Matrix lager', style: '', originalGravity: null, targetGravity: null, notes: '' },
          }),
        foreign: (_own, other) => [
          send('POST', '/api/v1/brew/batch', {
            groupId: other.groupId,
            tankNumber: other.brew.idleTankNumber,
            props: { beerName: 'Taken', style: '', originalGravity: null, targetGravity: null, notes: '' },
          }),
        ],
      },
    ],
  },
  'PUT /api/v1/brew/batch': {
    kind: 'api',
    uses: [
      onBatch('editBrewInfo', 'PUT', '/api/v1/brew/batch', (brew) => ({
        batchId: brew.batchId,
        props: { style: 'Matrix' },
      })),
    ],
  },
  'POST /api/v1/brew/batch/end': {
    kind: 'api',
    uses: [onBatch('endBrew', 'POST', '/api/v1/brew/batch/end', (brew) => ({ batchId: brew.batchId }))],
  },
  'DELETE /api/v1/brew/batch/end': {
    kind: 'api',
    uses: [onBatch('endBrew', 'DELETE', '/api/v1/brew/batch/end', (brew) => ({ batchId: brew.batchId }))],
  },
  'PUT /api/v1/brew/batch/gravity': {
    kind: 'api',
    uses: [
      onBatch('editBrewInfo', 'PUT', '/api/v1/brew/batch/gravity', (brew) => ({ batchId: brew.batchId, value: 1.02 })),
      onBatch('editBrewInfo', 'PUT', '/api/v1/brew/batch/gravity', (brew) => ({
        batchId: brew.batchId,
        id: brew.gravityId,
        value: 1.021,
      })),
    ],
  },
  'DELETE /api/v1/brew/batch/gravity': {
    kind: 'api',
    uses: [
      onBatch('editBrewInfo', 'DELETE', '/api/v1/brew/batch/gravity', (brew) => ({
        batchId: brew.batchId,
        id: brew.gravityId,
      })),
    ],
  },
  'PUT /api/v1/brew/batch/sensory': {
    kind: 'api',
    uses: [
      onBatch('editBrewInfo', 'PUT', '/api/v1/brew/batch/sensory', (brew) => ({
        batchId: brew.batchId,
        id: brew.sensoryId,
        aroma: 3,
        flavor: 3,
        mouthfeel: 3,
        appearance: 3,
        overall: 3,
        carbonation: 3,
      })),
    ],
  },
  'DELETE /api/v1/brew/batch/sensory': {
    kind: 'api',
    uses: [
      onBatch('editBrewInfo', 'DELETE', '/api/v1/brew/batch/sensory', (brew) => ({
        batchId: brew.batchId,
        id: brew.sensoryId,
      })),
    ],
  },
  'PUT /api/v1/brew/batch/annotation': {
    kind: 'api',
    uses: [
      onBatch('editBrewInfo', 'PUT', '/api/v1/brew/batch/annotation', (brew) => ({
        batchId: brew.batchId,
        id: brew.annotationId,
        text: 'Matrix note',
      })),
    ],
  },
  'DELETE /api/v1/brew/batch/annotation': {
    kind: 'api',
    uses: [
      onBatch('editBrewInfo', 'DELETE', '/api/v1/brew/batch/annotation', (brew) => ({
        batchId: brew.batchId,
        id: brew.annotationId,
      })),
    ],
  },
  'POST /api/v1/brew/batch/report/generate': {
    kind: 'api',
    uses: [
      onBatch('viewDashboard', 'POST', '/api/v1/brew/batch/report/generate', (brew) => ({ batchId: brew.batchId })),
    ],
  },
  'GET /api/v1/brew/batch/report': {
    kind: 'api',
    uses: [
      {
        access: 'viewDashboard',
        own: (ids) => get('/api/v1/brew/batch/report', { id: ids.brew.reportId }),
        foreign: (_own, other) => [get('/api/v1/brew/batch/report', { id: other.brew.reportId })],
      },
    ],
  },
  'GET /api/v1/brew/batch/report/state': {
    kind: 'api',
    uses: [
      {
        access: 'viewDashboard',
        own: (ids) => get('/api/v1/brew/batch/report/state', { id: ids.brew.reportId }),
        foreign: (_own, other) => [get('/api/v1/brew/batch/report/state', { id: other.brew.reportId })],
      },
    ],
  },
  'DELETE /api/v1/brew/batch': {
    kind: 'api',
    uses: [onBatch('deleteBrew', 'DELETE', '/api/v1/brew/batch', (brew) => ({ batchId: brew.spareBatchId }))],
  },
  'PUT /api/v1/brew/tank/calibration': {
    kind: 'api',
    uses: [
      {
        access: 'calibrateCo2TotalGain',
        own: (ids) =>
          send('PUT', '/api/v1/brew/tank/calibration', {
            groupId: ids.groupId,
            // The idle tank stays in the group; the move check takes the account's device out of it.
            tankNumber: ids.brew.idleTankNumber,
            calibration: { co2TotalGain: 1.1 },
          }),
        foreign: (_own, other) => [
          send('PUT', '/api/v1/brew/tank/calibration', {
            groupId: other.groupId,
            tankNumber: other.brew.tankNumber,
            calibration: { co2TotalGain: 2 },
          }),
        ],
      },
      {
        access: 'calibrateTankLevel',
        own: (ids) =>
          send('PUT', '/api/v1/brew/tank/calibration', {
            groupId: ids.groupId,
            // The idle tank stays in the group; the move check takes the account's device out of it.
            tankNumber: ids.brew.idleTankNumber,
            calibration: { tankLevel: { scale: 110, offset: 0 }, capacity: 1200 },
          }),
        foreign: (_own, other) => [
          send('PUT', '/api/v1/brew/tank/calibration', {
            groupId: other.groupId,
            tankNumber: other.brew.tankNumber,
            calibration: { capacity: 1 },
          }),
        ],
      },
    ],
  },
};
