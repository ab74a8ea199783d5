import { expandedIoPoints } from './channel-codes';
import type { DeviceKind } from './device-kind';
import { reportedChannels, type ChannelSpec } from './plant-model';
import { SeededRandom } from './seeded-random';

/** The cellular modem a device reports as its port 1 (the `ports` of its `device` config frame). */
export interface ModemPort {
  readonly index: number;
  readonly portType: string;
  readonly model: string;
  readonly band: string;
  readonly iccid: string;
  readonly imei: string;
  readonly operator: string;
  readonly netType: string;
  readonly cellApn: string;
  readonly modemFw: string;
}

/** What a device says about itself in its `device` config frame, fixed for its life. */
export interface DeviceIdentity {
  readonly sn: string;
  readonly fw: string;
  readonly model: string;
  /** Colon-separated hardware string; the first part is the hardware family. */
  readonly hw: string;
  readonly base: string;
  readonly custom: string;
  readonly modemPort: ModemPort;
}

/** `Un{product}d` is the specification's "no custom macro". */
const NO_CUSTOM_MACRO = 'Unfieldlinkd';

const KIND_IDENTITY: Readonly<Record<DeviceKind, Pick<DeviceIdentity, 'model' | 'hw' | 'base' | 'custom'>>> = {
  generic: { model: 'ZEN-IOT 4R', hw: 'ZEN_IOT:rev3:LTE', base: 'GEN_CTRL 2.4', custom: NO_CUSTOM_MACRO },
  // The console marks vats only for a custom macro naming Vats at version 4.0 or later.
  brewTank: { model: 'NIM3 Vat', hw: 'NIM3:rev2:LTE', base: 'BREW 3.1', custom: 'Vats 4.2' },
  sprayer: { model: 'ZEN6 Spray', hw: 'ZEN6:rev1:LTE', base: 'SPRAY 2.0', custom: 'Mosnix 1.6' },
  waterPlant: { model: 'ZEN-G3 Plant', hw: 'ZEN_G3:rev4:LTE', base: 'PLANT 1.9', custom: 'Filtec 2.1' },
  retailShelf: { model: 'NIM2 Shelf', hw: 'NIM2:rev5:LTE', base: 'STOCK 1.3', custom: NO_CUSTOM_MACRO },
};

interface Carrier {
  readonly operator: string;
  readonly cellApn: string;
  readonly band: string;
}

const CARRIERS: readonly [Carrier, ...Carrier[]] = [
  { operator: 'Telstra', cellApn: 'telstra.m2m', band: 'LTE B28' },
  { operator: 'Optus', cellApn: 'connect', band: 'LTE B3' },
  { operator: 'Vodafone', cellApn: 'live.vodafone.com', band: 'LTE B1' },
];

/** A stable identity from the device's seed: serial, firmware, and a modem with real-looking ids. */
export function createDeviceIdentity(kind: DeviceKind, seed: number): DeviceIdentity {
  const random = new SeededRandom(seed ^ 0x1d3f7a2b);
  const digits = (count: number): string => Array.from({ length: count }, () => String(random.integer(0, 9))).join('');
  const carrier = random.pick(CARRIERS);
  return {
    ...KIND_IDENTITY[kind],
    sn: `FL${digits(8)}`,
    fw: `4.${random.integer(10, 14)}.${random.integer(0, 9)}`,
    modemPort: {
      index: 1,
      portType: 'modem',
      model: 'Quectel EG91',
      band: carrier.band,
      // ICCIDs start 89 (telecom) then a country code; IMEIs start with a type allocation code.
      iccid: withLuhnDigit(`8961${digits(14)}`),
      imei: withLuhnDigit(`86695404${digits(6)}`),
      operator: carrier.operator,
      netType: 'LTE',
      cellApn: carrier.cellApn,
      modemFw: 'EG91EXGAR08A07M4G',
    },
  };
}

/** Appends the Luhn check digit that IMEIs and ICCIDs carry. */
export function withLuhnDigit(payload: string): string {
  let sum = 0;
  for (let index = 0; index < payload.length; index += 1) {
    let digit = Number(payload[payload.length - 1 - index]);
    if (index % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return `${payload}${(10 - (sum % 10)) % 10}`;
}

/** The clock a simulated device keeps until a person sets another (its config's `timeDate`). */
export const SIMULATED_TIME_DATE: { readonly tzName: string; readonly tzRule: string } = {
  tzName: 'Etc/UTC',
  tzRule: 'UTC0',
};

/**
 * Frames are sent as soon as they are logged, but the upload interval drives the console's
 * staleness rule, so a simulated device reports the minute a typical field device uses until a
 * person sets another.
 */
export const SIMULATED_UPLOAD_INTERVAL_MINUTES = 1;

/**
 * A device simulated in the browser (the demo's, and a signed-in account's `_DEMO` devices) logs its
 * values every 10 s, as field devices do, so a chart of the last hour is drawn from real samples. The
 * MQTT simulator is given its own interval when it starts.
 */
export const SIMULATED_LOG_INTERVAL_SECONDS = 10;

/** The settings a device keeps in its memory and reports beside its identity: what a person may change. */
export interface ReportedSettings<Channel> {
  readonly channels: readonly Channel[];
  /** Minutes between uploads. */
  readonly uploadInterval: number;
  /** Seconds between log samples. */
  readonly logInterval: number;
  readonly timeDate: { readonly tzName: string; readonly tzRule?: string };
}

/**
 * What a device says of itself in its `device` config frame: its identity, its settings, its
 * registers, the expanded-IO points its plant's channels need and its modem as port 1. The
 * simulator's config frames and {@link simulatedDeviceConfig} are this.
 */
export function deviceConfig<Channel extends { readonly code: string }>(
  identity: DeviceIdentity,
  settings: ReportedSettings<Channel>,
  registers: Readonly<Record<string, number>>,
  expandedIoMax: number,
) {
  const { sn, fw, model, hw, base, custom, modemPort } = identity;
  return {
    sn,
    fw,
    model,
    hw,
    base,
    custom,
    uploadInterval: settings.uploadInterval,
    logInterval: settings.logInterval,
    expandedIoMax,
    timeDate: { ...settings.timeDate },
    channels: settings.channels.map((channel) => ({ ...channel })),
    registers: { ...registers },
    ports: [{ ...modemPort }],
  };
}

/**
 * What a simulated device says of itself in its `device` config frame while nobody has changed its
 * settings: its identity, its model's channels as reported, its registers, and the simulation's
 * upload interval, log interval and clock. The server's record of a `_DEMO` device and the browser
 * demo's device record are built from it.
 */
export function simulatedDeviceConfig(
  identity: DeviceIdentity,
  channels: readonly Pick<ChannelSpec, 'code' | 'name' | 'units' | 'alarm' | 'product'>[],
  registers: Readonly<Record<string, number>>,
) {
  const settings = {
    channels: reportedChannels(channels),
    uploadInterval: SIMULATED_UPLOAD_INTERVAL_MINUTES,
    logInterval: SIMULATED_LOG_INTERVAL_SECONDS,
    timeDate: SIMULATED_TIME_DATE,
  };
  return deviceConfig(identity, settings, registers, expandedIoPoints(channels.map((channel) => channel.code)));
}
