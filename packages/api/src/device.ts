import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ChannelConfig, DeviceHealth, DevicePort } from './device-frames';
import { LatestValue } from './realtime';

export const DeviceLocation = Type.Object({
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lng: Type.Number({ minimum: -180, maximum: 180 }),
  address: Type.Optional(Type.String({ maxLength: 300 })),
});
export type DeviceLocation = Static<typeof DeviceLocation>;

export const DeviceTag = Type.Object({ id: Type.String(), key: Type.String(), value: Type.String() });

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A device as the console sees it (specification §3 Device). Times are unix milliseconds. */
export const Device = Type.Object({
  id: Type.String(),
  accountId: Type.String(),
  groupId: Type.String(),
  name: Type.String(),
  sn: Nullable(Type.String()),
  thingName: Type.String(),
  fw: Nullable(Type.String()),
  model: Nullable(Type.String()),
  hw: Nullable(Type.String()),
  site: Nullable(Type.String()),
  plan: Type.Union([Type.Literal('FREE'), Type.Literal('PREMIUM')]),
  base: Nullable(Type.String()),
  custom: Nullable(Type.String()),
  espFw: Nullable(Type.String()),
  hwPlatform: Nullable(Type.String()),
  updatePoint: Nullable(Type.String()),
  uploadInterval: Nullable(Type.Number()),
  logInterval: Nullable(Type.Number()),
  timeDate: Nullable(Type.Object({ tzName: Type.String(), tzRule: Type.Optional(Type.String()) })),
  channels: Type.Array(ChannelConfig),
  registers: Type.Record(Type.String(), Type.Number()),
  ports: Type.Array(DevicePort),
  location: Nullable(DeviceLocation),
  path: Type.String({ description: "group path: './' then slash-separated group ids" }),
  createdAt: Type.Number(),
  isConnected: Type.Boolean(),
  lastConnection: Nullable(Type.Number()),
  lastDisconnection: Nullable(Type.Number()),
  otaPendingSubmittedAt: Nullable(Type.Number()),
  tags: Type.Array(DeviceTag),
  health: Nullable(DeviceHealth),
  status: Type.Object({ sp: Type.Optional(Type.Integer()) }, { additionalProperties: true }),
  alarmsHaveBeenRead: Type.Boolean(),
});
export type Device = Static<typeof Device>;

/** `POST /device`: provision a device. Without a group it lands in its account's New Devices group. */
export const ProvisionDeviceBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    groupId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    accountId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    sn: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);
export type ProvisionDeviceBody = Static<typeof ProvisionDeviceBody>;

export const ProvisionDeviceAnswer = Type.Object({
  device: Device,
  /** Shown this once: the server keeps only a hash of the password. */
  credentials: Type.Object({ thingName: Type.String(), password: Type.String() }),
});
export type ProvisionDeviceAnswer = Static<typeof ProvisionDeviceAnswer>;

export const DeviceQuery = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

/** `GET /device/channels/latest-values?ids=a,b`: comma-separated device ids. */
export const LatestValuesQuery = Type.Object(
  { ids: Type.String({ minLength: 1, maxLength: 20_000 }) },
  { additionalProperties: false },
);
/** Latest values per device id, then per channel code. */
export const LatestValuesAnswer = Type.Record(Type.String(), Type.Record(Type.String(), LatestValue));
export type LatestValuesAnswer = Static<typeof LatestValuesAnswer>;
