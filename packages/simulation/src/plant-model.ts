import { isRegisterValue } from '@fieldlink/domain/int16';
import type { DeviceKind } from './device-kind';
import { hourOfDay } from './daily-cycle';
import { parseChannelCode, resolveChannelCode } from './channel-codes';
import { SeededRandom } from './seeded-random';

/** One channel a simulated device reports. */
export interface ChannelSpec {
  readonly code: string;
  readonly name: string;
  /** The unit of its value (`°C`, `m³`), reported to the console with the channel. */
  readonly units?: string;
  /** Bounds the plant stays within in normal running; writes outside them are refused. */
  readonly range: readonly [number, number];
  /** Setpoints and relays accept writes; inputs, totals and counters are read-only. */
  readonly writable?: boolean;
  readonly alarm?: boolean;
  /** A smart shelf's counting channel: the product it holds, from the shelf's planogram. */
  readonly product?: {
    readonly sku: string;
    readonly slotCount: number;
    /** Depth of one unit, mm. */
    readonly depth: number;
    readonly planogramId: string;
  };
}

/**
 * A model's channels as its device reports them in its config frame and record: each uploaded, an
 * alarm only where the model sets one, the unit and the shelf product where it has them. The
 * simulator's devices and the browser demo's report the same.
 */
export function reportedChannels(
  channels: readonly Pick<ChannelSpec, 'code' | 'name' | 'units' | 'alarm' | 'product'>[],
) {
  return channels.map(({ code, name, units, alarm, product }) => ({
    code,
    name,
    ...(units ? { units } : {}),
    upload: true,
    alarm: alarm ?? false,
    ...(product ? { product: { ...product } } : {}),
  }));
}

export interface PlantModelOptions {
  /** Same seed and start time, same values for the same steps. */
  readonly seed: number;
  /** Simulated unix milliseconds at construction; `step` advances from here. */
  readonly startTimeMs: number;
  /** Site offset from UTC for daily cycles (demand peaks, opening hours). */
  readonly utcOffsetMinutes?: number;
}

/** What the device runtime needs from a plant model. */
export interface DeviceModel {
  readonly kind: DeviceKind;
  readonly channels: readonly ChannelSpec[];
  /** Simulated unix milliseconds. */
  readonly timeMs: number;
  /** Advances the plant by `dtSeconds` of simulated time. */
  step(dtSeconds: number): void;
  /** Current reading of every channel, by the device's own code. */
  values(): Record<string, number>;
  /** The reading of one channel under any spelling of its code, or undefined when there is none. */
  readChannel(code: string): number | undefined;
  /** Sets a setpoint or relay; the new value, or undefined when the write is refused. */
  writeChannel(code: string, value: number): number | undefined;
  /** The register map as a device config reports it. */
  registers(): Record<string, number>;
  readRegister(register: number): number | undefined;
  /** Stores a 16-bit register; the stored value, or undefined when the device has no such register. */
  writeRegister(register: number, value: number): number | undefined;
  /** Alarm bit mask reported as `status.sp`. */
  statusBits(): number;
  /**
   * Counts the changes the device made to its own settings registers (a status word it latches): when
   * it moves, the device sends its configuration again, as it does after a register write.
   */
  settingsRevision(): number;
  /** Moves the site's clock to another offset from UTC (minutes east), as a time zone command does. */
  setUtcOffset(minutes: number): void;
}

/**
 * Shared mechanics of the plant models: fixed-size integration steps, channel-code spelling, write
 * checks and the 16-bit register bank. A subclass supplies the physics in `advance`.
 */
export abstract class PlantModel implements DeviceModel {
  abstract readonly kind: DeviceKind;
  abstract readonly channels: readonly ChannelSpec[];
  protected readonly random: SeededRandom;
  protected utcOffsetMinutes: number;
  private time: number;
  private readonly registerBank = new Map<number, number>();
  private revision = 0;

  constructor(options: PlantModelOptions) {
    this.random = new SeededRandom(options.seed);
    this.time = options.startTimeMs;
    this.utcOffsetMinutes = options.utcOffsetMinutes ?? 0;
  }

  get timeMs(): number {
    return this.time;
  }

  /**
   * Longest integration step in seconds. The fastest time constants (sensor lags) are a minute or
   * more, so 5 s keeps explicit Euler stable and lets a controller act several times per band.
   */
  protected get maxStepSeconds(): number {
    return 5;
  }

  step(dtSeconds: number): void {
    if (!Number.isFinite(dtSeconds) || dtSeconds <= 0) return;
    let remaining = dtSeconds;
    while (remaining > 1e-9) {
      const h = Math.min(remaining, this.maxStepSeconds);
      this.time += h * 1000;
      this.advance(h);
      remaining -= h;
    }
  }

  abstract values(): Record<string, number>;

  statusBits(): number {
    return 0;
  }

  settingsRevision(): number {
    return this.revision;
  }

  /** Says that the device changed a settings register by itself (see {@link settingsRevision}). */
  protected settingsChanged(): void {
    this.revision += 1;
  }

  readChannel(code: string): number | undefined {
    const own = this.resolve(code);
    return own === undefined ? undefined : this.values()[own];
  }

  writeChannel(code: string, value: number): number | undefined {
    const own = this.resolve(code);
    const spec = own === undefined ? undefined : this.channels.find((channel) => channel.code === own);
    if (!spec?.writable || !Number.isFinite(value)) return undefined;
    if (parseChannelCode(spec.code)?.prefix === 'do' && value !== 0 && value !== 1) return undefined;
    if (value < spec.range[0] || value > spec.range[1]) return undefined;
    return this.applyWrite(spec.code, value);
  }

  setUtcOffset(minutes: number): void {
    if (Number.isFinite(minutes)) this.utcOffsetMinutes = Math.round(minutes);
  }

  registers(): Record<string, number> {
    return Object.fromEntries([...this.registerBank].map(([register, value]) => [String(register), value]));
  }

  readRegister(register: number): number | undefined {
    return this.registerBank.get(register);
  }

  writeRegister(register: number, value: number): number | undefined {
    if (!this.registerBank.has(register) || !isRegisterValue(value)) {
      return undefined;
    }
    // Registers are 16-bit words: a negative value is stored as its two's complement.
    const word = value & 0xffff;
    this.registerBank.set(register, word);
    return word;
  }

  /** Declares the device's registers with their start values. */
  protected defineRegisters(initial: Readonly<Record<number, number>>): void {
    for (const [register, value] of Object.entries(initial)) this.registerBank.set(Number(register), value & 0xffff);
  }

  /** Sets a register the device itself keeps up to date (a status word, a reading it displays). */
  protected setRegister(register: number, value: number): void {
    this.registerBank.set(register, value & 0xffff);
  }

  protected register(register: number): number {
    return this.registerBank.get(register) ?? 0;
  }

  protected hourOfDay(): number {
    return hourOfDay(this.time, this.utcOffsetMinutes);
  }

  /** Integrates the plant over `h` seconds, at most `maxStepSeconds`. */
  protected abstract advance(h: number): void;

  /** Applies a checked write to a writable channel; returns the value now in force, or undefined to refuse. */
  protected abstract applyWrite(code: string, value: number): number | undefined;

  private resolve(code: string): string | undefined {
    return resolveChannelCode(
      code,
      this.channels.map((channel) => channel.code),
    );
  }
}
