import { pressureFromRaw, transmitterRaw, type PressureOutput } from '@fieldlink/domain/pressure-signal';

/**
 * A pressure transmitter wired to the controller: the pressure it shows travels as its output signal
 * (saturating as real ones do, resolved to 1 µA or 1 µV) and the controller turns the raw reading back
 * into a pressure by the domain's rule, as the firmware does before it reports the channel.
 */
export class PressureTransmitter {
  constructor(
    private readonly output: PressureOutput,
    /** The pressure at the top of the output's span (20 mA or 5 V), in the channel's units. */
    private readonly fullScale: number,
  ) {}

  /** The pressure the controller reports; 0 for a reading it takes as a fault. */
  read(pressure: number): number {
    return pressureFromRaw(transmitterRaw(this.output, pressure, this.fullScale), this.fullScale) ?? 0;
  }
}
