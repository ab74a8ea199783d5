/**
 * Pressure transmitters (core §9, application §9: "pressure offset constants 4 and 1" and "pressure
 * sensor scale factors switch at a threshold of 800000"; meanings and scale values not shown). Decided
 * in docs/decisions.md ("Pressure transmitter signals"): the two offsets are the live zeros of the two
 * standard transmitter outputs, a 4-20 mA current loop and a 1-5 V voltage output, and a controller's
 * analog input reads either as a whole number of microunits. No current loop reaches 800,000 µA and no
 * healthy 1-5 V transmitter reads under 1,000,000 µV, so the threshold tells the two scales apart.
 */

/** Live zero of a 4-20 mA current loop, mA. */
export const PRESSURE_OFFSET_MA = 4;
/** Live zero of a 1-5 V voltage output, V. */
export const PRESSURE_OFFSET_V = 1;
/** Raw readings above this are microvolts (a voltage output); at or below it, microamps (a current loop). */
export const PRESSURE_SCALE_SWITCH = 800_000;

export type PressureOutput = 'current' | 'voltage';

const OUTPUTS: Record<PressureOutput, { offset: number; span: number; microPerUnit: number }> = {
  current: { offset: PRESSURE_OFFSET_MA, span: 20 - PRESSURE_OFFSET_MA, microPerUnit: 1000 },
  voltage: { offset: PRESSURE_OFFSET_V, span: 5 - PRESSURE_OFFSET_V, microPerUnit: 1_000_000 },
};

/**
 * NAMUR NE 43: a transmitter saturates at 3.8 mA and 20.5 mA (the same share of a 1-5 V span below
 * its zero and above its top); a signal beyond those is a fault (broken wire, failed sensor).
 */
const SATURATION_BELOW = 0.2 / 16;
const SATURATION_ABOVE = 0.5 / 16;

/**
 * What a controller's analog input reads from a transmitter showing `pressure` of its `fullScale`:
 * the output saturates as NE 43 says, and the input resolves 1 µA or 1 µV.
 */
export function transmitterRaw(output: PressureOutput, pressure: number, fullScale: number): number {
  const { offset, span, microPerUnit } = OUTPUTS[output];
  const share = Math.min(1 + SATURATION_ABOVE, Math.max(-SATURATION_BELOW, pressure / fullScale));
  return Math.round((offset + share * span) * microPerUnit);
}

/**
 * The pressure a raw analog reading stands for, in the units of `fullScale`: microvolts above
 * {@link PRESSURE_SCALE_SWITCH}, microamps otherwise; readings in the saturation bands count as 0 or
 * full scale; null for a fault (outside them).
 */
export function pressureFromRaw(raw: number, fullScale: number): number | null {
  const { offset, span, microPerUnit } = OUTPUTS[raw > PRESSURE_SCALE_SWITCH ? 'voltage' : 'current'];
  const share = (raw / microPerUnit - offset) / span;
  if (share < -SATURATION_BELOW - 1e-9 || share > 1 + SATURATION_ABOVE + 1e-9) return null;
  return Math.min(1, Math.max(0, share)) * fullScale;
}

/** The value a channel's own configuration gives `signal` for a channel that reports a raw transmitter signal. */
export const RAW_TRANSMITTER_SIGNAL = 'raw';

/**
 * The full scale of a channel that reports its transmitter's raw signal (microamps or microvolts)
 * rather than an engineering value: the channel's own configuration says `signal: 'raw'` and gives
 * `fullScale` (the pressure at 20 mA or 5 V, in the channel's units). Null for any other channel.
 */
export function rawTransmitterFullScale(
  config: Readonly<Record<string, string | number | boolean>> | undefined,
): number | null {
  if (config?.signal !== RAW_TRANSMITTER_SIGNAL) return null;
  const { fullScale } = config;
  return typeof fullScale === 'number' && Number.isFinite(fullScale) && fullScale > 0 ? fullScale : null;
}
