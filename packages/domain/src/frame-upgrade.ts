/**
 * Device frame upgrade (specification core §4): frames of versions 1 to 3 are lifted to version 4;
 * `update` becomes `status`; a config output frame of the main relay group becomes subtype `dOut`; a
 * secondary input becomes `secondary`; unsupported versions are an error. The legacy shapes, which
 * the specification does not show, are defined in docs/device-protocol.md.
 *
 * The upgrade only reshapes: the result is still checked against the version 4 schema of
 * `packages/api` (`DeviceFrame`) before anything is stored.
 */

/** The version every frame is upgraded to. */
export const CURRENT_FRAME_VERSION = 4;
/** Versions that are upgraded. */
export const LEGACY_FRAME_VERSIONS = [1, 2, 3] as const;

/** Any frame version this module reads. */
export type FrameVersion = (typeof LEGACY_FRAME_VERSIONS)[number] | typeof CURRENT_FRAME_VERSION;

/** A frame in version 4 shape, not yet validated. */
export type UpgradedFrame = { v: typeof CURRENT_FRAME_VERSION } & Record<string, unknown>;

/** The outcome of {@link upgradeFrame}: the frame in version 4 shape, or why it cannot be read. */
export type UpgradeResult =
  { ok: true; frame: UpgradedFrame; fromVersion: FrameVersion } | { ok: false; error: string };

type MutableFrame = Record<string, unknown>;

/** Thrown inside this module only, to stop an upgrade step; turned into `{ok: false}` below. */
class FrameError extends Error {}

/**
 * Upgrades a parsed JSON frame of any supported version to version 4. Never throws: whatever arrives
 * from a device, the answer is a result, so one bad frame touches no other device. The input is not
 * changed.
 */
export function upgradeFrame(raw: unknown): UpgradeResult {
  try {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      return { ok: false, error: 'Frame is not a JSON object' };
    }
    // Version 4, what devices send today: one copy. Taking `v` out and putting it back made two, the
    // first left slow by `delete` (docs/decisions.md, "Issue 41 items 1-3").
    if (Object.hasOwn(raw, 'v') && (raw as MutableFrame).v === CURRENT_FRAME_VERSION && !Object.hasOwn(raw, 'ver')) {
      return { ok: true, frame: { ...raw } as UpgradedFrame, fromVersion: CURRENT_FRAME_VERSION };
    }
    const frame: MutableFrame = { ...raw };
    const fromVersion = takeVersion(frame);
    if (fromVersion <= 1) upgradeFrom1(frame);
    if (fromVersion <= 2) upgradeFrom2(frame);
    if (fromVersion <= 3) upgradeFrom3(frame);
    return { ok: true, frame: { v: CURRENT_FRAME_VERSION, ...frame }, fromVersion };
  } catch (error) {
    if (error instanceof FrameError) return { ok: false, error: error.message };
    // Only exotic non-JSON input (a throwing getter, a proxy) can get here; it is still just a bad frame.
    return { ok: false, error: 'Malformed frame' };
  }
}

/** Reads and removes the version: `v`, or `ver` as version 1 wrote it. */
function takeVersion(frame: MutableFrame): FrameVersion {
  const hasV = Object.hasOwn(frame, 'v');
  const hasVer = Object.hasOwn(frame, 'ver');
  if (hasV && hasVer) throw new FrameError('Frame carries both v and ver');
  if (!hasV && !hasVer) throw new FrameError('Frame has no version');
  const version = hasV ? frame.v : frame.ver;
  delete frame.v;
  delete frame.ver;
  if (version === 1 || version === 2 || version === 3 || version === 4) return version;
  throw new FrameError(`Unsupported frame version ${describeValue(version)}`);
}

/** Version 1 -> 2: `ts` becomes `t`; log values, an array of `{code, value}` pairs, become a `data` map. */
function upgradeFrom1(frame: MutableFrame): void {
  renameField(frame, 'ts', 't');
  if (frame.type !== 'log' || !Object.hasOwn(frame, 'values')) return;
  const pairs = frame.values;
  if (!Array.isArray(pairs)) throw new FrameError('Version 1 log values must be an array of {code, value}');
  const data: [string, number][] = [];
  const extra: [string, { tempSp?: number; diff?: number }][] = [];
  const seen = new Set<string>();
  pairs.forEach((pair: unknown, index) => {
    const { code, value, tempSp, diff } = readPair(pair, index);
    if (seen.has(code)) throw new FrameError(`Version 1 log repeats channel ${describeValue(code)}`);
    seen.add(code);
    data.push([code, value]);
    if (tempSp !== undefined || diff !== undefined) {
      extra.push([code, { ...(tempSp !== undefined && { tempSp }), ...(diff !== undefined && { diff }) }]);
    }
  });
  delete frame.values;
  // fromEntries defines own properties, so a code such as `__proto__` cannot reach a prototype.
  frame.data = Object.fromEntries(data);
  if (extra.length > 0) frame.extra = Object.fromEntries(extra);
}

function readPair(pair: unknown, index: number): { code: string; value: number; tempSp?: number; diff?: number } {
  if (typeof pair !== 'object' || pair === null || Array.isArray(pair)) {
    throw new FrameError(`Version 1 log value ${index} is not an object`);
  }
  const { code, value, tempSp, diff } = pair as Record<string, unknown>;
  if (typeof code !== 'string' || typeof value !== 'number') {
    throw new FrameError(`Version 1 log value ${index} needs a string code and a number value`);
  }
  if ((tempSp !== undefined && typeof tempSp !== 'number') || (diff !== undefined && typeof diff !== 'number')) {
    throw new FrameError(`Version 1 log value ${index} has a non-numeric tempSp or diff`);
  }
  return { code, value, tempSp, diff };
}

/** Version 2 -> 3: log `data` becomes `values`. */
function upgradeFrom2(frame: MutableFrame): void {
  if (frame.type === 'log') renameField(frame, 'data', 'values');
}

/**
 * Version 3 -> 4: `update` frames become `status`; config subtypes lose their `group`: output of the
 * main relay group (named or implied) becomes `dOut`, input of the secondary group `secondary`, input of
 * the main group `input`. Other groups never existed, so they are refused rather than guessed at.
 */
function upgradeFrom3(frame: MutableFrame): void {
  if (frame.type === 'update') {
    frame.type = 'status';
    return;
  }
  if (frame.type !== 'config') return;
  const group = Object.hasOwn(frame, 'group') ? frame.group : 'main';
  if (frame.subtype === 'output') {
    if (group !== 'main') throw new FrameError(`Unsupported output group ${describeValue(group)}`);
    frame.subtype = 'dOut';
    delete frame.group;
  } else if (frame.subtype === 'input') {
    if (group === 'secondary') frame.subtype = 'secondary';
    else if (group !== 'main') throw new FrameError(`Unsupported input group ${describeValue(group)}`);
    delete frame.group;
  }
}

function renameField(frame: MutableFrame, from: string, to: string): void {
  if (!Object.hasOwn(frame, from)) return;
  if (Object.hasOwn(frame, to)) throw new FrameError(`Frame carries both ${from} and ${to}`);
  frame[to] = frame[from];
  delete frame[from];
}

/** A short, safe rendering of a value for an error message (never the whole of a large input). */
function describeValue(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 32 ? `${value.slice(0, 32)}...` : value);
  if (value === null) return 'null';
  return `of type ${typeof value}`;
}
