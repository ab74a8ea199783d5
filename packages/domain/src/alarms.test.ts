import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  alarmConditionText,
  NORMAL_EVALUATION,
  alarmCellText,
  alarmConfigProblem,
  alarmResponders,
  alarmStatus,
  decodeActiveAlarms,
  defaultAlarmConfig,
  disconnectionAudience,
  encodeActiveAlarms,
  escalationAt,
  escalationAudience,
  evaluateAlarm,
  matchesAlarmChoice,
  needsResponse,
  nextReminderAt,
  type AlarmConfig,
  type AlarmEvaluation,
  type AlarmTransition,
  type NoticeUser,
} from './alarms';

const config = (overrides: Partial<AlarmConfig> = {}): AlarmConfig => ({
  ...defaultAlarmConfig('c1'),
  enabled: true,
  high: 30,
  low: null,
  hysteresis: 2,
  delaySeconds: 0,
  ...overrides,
});

/** Runs samples `[seconds, value]` through the machine; answers the transitions' kinds and the end state. */
function run(samples: [number, number][], alarm: AlarmConfig, start: AlarmEvaluation = NORMAL_EVALUATION) {
  let state = start;
  const transitions: AlarmTransition[] = [];
  for (const [seconds, value] of samples) {
    const step = evaluateAlarm(state, { t: seconds * 1000, value }, alarm);
    state = step.next;
    transitions.push(...step.transitions);
  }
  return { state, kinds: transitions.map((transition) => `${transition.kind}@${transition.t / 1000}`) };
}

describe('alarm configuration', () => {
  it.each<[string, Partial<AlarmConfig>, string | null]>([
    ['a high threshold', {}, null],
    ['a low threshold', { high: null, low: 5 }, null],
    ['both', { low: 5 }, null],
    ['disabled without thresholds', { enabled: false, high: null }, null],
    ['enabled without thresholds', { high: null }, 'An enabled alarm needs a high or a low threshold.'],
    ['low above high', { low: 40 }, 'The low threshold must be below the high threshold.'],
    ['low equal to high', { low: 30 }, 'The low threshold must be below the high threshold.'],
    ['negative hysteresis', { hysteresis: -1 }, 'Hysteresis cannot be negative.'],
    ['hysteresis over the gap', { low: 29, hysteresis: 2 }, 'Hysteresis cannot exceed the gap between the thresholds.'],
    ['a fractional delay', { delaySeconds: 1.5 }, 'The delay must be a whole number of seconds.'],
    ['a delay over a day', { delaySeconds: 86_401 }, 'The delay may be at most a day (86400 seconds).'],
    ['an infinite threshold', { high: Number.POSITIVE_INFINITY }, 'Thresholds must be numbers.'],
    // The boundaries mutation testing showed untested (issue 37 item 7).
    ['a negative high threshold alone', { high: -5 }, null],
    ['no hysteresis', { low: 5, hysteresis: 0 }, null],
    ['hysteresis as wide as the gap', { low: 28, hysteresis: 2 }, null],
    ['hysteresis above a lone high threshold', { high: 1, hysteresis: 2 }, null],
    ['a negative delay', { delaySeconds: -1 }, 'The delay must be a whole number of seconds.'],
    ['a delay of exactly a day', { delaySeconds: 86_400 }, null],
    ['an unknown severity', { severity: 'PANIC' as AlarmConfig['severity'] }, 'Unknown severity.'],
  ])('%s', (_name, overrides, problem) => expect(alarmConfigProblem(config(overrides))).toBe(problem));
});

describe('evaluateAlarm', () => {
  it.each<[string, Partial<AlarmConfig>, [number, number][], string[], AlarmEvaluation['phase']]>([
    [
      'stays normal within the thresholds',
      {},
      [
        [0, 20],
        [1, 30],
      ],
      [],
      'NORMAL',
    ],
    [
      'raises at once without a delay',
      {},
      [
        [0, 20],
        [1, 31],
      ],
      ['raised@1'],
      'ACTIVE',
    ],
    [
      'waits for the delay',
      { delaySeconds: 10 },
      [
        [0, 31],
        [5, 35],
        [9, 32],
      ],
      [],
      'PENDING',
    ],
    [
      'raises once the delay has passed',
      { delaySeconds: 10 },
      [
        [0, 31],
        [5, 35],
        [10, 32],
      ],
      ['raised@10'],
      'ACTIVE',
    ],
    [
      'forgets a crossing that went back',
      { delaySeconds: 10 },
      [
        [0, 31],
        [5, 29],
        [10, 31],
      ],
      [],
      'PENDING',
    ],
    [
      'does not clear inside the hysteresis band',
      {},
      [
        [0, 31],
        [1, 29],
        [2, 28.5],
      ],
      ['raised@0'],
      'ACTIVE',
    ],
    [
      'clears at threshold minus hysteresis',
      {},
      [
        [0, 31],
        [1, 28],
      ],
      ['raised@0', 'cleared@1'],
      'NORMAL',
    ],
    [
      'raises again after clearing',
      {},
      [
        [0, 31],
        [1, 28],
        [2, 31],
      ],
      ['raised@0', 'cleared@1', 'raised@2'],
      'ACTIVE',
    ],
    [
      'raises below the low threshold',
      { high: null, low: 5 },
      [
        [0, 6],
        [1, 4],
      ],
      ['raised@1'],
      'ACTIVE',
    ],
    [
      'clears at low plus hysteresis',
      { high: null, low: 5 },
      [
        [0, 4],
        [1, 6],
        [2, 7],
      ],
      ['raised@0', 'cleared@2'],
      'NORMAL',
    ],
    [
      'swings from high to low',
      { low: 5 },
      [
        [0, 31],
        [1, 4],
      ],
      ['raised@0', 'cleared@1', 'raised@1'],
      'ACTIVE',
    ],
    [
      'ignores an older sample',
      {},
      [
        [5, 20],
        [1, 31],
      ],
      [],
      'NORMAL',
    ],
    ['clears when disabled', { enabled: false }, [[0, 31]], [], 'NORMAL'],
    [
      'evaluates a sample as new as the newest',
      {},
      [
        [0, 20],
        [0, 31],
      ],
      ['raised@0'],
      'ACTIVE',
    ],
    ['evaluates a first sample before 1970', {}, [[-1, 31]], ['raised@-1'], 'ACTIVE'],
    ['sees nothing below a lone high threshold', { high: 30 }, [[0, -5]], [], 'NORMAL'],
    [
      'restarts the wait when the crossing changes side',
      { low: 0, delaySeconds: 10 },
      [
        [0, 31],
        [5, -1],
        [12, -1],
        [15, -1],
      ],
      ['raised@15'],
      'ACTIVE',
    ],
  ])('%s', (_name, overrides, samples, kinds, phase) => {
    const result = run(samples, config(overrides));
    expect(result.kinds).toEqual(kinds);
    expect(result.state.phase).toBe(phase);
  });

  it.each<[string, Partial<AlarmConfig>, number, AlarmTransition]>([
    ['high', {}, 31, { kind: 'raised', side: 'HIGH', t: 0, value: 31, threshold: 30 }],
    ['low', { high: null, low: 5 }, 4, { kind: 'raised', side: 'LOW', t: 0, value: 4, threshold: 5 }],
  ])('raises a %s crossing with its side and threshold', (_side, overrides, value, raised) =>
    expect(evaluateAlarm(NORMAL_EVALUATION, { t: 0, value }, config(overrides)).transitions).toEqual([raised]),
  );

  it.each<[string, Partial<AlarmConfig>, number, Partial<AlarmConfig>, number]>([
    ['high', {}, 31, { high: null, low: 5 }, 40],
    ['low', { high: null, low: 5 }, 4, { high: 30, low: null }, -10],
    ['high, with no threshold left', {}, 31, { high: null, low: null }, 40],
  ])('clears a %s alarm whose threshold was removed', (_side, before, raisedAt, after, value) => {
    const active = run([[0, raisedAt]], config(before)).state;
    expect(active.phase).toBe('ACTIVE');
    expect(run([[1, value]], config(after), active).kinds).toEqual(['cleared@1']);
  });

  it('clears an active alarm whose configuration was disabled', () => {
    const active = run([[0, 31]], config()).state;
    expect(run([[1, 40]], config({ enabled: false }), active).kinds).toEqual(['cleared@1']);
  });

  it('never flaps: transitions alternate, raise past a threshold, clear only past the hysteresis', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -50, max: 80, noNaN: true }), { maxLength: 60 }),
        fc.double({ min: 0, max: 10, noNaN: true }),
        fc.integer({ min: 0, max: 5 }),
        (values, hysteresis, delaySeconds) => {
          const alarm = config({ high: 30, low: 0, hysteresis, delaySeconds });
          let state = NORMAL_EVALUATION;
          let raised = false;
          values.forEach((value, index) => {
            const { next, transitions } = evaluateAlarm(state, { t: index * 1000, value }, alarm);
            for (const transition of transitions) {
              if (transition.kind === 'raised') {
                expect(raised).toBe(false);
                expect(value > 30 || value < 0).toBe(true);
                raised = true;
              } else {
                expect(raised).toBe(true);
                expect(value <= 30 - hysteresis || value >= 0 + hysteresis).toBe(true);
                raised = false;
              }
            }
            expect(next.phase === 'ACTIVE').toBe(raised);
            state = next;
          });
        },
      ),
    );
  });

  it('once raised, values inside the hysteresis band never clear', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 28.001, max: 1000, noNaN: true }), { maxLength: 40 }), (values) => {
        const alarm = config({ high: 30, hysteresis: 2 });
        const result = run(
          values.map((value, index) => [index + 1, value]),
          alarm,
          run([[0, 31]], alarm).state,
        );
        expect(result.kinds).toEqual([]);
        expect(result.state.phase).toBe('ACTIVE');
      }),
    );
  });
});

describe('alarm status', () => {
  it.each([
    [{ raisedAt: 1, clearedAt: null, acknowledgedAt: null }, 'ACTIVE_UNACKNOWLEDGED', true],
    [{ raisedAt: 1, clearedAt: null, acknowledgedAt: 2 }, 'ACTIVE_ACKNOWLEDGED', false],
    [{ raisedAt: 1, clearedAt: 3, acknowledgedAt: null }, 'CLEARED_UNACKNOWLEDGED', false],
    [{ raisedAt: 1, clearedAt: 3, acknowledgedAt: 2 }, 'CLEARED_ACKNOWLEDGED', false],
  ])('%j is %s (needs a response %s)', (alarm, status, respond) => {
    expect(alarmStatus(alarm)).toBe(status);
    expect(needsResponse(alarm)).toBe(respond);
  });
});

describe('reminders and escalation', () => {
  const policy = { reminderIntervalMs: 60_000, escalationDelayMs: 300_000 };
  it.each([
    [0, 61_000],
    [1, 121_000],
    [4, 301_000],
  ])('reminder after %s sent falls due at %s', (sent, at) => expect(nextReminderAt(1000, sent, policy)).toBe(at));
  it('escalates after the delay', () => expect(escalationAt(1000, policy)).toBe(301_000));
});

describe('who is told', () => {
  const device = { accountId: 'acme', thingName: 'ACME-1', path: './sup/acme/cellar' };
  const user = (
    id: string,
    path: string,
    accountId: string,
    permissions: string[],
    muted: string[] = [],
  ): NoticeUser => ({
    id,
    email: `${id}@x.test`,
    mutedDevices: muted,
    attachmentPoints: [{ accountId, path, permissions: permissions as never }],
  });
  const users = [
    user('responder', './sup/acme', 'acme', ['ALARM']),
    user('cellarResponder', './sup/acme/cellar', 'acme', ['ALARM'], ['ACME-1']),
    user('otherGroup', './sup/acme/brewhouse', 'acme', ['ALARM']),
    user('viewer', './sup/acme', 'acme', ['VIEW_DASH']),
    user('accountAdmin', './sup/acme', 'acme', ['ADMIN']),
    user('supplierAdmin', './sup', 'sup', ['ADMIN']),
    user('supplierResponder', './sup', 'sup', ['ALARM']),
    user('elsewhere', './other', 'other', ['ADMIN']),
  ];
  const ids = (list: NoticeUser[]) => list.map((entry) => entry.id);

  it('tells the Alarm Responders of the device’s own account whose scope covers it', () =>
    expect(ids(alarmResponders(users, device))).toEqual(['responder', 'cellarResponder', 'accountAdmin']));
  it('escalates to the administrators above who were not told yet', () =>
    expect(ids(escalationAudience(users, device))).toEqual(['supplierAdmin']));
  it('leaves out those who muted the device from disconnection alerts', () =>
    expect(ids(disconnectionAudience(users, device))).toEqual(['responder', 'accountAdmin']));
});

describe('active alarms in the device table', () => {
  const encoded = encodeActiveAlarms([
    { code: 'sp2', side: 'LOW', severity: 'MINOR' },
    { code: 'c1', side: 'HIGH', severity: 'CRITICAL' },
  ]);
  it('encodes sorted and decodes', () => {
    expect(encoded).toBe('c1:HIGH:CRITICAL;sp2:LOW:MINOR');
    expect(decodeActiveAlarms(encoded)).toHaveLength(2);
    expect(encodeActiveAlarms([])).toBeNull();
    expect(decodeActiveAlarms('c1:SIDEWAYS:CRITICAL;junk')).toEqual([]);
  });
  it.each([
    [encoded, 0b1000_0000, 'Ch_1 high, SP_2 low, Alarm 7'],
    [null, 0b1000_0000, 'Alarm 7'],
    [encoded, 0, 'Ch_1 high, SP_2 low'],
    [null, 0, ''],
  ])('cell of %s with mask %s reads %j', (active, mask, text) => expect(alarmCellText(active, mask)).toBe(text));
  it.each([
    [encoded, 0, 'ANY', true],
    [null, 4, 'ANY', true],
    [null, 0, 'ANY', false],
    [null, 0, 'NONE', true],
    [encoded, 0, 'NONE', false],
    [null, 4, 'NONE', false],
    [encoded, 0, 'critical', true],
    [encoded, 0, 'MAJOR', false],
    [null, 0b100, '2', true],
    [encoded, 0, '2', false],
  ])('%s with mask %s matches %s: %s', (active, mask, choice, expected) =>
    expect(matchesAlarmChoice(mask, active, choice)).toBe(expected),
  );
});

describe('alarmConditionText: the condition with the channel unit', () => {
  it.each<[{ side: 'HIGH' | 'LOW'; threshold: number }, { units?: string }, string]>([
    [{ side: 'HIGH', threshold: 30 }, { units: '°C' }, 'above 30 °C'],
    [{ side: 'LOW', threshold: 1.25 }, { units: ' bar ' }, 'below 1.25 bar'],
    [{ side: 'HIGH', threshold: 70000 }, {}, 'above 70,000'],
    [{ side: 'LOW', threshold: 0.125 }, { units: '' }, 'below 0.125'],
    [{ side: 'HIGH', threshold: 0.1234567 }, {}, 'above 0.123457'],
  ])('%j %j -> %s', (alarm, channel, expected) => {
    expect(alarmConditionText(alarm, channel, 'en-US')).toBe(expected);
  });
});
