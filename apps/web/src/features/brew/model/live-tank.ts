import type { Tank } from '@fieldlink/api/brew';
import type { LatestValue } from '@fieldlink/api/realtime';
import { batchGravity, clampCo2Flow, tankLevel, type GravityParameters } from '@fieldlink/domain/brew';

/** A tank's readings now, by role, from the live values of its device. */
export interface LiveTank {
  temperature: number | null;
  setpoint: number | null;
  upperPressure: number | null;
  lowerPressure: number | null;
  co2Flow: number | null;
  ph: number | null;
  gravity: GravityParameters;
}

/**
 * The tank as it is now: its device's live values through the tank's channel map, the level from the
 * pressure difference and the gravity estimate recomputed by the domain's rule (the server's answer
 * when a reading is missing).
 */
export function liveTank(tank: Tank, latest: Readonly<Record<string, LatestValue>> | undefined): LiveTank {
  const map = tank.channelsMap;
  const value = (code: string) => latest?.[code]?.value ?? null;
  const upperPressure = value(map.upperPressure);
  const lowerPressure = value(map.lowerPressure);
  const calibration = tank.batchInfo?.calibration.tankLevel ?? tank.calibration.tankLevel;
  const level = calibration ? tankLevel(upperPressure, lowerPressure, calibration) : null;
  const batch = tank.batchInfo;
  const live = latest
    ? batchGravity(
        batch && {
          originalGravity: batch.props.originalGravity,
          co2TotalAtStart: batch.co2TotalAtStart,
          co2TotalGain: batch.calibration.co2TotalGain,
          tankLevelAtFermStart: batch.tankLevelAtFermStart,
          frozenGravity: batch.frozenGravity,
        },
        { co2Total: value(map.co2Total), temperature: value(map.temperature), headPressure: upperPressure },
        level,
      )
    : null;
  const flow = value(map.co2Flow);
  return {
    temperature: value(map.temperature),
    setpoint: value(map.temperatureSetpoint),
    upperPressure,
    lowerPressure,
    co2Flow: flow === null ? null : clampCo2Flow(flow),
    ph: value(map.ph),
    gravity: live && (live.currentGravity !== null || !batch) ? live : tank.gravityParameters,
  };
}
