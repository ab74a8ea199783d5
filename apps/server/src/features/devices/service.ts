import type { Kysely } from 'kysely';
import type { Device, LatestValuesAnswer, ProvisionDeviceAnswer, ProvisionDeviceBody } from '@fieldlink/api/device';
import type { LatestValue } from '@fieldlink/api/realtime';
import type { Database } from '../../db/schema';
import { HttpError, notFound } from '../../http-errors';
import { hashSecret, newDeviceSecret, newId } from '../../security/secrets';
import { inScope, requireCapability } from '../session/access';
import type { UserContext } from '../session/user-context';
import { toDevice } from './mapper';
import {
  findDeviceById,
  findDeviceByThingName,
  findDevicesByIds,
  findGroup,
  findNewDevicesGroup,
  insertDevice,
  latestValuesOf,
  type DeviceWithPath,
} from './repository';

const DEVICE_NOT_FOUND = 'Device not found.';
const MAX_IDS_PER_CALL = 1000;

/** A new thing name: `FL` and 10 characters of Crockford base32 (no look-alike letters). */
export function newThingName(): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  return `FL${[...bytes].map((byte) => alphabet[byte % 32]).join('')}`;
}

/** Device calls of core §7, each checking the caller's scope; a device out of scope is "not found". */
export class DeviceService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly onProvisioned: (thingName: string) => void = () => undefined,
  ) {}

  /** A device the caller may see, or 404 (the same answer whether it exists elsewhere or not at all). */
  async visibleDevice(user: UserContext, find: { id: string } | { thingName: string }): Promise<DeviceWithPath> {
    const row =
      'id' in find ? await findDeviceById(this.db, find.id) : await findDeviceByThingName(this.db, find.thingName);
    if (!row || !inScope(user, row.path)) throw notFound(DEVICE_NOT_FOUND);
    return row;
  }

  async getDevice(user: UserContext, id: string): Promise<Device> {
    return toDevice(await this.visibleDevice(user, { id }));
  }

  /** Latest values of the devices in scope among `ids`; others are left out as if unknown. */
  async latestValues(user: UserContext, idList: string): Promise<LatestValuesAnswer> {
    const ids = [
      ...new Set(
        idList
          .split(',')
          .map((id) => id.trim())
          .filter(Boolean),
      ),
    ];
    if (ids.length > MAX_IDS_PER_CALL) throw new HttpError(400, `At most ${MAX_IDS_PER_CALL} device ids per call.`);
    const visible = (await findDevicesByIds(this.db, ids))
      .filter((row) => inScope(user, row.path))
      .map((row) => row.id);
    const answer: LatestValuesAnswer = Object.fromEntries(visible.map((id) => [id, {}]));
    for (const row of await latestValuesOf(this.db, visible)) {
      const latest: LatestValue = { value: row.value, t: row.t, ...(row.extra ? JSON.parse(row.extra) : {}) };
      answer[row.device_id]![row.code] = latest;
    }
    return answer;
  }

  /** Provisions a device; its password is in the answer this once and stored only as a hash. */
  async provision(user: UserContext, body: ProvisionDeviceBody): Promise<ProvisionDeviceAnswer> {
    requireCapability(user, 'addDevices');
    const group = body.groupId
      ? await findGroup(this.db, body.groupId)
      : await findNewDevicesGroup(this.db, body.accountId ?? user.attachmentPoints[0]?.accountId ?? '');
    if (!group || !inScope(user, group.path)) throw notFound(body.groupId ? 'Group not found.' : 'Account not found.');
    if (group.kind === 'trash') throw new HttpError(400, 'Devices cannot be added to the Trash group.');
    const id = newId();
    const thingName = newThingName();
    const password = newDeviceSecret();
    await insertDevice(this.db, {
      id,
      account_id: group.account_id,
      group_id: group.id,
      thing_name: thingName,
      secret_hash: hashSecret(password),
      name: body.name.trim(),
      sn: body.sn ?? null,
    });
    this.onProvisioned(thingName);
    const row = await findDeviceById(this.db, id);
    return { device: toDevice(row!), credentials: { thingName, password } };
  }
}
