import { describe, expect, it } from 'vitest';
import {
  INITIAL_SETTINGS_STATE,
  controlState,
  draftError,
  isApplying,
  isSetpointCode,
  parseSettingKey,
  reportedSettings,
  sameSettingValue,
  settingError,
  settingsMessages,
  settingsReducer,
  settingsRequestError,
  settingsRequestOf,
  timeZoneWriteRoute,
  type DeviceSettingsState,
  type SettingsEvent,
  type SettingsMessage,
  type SettingValue,
} from './device-settings';

const DEVICE = {
  channels: [
    { code: 'c1', name: 'Temperature', upload: true, alarm: true },
    { code: 'do1', name: 'Glycol valve', upload: false },
    { code: 'sp1' },
  ],
  uploadInterval: 1,
  logInterval: 60,
  registers: { '5405': 3 },
  timeDate: { tzName: 'Australia/Sydney' },
  latest: { c1: { value: 4.2 }, sp1: { value: 18 }, sp2: { value: 4 }, do1: { value: 1 } },
};

const loaded = (): DeviceSettingsState =>
  settingsReducer(INITIAL_SETTINGS_STATE, { type: 'LOADED', reported: reportedSettings(DEVICE) });

const run = (state: DeviceSettingsState, ...events: SettingsEvent[]) => events.reduce(settingsReducer, state);

describe('device settings keys', () => {
  it.each([
    ['channel:c1:name', { kind: 'channel', code: 'c1', field: 'name' }],
    ['channel:xdo3:alarm', { kind: 'channel', code: 'xdo3', field: 'alarm' }],
    ['setpoint:sp2', { kind: 'setpoint', code: 'sp2' }],
    ['register:5405', { kind: 'register', register: 5405 }],
    ['register:65535', { kind: 'register', register: 65535 }],
    ['uploadInterval', { kind: 'uploadInterval' }],
    ['logInterval', { kind: 'logInterval' }],
    ['timeZone', { kind: 'timeZone' }],
    ['register:65536', null],
    ['register:007', null],
    ['channel:c1:colour', null],
    ['name', null],
  ])('%s -> %j', (key, parsed) => expect(parseSettingKey(key)).toEqual(parsed));

  it.each([
    ['sp1', true],
    ['s3', true],
    ['sp-2', true],
    ['c1', false],
    ['do1', false],
    ['gpf1', false],
    ['nope', false],
  ])('%s is a setpoint: %s', (code, expected) => expect(isSetpointCode(code)).toBe(expected));
});

describe('reported settings (initial settings merged)', () => {
  it('reads channels with the protocol defaults, setpoint values, intervals, registers and the zone', () =>
    expect(reportedSettings(DEVICE)).toEqual({
      'channel:c1:name': 'Temperature',
      'channel:c1:upload': true,
      'channel:c1:alarm': true,
      'channel:do1:name': 'Glycol valve',
      'channel:do1:upload': false,
      'channel:do1:alarm': false,
      'channel:sp1:name': '',
      'channel:sp1:upload': true,
      'channel:sp1:alarm': false,
      'setpoint:sp1': 18,
      'setpoint:sp2': 4,
      uploadInterval: 1,
      logInterval: 60,
      'register:5405': 3,
      timeZone: 'Australia/Sydney',
    }));

  it('leaves out what the device has not reported', () =>
    expect(
      reportedSettings({
        channels: [],
        uploadInterval: null,
        logInterval: null,
        registers: {},
        timeDate: null,
        latest: {},
      }),
    ).toEqual({}));
});

describe('setting values', () => {
  it.each<[string, SettingValue, string | null]>([
    ['channel:c1:name', 'Tank 1 temperature', null],
    ['channel:c1:name', '', null],
    ['channel:c1:name', 'x'.repeat(65), 'A channel name has at most 64 characters.'],
    ['channel:c1:upload', false, null],
    ['channel:c1:alarm', 'yes', 'Choose on or off.'],
    ['uploadInterval', 5, null],
    ['uploadInterval', 0, 'Enter whole minutes from 1 to 1440.'],
    ['uploadInterval', 1.5, 'Enter whole minutes from 1 to 1440.'],
    ['uploadInterval', 1441, 'Enter whole minutes from 1 to 1440.'],
    ['logInterval', 86_400, null],
    ['logInterval', 0, 'Enter whole seconds from 1 to 86400.'],
    ['setpoint:sp1', -2.5, null],
    ['setpoint:sp1', Number.NaN, 'Enter a number.'],
    ['register:5405', -32768, null],
    ['register:5405', 65535, null],
    ['register:5405', 65536, 'A register holds a whole number from -32768 to 65535.'],
    ['register:5405', 1.5, 'A register holds a whole number from -32768 to 65535.'],
    ['timeZone', 'Europe/Berlin', null],
    ['timeZone', 'Mars/Olympus', 'Choose a time zone.'],
    ['colour', 'red', 'No such setting.'],
  ])('%s = %j -> %s', (key, value, error) => expect(settingError(key, value)).toBe(error));

  it.each<[string, SettingValue, SettingValue, boolean]>([
    ['register:1', -2, 65534, true],
    ['register:1', 65535, -1, true],
    ['register:1', 2, 3, false],
    ['setpoint:sp1', 18.5, 18.5000000001, true],
    ['setpoint:sp1', 18.5, 18.6, false],
    ['channel:c1:name', ' Pump ', 'Pump', true],
    ['channel:c1:upload', true, true, true],
    ['channel:c1:upload', true, false, false],
  ])('%s: %j and %j are the same: %s', (key, a, b, same) => expect(sameSettingValue(key, a, b)).toBe(same));
});

describe('what an Apply sends', () => {
  const changes = {
    'channel:c2:upload': false,
    'channel:c1:name': ' Tank temperature ',
    'channel:c1:alarm': false,
    uploadInterval: 5,
    logInterval: 30,
    'setpoint:sp2': 6.5,
    'register:5406': -2,
    'register:12': 1,
    timeZone: 'Europe/Berlin',
  };

  it('builds the request without the time zone, channels in code order', () =>
    expect(settingsRequestOf(changes)).toEqual({
      channels: [
        { code: 'c1', name: 'Tank temperature', alarm: false },
        { code: 'c2', upload: false },
      ],
      uploadInterval: 5,
      logInterval: 30,
      setpoints: { sp2: 6.5 },
      registers: { '12': 1, '5406': -2 },
    }));

  it('turns a request into messages: config, setpoints, registers by number, then the time zone', () =>
    expect(
      settingsMessages({
        ...settingsRequestOf(changes),
        timeDate: { tzName: 'Europe/Berlin', tzRule: 'CET-1CEST,M3.5.0,M10.5.0/3' },
      }),
    ).toEqual([
      {
        cmd: 'writeConfig',
        channels: [
          { code: 'c1', name: 'Tank temperature', alarm: false },
          { code: 'c2', upload: false },
        ],
        uploadInterval: 5,
        logInterval: 30,
      },
      { cmd: 'writeChannel', code: 'sp2', value: 6.5 },
      { cmd: 'writeRegister', register: 12, value: 1 },
      { cmd: 'writeRegister', register: 5406, value: -2 },
      { cmd: 'timeDate', tzName: 'Europe/Berlin', tzRule: 'CET-1CEST,M3.5.0,M10.5.0/3' },
    ]));

  it('sends no config message when only registers change', () =>
    expect(settingsMessages({ registers: { '7': 1 } })).toEqual([{ cmd: 'writeRegister', register: 7, value: 1 }]));

  it.each([
    [{ setpoints: { c1: 4 } }, 'Not a setpoint: c1'],
    [{ channels: [{ code: 'c1' }, { code: 'c1', name: 'Again' }] }, 'A channel is named twice.'],
    [{ uploadInterval: 0 }, 'uploadInterval: Enter whole minutes from 1 to 1440.'],
    [
      { channels: [{ code: 'c1', name: 'x'.repeat(70) }] },
      'channel:c1:name: A channel name has at most 64 characters.',
    ],
    [{ timeDate: { tzName: 'Nowhere/Town', tzRule: 'UTC0' } }, 'timeZone: Choose a time zone.'],
    [{ registers: { '70000': 1 } }, 'No such register: 70000'],
    [{ setpoints: { sp1: 4 }, registers: { '1': 2 } }, null],
  ])('request %j -> %s', (request, error) => expect(settingsRequestError(request)).toBe(error));

  it.each<[boolean, unknown[], 'realtime' | 'message']>([
    [true, [], 'realtime'],
    [true, [{ id: 'm1' }], 'message'],
    [false, [], 'message'],
    [false, [{ id: 'm1' }], 'message'],
  ])('online %s with unsent %j: the time zone goes by %s', (isConnected, unsent, route) =>
    expect(timeZoneWriteRoute(isConnected, unsent)).toBe(route),
  );
});

describe('the settings screen', () => {
  const rename: SettingsMessage = { cmd: 'writeConfig', channels: [{ code: 'c1', name: 'Wort' }], uploadInterval: 5 };

  it('starts not loaded, every control spinning', () => {
    expect(INITIAL_SETTINGS_STATE.phase).toBe('notLoaded');
    expect(controlState(INITIAL_SETTINGS_STATE, 'uploadInterval')).toEqual({ status: 'spinning', reason: 'loading' });
  });

  it('ignores edits before the settings are loaded', () =>
    expect(settingsReducer(INITIAL_SETTINGS_STATE, { type: 'EDITED', key: 'uploadInterval', value: 5 })).toBe(
      INITIAL_SETTINGS_STATE,
    ));

  it.each<[string, ReturnType<typeof controlState>]>([
    ['uploadInterval', { status: 'value', value: 1, changed: false, queued: false }],
    ['channel:c1:name', { status: 'value', value: 'Temperature', changed: false, queued: false }],
    // A setpoint the device has not given a value for yet waits for it.
    ['setpoint:sp3', { status: 'spinning', reason: 'loading' }],
  ])('loaded: %s -> %j', (key, expected) => {
    const state = loaded();
    expect(state.phase).toBe('loaded');
    expect(controlState(state, key)).toEqual(expected);
  });

  it('merges later reports into the initial settings', () => {
    const state = run(loaded(), { type: 'LOADED', reported: { 'setpoint:sp3': 7 } });
    expect(controlState(state, 'setpoint:sp3')).toEqual({ status: 'value', value: 7, changed: false, queued: false });
    expect(controlState(state, 'uploadInterval')).toMatchObject({ value: 1 });
  });

  it.each<[string, SettingValue, boolean]>([
    ['uploadInterval', 5, true],
    ['uploadInterval', 1, false],
    ['channel:c1:name', 'Temperature ', false],
    ['register:5405', 3, false],
  ])('an edit of %s to %j is a change: %s', (key, value, changed) => {
    const state = run(loaded(), { type: 'EDITED', key, value });
    expect(key in state.draft).toBe(changed);
  });

  it('sets pending flags on Apply: each changed control spins until the device reports its value', () => {
    const applying = run(
      loaded(),
      { type: 'EDITED', key: 'channel:c1:name', value: 'Wort' },
      { type: 'EDITED', key: 'uploadInterval', value: 5 },
      { type: 'APPLYING' },
    );
    expect(applying.pending).toEqual({ 'channel:c1:name': 'Wort', uploadInterval: 5 });
    expect(applying.draft).toEqual({});
    expect(isApplying(applying)).toBe(true);
    expect(controlState(applying, 'uploadInterval')).toEqual({ status: 'spinning', reason: 'applying' });
    expect(controlState(applying, 'logInterval')).toMatchObject({ status: 'value' });

    const sent = run(applying, { type: 'APPLIED', results: [{ message: rename, outcome: { kind: 'sent' } }] });
    expect(sent.phase).toBe('courtesy');
    expect(sent.courtesy).toEqual({
      tone: 'success',
      text: '2 changes sent; each shows its new value once the device reports it.',
    });
    expect(controlState(sent, 'uploadInterval')).toEqual({ status: 'spinning', reason: 'applying' });

    const reported = run(sent, { type: 'LOADED', reported: { 'channel:c1:name': 'Wort', uploadInterval: 5 } });
    expect(reported.pending).toEqual({});
    expect(isApplying(reported)).toBe(false);
    expect(controlState(reported, 'uploadInterval')).toEqual({
      status: 'value',
      value: 5,
      changed: false,
      queued: false,
    });
    expect(reported.phase).toBe('courtesy');
    expect(run(reported, { type: 'COURTESY_DISMISSED' }).phase).toBe('loaded');
  });

  it('keeps a pending flag while the device reports another value', () => {
    const state = run(
      loaded(),
      { type: 'EDITED', key: 'uploadInterval', value: 5 },
      { type: 'APPLYING' },
      { type: 'LOADED', reported: { uploadInterval: 1 } },
    );
    expect(controlState(state, 'uploadInterval')).toEqual({ status: 'spinning', reason: 'applying' });
  });

  it('shows messages queued for an offline device as such, until it reports the value', () => {
    const queued = run(
      loaded(),
      { type: 'EDITED', key: 'channel:c1:name', value: 'Wort' },
      { type: 'EDITED', key: 'uploadInterval', value: 5 },
      { type: 'APPLYING' },
      { type: 'APPLIED', results: [{ message: rename, outcome: { kind: 'queued' } }] },
    );
    expect(controlState(queued, 'channel:c1:name')).toEqual({
      status: 'value',
      value: 'Wort',
      changed: false,
      queued: true,
    });
    expect(queued.courtesy).toEqual({
      tone: 'info',
      text: 'The device is offline: 2 changes will be sent when it reconnects.',
    });
    expect(isApplying(queued)).toBe(false);
    const delivered = run(queued, { type: 'LOADED', reported: { 'channel:c1:name': 'Wort', uploadInterval: 5 } });
    expect(delivered.queued).toEqual({});
    expect(controlState(delivered, 'channel:c1:name')).toMatchObject({ value: 'Wort', queued: false });
  });

  it('shows unsent messages of an earlier visit as queued', () => {
    const state = settingsReducer(INITIAL_SETTINGS_STATE, {
      type: 'LOADED',
      reported: reportedSettings(DEVICE),
      unsent: [{ cmd: 'writeRegister', register: 5405, value: 9 }],
    });
    expect(controlState(state, 'register:5405')).toEqual({ status: 'value', value: 9, changed: false, queued: true });
  });

  it('puts a failed message on its controls as an error, the others stay', () => {
    const state = run(
      loaded(),
      { type: 'EDITED', key: 'register:5405', value: 9 },
      { type: 'EDITED', key: 'setpoint:sp1', value: 20 },
      { type: 'APPLYING' },
      {
        type: 'APPLIED',
        results: [
          { message: { cmd: 'writeChannel', code: 'sp1', value: 20 }, outcome: { kind: 'sent' } },
          {
            message: { cmd: 'writeRegister', register: 5405, value: 9 },
            outcome: { kind: 'failed', message: 'Command Failed.' },
          },
        ],
      },
    );
    expect(controlState(state, 'register:5405')).toEqual({ status: 'error', message: 'Command Failed.', value: 3 });
    expect(controlState(state, 'setpoint:sp1')).toEqual({ status: 'spinning', reason: 'applying' });
    expect(state.courtesy?.tone).toBe('warning');
    expect(state.courtesy?.text).toBe(
      '1 change sent; each shows its new value once the device reports it. 1 change failed; see the marked settings.',
    );
    // Editing the control again clears its error.
    expect(controlState(run(state, { type: 'EDITED', key: 'register:5405', value: 8 }), 'register:5405')).toMatchObject(
      {
        status: 'value',
        value: 8,
        changed: true,
      },
    );
  });

  it('marks every applying control when the whole Apply is refused, queued ones stay queued', () => {
    const state = run(
      loaded(),
      { type: 'LOADED', reported: {}, unsent: [{ cmd: 'writeRegister', register: 5405, value: 9 }] },
      { type: 'EDITED', key: 'uploadInterval', value: 5 },
      { type: 'APPLYING' },
      {
        type: 'APPLY_FAILED',
        message: 'Changing device settings needs the ADD_DEVICES or ADD_EDIT_DELETE_GROUPS permission.',
      },
    );
    expect(controlState(state, 'uploadInterval')).toMatchObject({ status: 'error' });
    expect(controlState(state, 'register:5405')).toMatchObject({ status: 'value', queued: true });
    expect(state.phase).toBe('courtesy');
  });

  it('resets: the draft and errors go, the reported values show again', () => {
    const state = run(
      loaded(),
      { type: 'EDITED', key: 'uploadInterval', value: 5 },
      { type: 'EDITED', key: 'logInterval', value: 0 },
    );
    expect(draftError(state)).toEqual({ key: 'logInterval', message: 'Enter whole seconds from 1 to 86400.' });
    const reset = run(state, { type: 'RESET' });
    expect(reset.phase).toBe('reset');
    expect(reset.draft).toEqual({});
    expect(draftError(reset)).toBeNull();
    expect(controlState(reset, 'uploadInterval')).toMatchObject({ value: 1, changed: false });
    expect(run(reset, { type: 'EDITED', key: 'uploadInterval', value: 2 }).phase).toBe('loaded');
    expect(settingsReducer(INITIAL_SETTINGS_STATE, { type: 'RESET' })).toBe(INITIAL_SETTINGS_STATE);
  });
});
