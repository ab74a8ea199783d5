import type { Kysely, Transaction } from 'kysely';
import type { AuditAction } from '@fieldlink/domain/audit';
import {
  CONTACT_SUPPLIER_FOR_PLAN,
  MAX_DEVICE_TAGS,
  type CustomAttributes,
  type Device,
  type DeleteDeviceTagBody,
  type DeviceConfigAnswer,
  type DeviceConfigBody,
  type DeviceMessage,
  type DeviceMessageAnswer,
  type DeviceMessageBody,
  type DevicePlanBody,
  type DeviceTagBody,
  type DeviceTagsAnswer,
  type SentDeviceMessage,
} from '@fieldlink/api/device';
import { settingsMessages, settingsRequestError } from '@fieldlink/domain/device-settings';
import { isValidLocation } from '@fieldlink/domain/location';
import { can } from '@fieldlink/domain/permissions';
import { unknownChannelCode, unknownChannelCodeMessage } from '@fieldlink/domain/work-limits';
import type { Database } from '../../db/schema';
import { HttpError, forbidden } from '../../http-errors';
import type { CommandRequest, CommandService } from '../../realtime/commands';
import { newId } from '../../security/secrets';
import { audit, byUser } from '../audit/service';
import { permissionSubject, requireCapability, requireDeviceAction } from '../session/access';
import type { UserContext } from '../session/user-context';
import { toDevice } from './mapper';
import type { DeviceMessageQueue } from './message-queue';
import {
  accountKindOf,
  changeDeviceTags,
  findDeviceById,
  mutedDevicesOf,
  setDeviceMuted,
  updateDeviceProps,
  updateDevicePlan,
  type DevicePropsUpdate,
  type DeviceWithPath,
} from './repository';
import type { DeviceService } from './service';

/** The account kind of the supplier, whose administrators set device plans. */
const SUPPLIER_ACCOUNT_KIND = 'supplier';

/** Messages that still mean something when delivered hours later; others fail when the device is offline. */
const QUEUEABLE: ReadonlySet<DeviceMessage['cmd']> = new Set([
  'writeChannel',
  'writeConfig',
  'writeRegister',
  'timeDate',
  'refreshMetadata',
]);

/**
 * The device changes of core §2 and §7: device-node Apply (`POST /device-config`), tags, messages to
 * the device and the supplier's plan call. Every call checks scope (404) before permission (403), so
 * a caller learns nothing about devices outside its scope.
 */
export class DeviceConfigService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly devices: DeviceService,
    private readonly commands: CommandService,
    private readonly queue: DeviceMessageQueue,
  ) {}

  /**
   * Applies a device-node draft. Name, site and location are stored; the mute flag changes the
   * caller's own muted list (any user may); settings go to the device now when it is online, else
   * they are queued and answered as `unsentMessages`. A refused call changes nothing: every check
   * runs before the first write.
   */
  async configure(user: UserContext, { id, props }: DeviceConfigBody): Promise<DeviceConfigAnswer> {
    const device = await this.devices.visibleDevice(user, { id });
    const update: DevicePropsUpdate = {};
    if (props.name !== undefined) update.name = props.name.trim();
    if (props.site !== undefined) update.site = props.site?.trim() || null;
    if (props.location !== undefined) update.location = props.location ? JSON.stringify(props.location) : null;
    if (props.customAttributes !== undefined) update.custom_attributes = customAttributesJson(props.customAttributes);
    if (props.location && !isValidLocation(props.location)) throw new HttpError(400, 'A location needs lat and lng.');
    const settingsProblem = props.settings ? settingsRequestError(props.settings) : null;
    if (settingsProblem) throw new HttpError(400, settingsProblem);
    const settings: DeviceMessage[] = props.settings ? settingsMessages(props.settings) : [];
    if (Object.keys(update).length > 0) requireCapability(user, 'configureDevices');
    if (update.name === '') throw new HttpError(400, 'The name may not be blank.');
    for (const message of settings) requireDeviceAction(user, message.cmd);
    refuseUnknownChannels(device, settings);

    // Settings for an offline device are queued first: past the queue's limit the call is refused
    // before anything else is written.
    const queued = settings.length > 0 && device.is_connected !== 1;
    const unsentMessages = queued ? await this.queue.enqueue(auditedDevice(device), settings, user) : undefined;
    if (Object.keys(update).length > 0) {
      await this.db.transaction().execute(async (trx) => {
        await updateDeviceProps(trx, device.id, update);
        const before = Object.fromEntries(
          Object.keys(update).map((key) => [key, device[key as keyof DevicePropsUpdate]]),
        );
        await recordDeviceChange(trx, user, device, 'device.update', before, update);
      });
    }
    const mutedDevices =
      props.muteDisconnection === undefined
        ? await mutedDevicesOf(this.db, user.id)
        : await this.db.transaction().execute(async (trx) => {
            const before = (await mutedDevicesOf(trx, user.id)).includes(device.thing_name);
            const muted = await setDeviceMuted(trx, user.id, device.thing_name, props.muteDisconnection!);
            // A user's own alerts: who stopped hearing of a device going offline matters later.
            const after = { muteDisconnection: props.muteDisconnection };
            await recordDeviceChange(trx, user, device, 'device.mute', { muteDisconnection: before }, after);
            return muted;
          });
    const delivery = unsentMessages
      ? { unsentMessages }
      : settings.length > 0
        ? { sentMessages: await Promise.all(settings.map((message) => this.sendNow(user, device, message))) }
        : {};
    const row = await findDeviceById(this.db, device.id);
    const answer = toDevice(row!, mutedDevices);
    answer.settings = { unsentMessages: await this.queue.pendingOf(device.id) };
    return { device: answer, mutedDevices, ...delivery };
  }

  /** `POST /message`: sends one message now, or queues it while the device is offline. */
  async sendMessage(user: UserContext, { deviceId, message }: DeviceMessageBody): Promise<DeviceMessageAnswer> {
    // What the message sets is checked before any device is looked up, as its real-time twin does.
    const problem =
      message.cmd === 'writeConfig'
        ? settingsRequestError(message)
        : message.cmd === 'timeDate'
          ? settingsRequestError({ timeDate: message })
          : null;
    if (problem) throw new HttpError(400, problem);
    const device = await this.devices.visibleDevice(user, { id: deviceId });
    requireDeviceAction(user, message.cmd);
    refuseUnknownChannels(device, [message]);
    if (device.is_connected !== 1 && QUEUEABLE.has(message.cmd)) {
      const [queued] = await this.queue.enqueue(auditedDevice(device), [message], user);
      return { status: 'queued', queued: queued! };
    }
    return { status: 'sent', sent: await this.sendNow(user, device, message) };
  }

  /** `PUT /device/tag`: adds a tag, or changes the one with `tagId`. */
  async setTag(user: UserContext, body: DeviceTagBody): Promise<DeviceTagsAnswer> {
    const device = await this.devices.visibleDevice(user, { id: body.deviceId });
    requireCapability(user, 'configureDevices');
    const key = body.key.trim();
    if (key === '') throw new HttpError(400, 'A tag needs a key.');
    return this.changeTags(user, device, (current) => {
      const index = body.tagId ? current.findIndex((tag) => tag.id === body.tagId) : -1;
      if (index >= 0) return current.map((tag, i) => (i === index ? { ...tag, key, value: body.value } : tag));
      if (current.length >= MAX_DEVICE_TAGS)
        throw new HttpError(400, `A device holds at most ${MAX_DEVICE_TAGS} tags.`);
      return [...current, { id: newId(), key, value: body.value }];
    });
  }

  /** `DELETE /device/tag`. Removing a tag that is not there changes nothing. */
  async deleteTag(user: UserContext, body: DeleteDeviceTagBody): Promise<DeviceTagsAnswer> {
    const device = await this.devices.visibleDevice(user, { id: body.deviceId });
    requireCapability(user, 'configureDevices');
    return this.changeTags(user, device, (current) => current.filter((tag) => tag.id !== body.tagId));
  }

  /** Changes a device's tags and records the change, in one transaction. */
  private async changeTags(
    user: UserContext,
    device: DeviceWithPath,
    change: Parameters<typeof changeDeviceTags>[2],
  ): Promise<DeviceTagsAnswer> {
    const tags = await this.db.transaction().execute(async (trx) => {
      const tags = await changeDeviceTags(trx, device.id, change);
      const before = { tags: JSON.parse(device.tags) as unknown };
      await recordDeviceChange(trx, user, device, 'device.tags', before, { tags });
      return tags;
    });
    return { tags };
  }

  /**
   * `PUT /device/plan`: only an administrator of the supplier account changes a plan; a customer's
   * administrator sees the plan and is told to contact the supplier.
   */
  async changePlan(user: UserContext, { id, plan }: DevicePlanBody): Promise<Device> {
    const device = await this.devices.visibleDevice(user, { id });
    const first = user.attachmentPoints[0];
    const supplier = first ? (await accountKindOf(this.db, first.accountId)) === SUPPLIER_ACCOUNT_KIND : false;
    if (!can(permissionSubject(user), 'viewDevicePlan') || !supplier) throw forbidden(CONTACT_SUPPLIER_FOR_PLAN);
    await this.db.transaction().execute(async (trx) => {
      await updateDevicePlan(trx, device.id, plan);
      await recordDeviceChange(trx, user, device, 'device.plan', { plan: device.plan }, { plan });
    });
    const row = await findDeviceById(this.db, device.id);
    return toDevice(row!, await mutedDevicesOf(this.db, user.id));
  }

  private async sendNow(user: UserContext, device: DeviceWithPath, message: DeviceMessage): Promise<SentDeviceMessage> {
    // An offline device cannot answer: say so now rather than after the timeout (as the hub does).
    if (device.is_connected !== 1) return { message, result: 'TIMEOUT' };
    const outcome = await this.commands.send(device.thing_name, message as CommandRequest, {
      by: byUser(user),
      device: auditedDevice(device),
    });
    return 'value' in outcome && outcome.value !== undefined
      ? { message, result: outcome.result, value: outcome.value }
      : { message, result: outcome.result };
  }
}

/** Records a change to a device in the audit trail, in the change's transaction. */
function recordDeviceChange(
  trx: Transaction<Database>,
  user: UserContext,
  device: DeviceWithPath,
  action: AuditAction,
  before: unknown,
  after: unknown,
): Promise<void> {
  return audit.deviceChange(
    trx,
    user,
    device,
    action,
    { kind: 'device', id: device.id, name: device.name },
    before,
    after,
  );
}

/** A device as the audit trail names it. */
function auditedDevice(device: DeviceWithPath): { id: string; accountId: string; name: string } {
  return { id: device.id, accountId: device.account_id, name: device.name };
}

/** 400 naming the first channel a write names that the device cannot have (`@fieldlink/domain/work-limits`). */
function refuseUnknownChannels(device: DeviceWithPath, messages: readonly DeviceMessage[]): void {
  const codes = messages.flatMap((message) =>
    message.cmd === 'writeChannel'
      ? [message.code]
      : message.cmd === 'writeConfig'
        ? (message.channels ?? []).map((channel) => channel.code)
        : [],
  );
  const unknown = unknownChannelCode(codes, device.expanded_io_max);
  if (unknown !== null) throw new HttpError(400, unknownChannelCodeMessage(unknown));
}

/** Custom attributes as stored: keys trimmed, none blank. */
function customAttributesJson(attributes: CustomAttributes): string {
  const entries = Object.entries(attributes).map(([key, value]) => [key.trim(), value] as const);
  if (entries.some(([key]) => key === '')) throw new HttpError(400, 'A custom attribute needs a name.');
  if (new Set(entries.map(([key]) => key)).size !== entries.length) {
    throw new HttpError(400, 'A custom attribute is named twice.');
  }
  return JSON.stringify(Object.fromEntries(entries));
}
