import { SPRAYER_CHANNELS as CH } from '@fieldlink/domain/spray';

/** What a sprayer card shows of the device's latest values; undefined where none has come. */
export interface SprayerReadings {
  level: number | undefined;
  emptyLevel: number | undefined;
  refillLevel: number | undefined;
  pressure: number | undefined;
  wind: number | undefined;
  windLimit: number | undefined;
  zoneOn: [boolean, boolean];
  spraysToday: [number | undefined, number | undefined];
  secondsToday: [number | undefined, number | undefined];
  maxRates: [number | undefined, number | undefined];
  /** GPF-9: the unit allows skip-spray. */
  skipEnabled: boolean;
  skipActive: boolean;
  /** Minutes of skip time left. */
  skipLeft: number | undefined;
  /** SP-2: hours a skip lasts. */
  skipHours: number | undefined;
  /** SP-1: seconds of one schedule step. */
  stepSeconds: number | undefined;
}

/** The card's readings from the latest value of each channel. */
export function sprayerReadings(value: (code: string) => number | undefined): SprayerReadings {
  return {
    level: value(CH.tankLevel),
    emptyLevel: value(CH.emptyLevel),
    refillLevel: value(CH.refillLevel),
    pressure: value(CH.pumpPressure),
    wind: value(CH.windSpeed),
    windLimit: value('sp4'),
    zoneOn: [value(CH.zone1) === 1, value(CH.zone2) === 1],
    spraysToday: [value(CH.spraysTodayZone1), value(CH.spraysTodayZone2)],
    secondsToday: [value(CH.sprayTimeTodayZone1), value(CH.sprayTimeTodayZone2)],
    maxRates: [value(CH.maxSprayRateZone1), value(CH.maxSprayRateZone2)],
    skipEnabled: value('gpf9') === 1,
    skipActive: value(CH.skipSprayActive) === 1,
    skipLeft: value(CH.skipTime),
    skipHours: value('sp2'),
    stepSeconds: value('sp1'),
  };
}

export type SprayCommandKind = 'sprayZone1' | 'sprayZone2' | 'stop' | 'test' | 'skip' | 'resume';

/** A sprayer command as its confirmation names it, and the channel write it sends once confirmed. */
export interface SprayCommand {
  action: string;
  output: string;
  code: typeof CH.manualSprayControl | typeof CH.testSpray | typeof CH.skipSprayActive;
  now: string;
  after: string;
  value: number;
}

/**
 * Each spray and skip of the card (issue 36 item 1: confirmed first, naming what changes): manual
 * spray writes the zone (0 stops), test spray 1, skip-spray 1 to skip and 0 to resume.
 */
export function sprayCommand(kind: SprayCommandKind, readings: SprayerReadings): SprayCommand {
  const { zoneOn, skipHours } = readings;
  const sprayingNow = zoneOn[0] ? 'Spraying zone 1' : zoneOn[1] ? 'Spraying zone 2' : 'Idle';
  const manual = { output: 'Manual spray', code: CH.manualSprayControl, now: sprayingNow };
  const skip = { output: 'Skip-spray', code: CH.skipSprayActive };
  switch (kind) {
    case 'sprayZone1':
      return { action: 'Spray zone 1', ...manual, after: 'Spraying zone 1', value: 1 };
    case 'sprayZone2':
      return { action: 'Spray zone 2', ...manual, after: 'Spraying zone 2', value: 2 };
    case 'stop':
      return { action: 'Stop spraying', ...manual, after: 'Idle', value: 0 };
    case 'test':
      return {
        action: 'Test spray',
        output: 'Test spray',
        code: CH.testSpray,
        now: sprayingNow,
        after: 'Test spraying',
        value: 1,
      };
    case 'skip':
      return {
        action: 'Skip sprays',
        ...skip,
        now: 'Scheduled sprays run',
        after: skipHours === undefined ? 'Skipping sprays' : `Skipping sprays for ${skipHours} h`,
        value: 1,
      };
    case 'resume':
      return { action: 'Resume sprays', ...skip, now: 'Skipping sprays', after: 'Scheduled sprays run', value: 0 };
  }
}
