import { describe, expect, it } from 'vitest';
import {
  opensInTab,
  ACCESS_GROUP_OUTSIDE,
  ACCESS_NEEDS_DEVICES,
  ACCESS_NEEDS_GROUP,
  ACCESS_NEEDS_USER,
  ACCESS_USER_OUTSIDE,
  connectedMs,
  filterReportList,
  isReportAccessValid,
  isReportStatePolled,
  isTotalizerChannel,
  matchesReportListFilter,
  nextScheduleRun,
  reportAccessIssue,
  reportListTags,
  reportChannelsIssue,
  reportPeriodIssue,
  reportStateLabel,
  scheduleCatchUp,
  schedulePeriod,
  sortReportsNewestFirst,
  totalizerIncrease,
  uptimePercent,
  type ReportAccessChoice,
  type ReportState,
  type ScheduleTiming,
} from './reports';

describe('reportStateLabel (§4)', () => {
  it.each<[ReportState, string | null, string]>([
    ['GENERATING', null, 'Generating'],
    ['READY', null, 'Complete'],
    ['AWAITING_USER', null, 'Waiting for user'],
    ['ERROR', 'No data in the period.', 'No data in the period.'],
    ['ERROR', null, 'Error'],
    ['ERROR', '   ', 'Error'],
    ['READY', 'stale text', 'Complete'],
    ['DELETING', null, 'Deleting'],
    // A brew batch report's states read the same (they were a second table in brew.ts, issue 37).
    ['AWAITING_USER', 'Enter the gravity.', 'Waiting for user'],
    ['ERROR', 'Disk full', 'Disk full'],
    ['ERROR', '  ', 'Error'],
  ])('%s with error %j shows %j', (state, error, label) => {
    expect(reportStateLabel(state, error)).toBe(label);
  });

  it.each<[ReportState, boolean]>([
    ['GENERATING', true],
    ['READY', false],
    ['AWAITING_USER', false],
    ['ERROR', false],
    ['DELETING', false],
  ])('%s is polled: %s', (state, polled) => {
    expect(isReportStatePolled(state)).toBe(polled);
  });
});

describe('reportPeriodIssue', () => {
  const day = 86_400_000;
  it.each([
    [0, day, 'MINUTES_15', null],
    [day, day, 'HOUR', 'The period must end after it starts.'],
    [0, 366 * day, 'DAY', 'A report covers at most one year.'],
    [0, 365 * day, 'MINUTES_15', 'Too many intervals: choose a longer interval or a shorter period.'],
    [0, 365 * day, 'HOUR', null],
  ] as const)('%i to %i per %s: %j', (start, end, interval, issue) => {
    expect(reportPeriodIssue(start, end, interval)).toBe(issue);
  });
});

describe('reportChannelsIssue', () => {
  const device = (count: number) => ({ codes: Array.from({ length: count }, (_, index) => `c${index + 1}`) });
  it.each([
    ['one whole water plant (85 channels)', [device(85)], null],
    ['75 water plants (6,375 channels)', Array.from({ length: 75 }, () => device(85)), null],
    ['the total at the bound', [device(256), ...Array.from({ length: 24 }, () => device(256))], null],
    [
      'one channel past the bound',
      [...Array.from({ length: 25 }, () => device(256)), device(1)],
      'A report covers at most 6,400 channels; 6,401 are chosen.',
    ],
  ])('%s: %j', (_name, devices, issue) => {
    expect(reportChannelsIssue(devices)).toBe(issue);
  });
});

describe('reportAccessIssue (§5 report access)', () => {
  // Ids of 6 characters or more count; `./` and short ids such as `g1` are ignored.
  const tanks = './brewery/cellar/tanks1';
  const tanks2 = './brewery/cellar/tanks2';
  const short = './brewery/g1';
  const choice = (type: ReportAccessChoice['type'], groupIds: string[] = [], users: string[][] = []) => ({
    type,
    groupIds,
    userGroupIds: users,
  });

  it.each<[string, ReportAccessChoice, string[], string | null]>([
    ['only me, no devices', choice('CREATOR_ONLY'), [], null],
    ['public, no devices', choice('PUBLIC'), [], null],
    ['public, any devices', choice('PUBLIC', ['elsewhere']), [tanks, tanks2], null],
    ['groups without devices', choice('SELECTED_GROUPS_IN_SCOPE', ['cellar']), [], ACCESS_NEEDS_DEVICES],
    ['no group chosen', choice('SELECTED_GROUPS_IN_SCOPE'), [tanks], ACCESS_NEEDS_GROUP],
    ['the group common to both devices', choice('SELECTED_GROUPS_IN_SCOPE', ['cellar']), [tanks, tanks2], null],
    ['the root, common to both', choice('SELECTED_GROUPS_IN_SCOPE', ['brewery']), [tanks, tanks2], null],
    ['every chosen group common', choice('SELECTED_GROUPS_IN_SCOPE', ['brewery', 'cellar']), [tanks], null],
    [
      'a group holding one device only',
      choice('SELECTED_GROUPS_IN_SCOPE', ['tanks1']),
      [tanks, tanks2],
      ACCESS_GROUP_OUTSIDE,
    ],
    [
      'one good, one outside',
      choice('SELECTED_GROUPS_IN_SCOPE', ['cellar', 'tanks2']),
      [tanks, tanks2],
      ACCESS_GROUP_OUTSIDE,
    ],
    ['a group elsewhere', choice('SELECTED_GROUPS_IN_SCOPE', ['office']), [tanks], ACCESS_GROUP_OUTSIDE],
    [
      'a short id is ignored even when common',
      choice('SELECTED_GROUPS_IN_SCOPE', ['g1']),
      [short, `${short}/tanks9`],
      ACCESS_GROUP_OUTSIDE,
    ],
    ['no user chosen', choice('SELECTED_USERS_IN_SCOPE'), [tanks], ACCESS_NEEDS_USER],
    ['a user at the common group', choice('SELECTED_USERS_IN_SCOPE', [], [['cellar']]), [tanks, tanks2], null],
    [
      'a user with one common point of two',
      choice('SELECTED_USERS_IN_SCOPE', [], [['office', 'brewery']]),
      [tanks],
      null,
    ],
    [
      'a user below the common group',
      choice('SELECTED_USERS_IN_SCOPE', [], [['tanks1']]),
      [tanks, tanks2],
      ACCESS_USER_OUTSIDE,
    ],
    [
      'one user in, one out',
      choice('SELECTED_USERS_IN_SCOPE', [], [['cellar'], ['office']]),
      [tanks],
      ACCESS_USER_OUTSIDE,
    ],
    ['a user without attachment points', choice('SELECTED_USERS_IN_SCOPE', [], [[]]), [tanks], ACCESS_USER_OUTSIDE],
  ])('%s', (_name, access, devicePaths, issue) => {
    expect(reportAccessIssue(access, devicePaths)).toBe(issue);
    expect(isReportAccessValid(access, devicePaths)).toBe(issue === null);
  });
});

describe('report and schedule lists (§5)', () => {
  const items = [
    { name: 'Cellar daily', comments: 'For the brewer', tags: ['cellar', 'daily'], createdAt: 3 },
    { name: 'Water weekly', comments: null, tags: ['water'], createdAt: 1 },
    { name: 'Untagged', comments: 'Cellar temperatures', tags: [], createdAt: 2 },
  ];

  it.each<[string, string[], string, string[]]>([
    ['no filter', [], '', ['Cellar daily', 'Water weekly', 'Untagged']],
    ['blank text is ignored', [], '   ', ['Cellar daily', 'Water weekly', 'Untagged']],
    ['one shared tag is enough', ['daily', 'other'], '', ['Cellar daily']],
    ['any of the tags', ['water', 'cellar'], '', ['Cellar daily', 'Water weekly']],
    ['a tag nobody has', ['nope'], '', []],
    ['text in the name, any case', [], 'WATER', ['Water weekly']],
    ['text in the comments', [], 'temperatures', ['Untagged']],
    ['text in name or comments', [], 'cellar', ['Cellar daily', 'Untagged']],
    ['tag and text together', ['cellar'], 'brewer', ['Cellar daily']],
    ['surrounding blanks trimmed', [], '  weekly ', ['Water weekly']],
  ])('%s', (_name, tags, text, names) => {
    expect(filterReportList(items, { tags, text }).map((item) => item.name)).toEqual(names);
    expect(items.filter((item) => matchesReportListFilter(item, { tags, text })).length).toBe(names.length);
  });

  it('sorts newest first by createdAt, keeping ties in order', () => {
    const tied = [...items, { name: 'Tied', comments: null, tags: [], createdAt: 3 }];
    expect(sortReportsNewestFirst(tied).map((item) => item.name)).toEqual([
      'Cellar daily',
      'Tied',
      'Untagged',
      'Water weekly',
    ]);
  });

  it('lists every tag once, sorted', () => {
    expect(reportListTags(items)).toEqual(['cellar', 'daily', 'water']);
  });
});

describe('schedules', () => {
  const timing = (overrides: Partial<ScheduleTiming>): ScheduleTiming => ({
    frequency: 'DAILY',
    time: '07:00',
    dayOfWeek: 1,
    dayOfMonth: 1,
    timeZone: 'UTC',
    ...overrides,
  });
  const at = (iso: string) => Date.parse(iso);

  it.each<[string, Partial<ScheduleTiming>, string, string]>([
    ['daily, later today', {}, '2026-03-10T05:00:00Z', '2026-03-10T07:00:00Z'],
    ['daily, exactly at the time: the next day', {}, '2026-03-10T07:00:00Z', '2026-03-11T07:00:00Z'],
    [
      'daily in Sydney (UTC+11 in March)',
      { timeZone: 'Australia/Sydney' },
      '2026-03-10T00:00:00Z',
      '2026-03-10T20:00:00Z',
    ],
    [
      'daily across the US spring change',
      { timeZone: 'America/New_York', time: '03:30' },
      '2026-03-08T00:00:00Z',
      '2026-03-08T07:30:00Z',
    ],
    [
      'daily the day after the change',
      { timeZone: 'America/New_York', time: '03:30' },
      '2026-03-08T08:00:00Z',
      '2026-03-09T07:30:00Z',
    ],
    [
      'weekly on Monday, from a Tuesday',
      { frequency: 'WEEKLY', dayOfWeek: 1 },
      '2026-03-10T00:00:00Z',
      '2026-03-16T07:00:00Z',
    ],
    [
      'weekly on Tuesday, same day before the time',
      { frequency: 'WEEKLY', dayOfWeek: 2 },
      '2026-03-10T06:59:00Z',
      '2026-03-10T07:00:00Z',
    ],
    ['monthly on the 15th', { frequency: 'MONTHLY', dayOfMonth: 15 }, '2026-03-20T00:00:00Z', '2026-04-15T07:00:00Z'],
    [
      'monthly on the 31st runs on the last day of April',
      { frequency: 'MONTHLY', dayOfMonth: 31 },
      '2026-04-01T00:00:00Z',
      '2026-04-30T07:00:00Z',
    ],
    [
      'monthly on the 30th in February',
      { frequency: 'MONTHLY', dayOfMonth: 30 },
      '2026-02-01T00:00:00Z',
      '2026-02-28T07:00:00Z',
    ],
    [
      'monthly across the year end',
      { frequency: 'MONTHLY', dayOfMonth: 1 },
      '2026-12-02T00:00:00Z',
      '2027-01-01T07:00:00Z',
    ],
  ])('%s', (_name, overrides, after, next) => {
    expect(new Date(nextScheduleRun(timing(overrides), at(after))).toISOString()).toBe(
      new Date(at(next)).toISOString(),
    );
  });

  it.each<[string, Partial<ScheduleTiming>, string, string]>([
    ['a daily run covers the day before', {}, '2026-03-10T07:00:00Z', '2026-03-09T07:00:00Z'],
    ['a weekly run covers the week before', { frequency: 'WEEKLY' }, '2026-03-16T07:00:00Z', '2026-03-09T07:00:00Z'],
    ['a monthly run covers the month before', { frequency: 'MONTHLY' }, '2026-04-01T07:00:00Z', '2026-03-01T07:00:00Z'],
    [
      'a monthly run on 31 March covers from 28 February',
      { frequency: 'MONTHLY' },
      '2026-03-31T07:00:00Z',
      '2026-02-28T07:00:00Z',
    ],
    [
      'a monthly run in January covers December',
      { frequency: 'MONTHLY' },
      '2027-01-01T07:00:00Z',
      '2026-12-01T07:00:00Z',
    ],
    [
      'a daily run after the spring change is 23 hours long',
      { timeZone: 'America/New_York', time: '03:30' },
      '2026-03-08T07:30:00Z',
      '2026-03-07T08:30:00Z',
    ],
  ])('%s', (_name, overrides, runAt, start) => {
    expect(schedulePeriod(timing(overrides), at(runAt))).toEqual({ start: at(start), end: at(runAt) });
  });

  it.each<[string, string, string, boolean, string, string]>([
    [
      'not yet due',
      '2026-03-10T07:00:00Z',
      '2026-03-10T06:00:00Z',
      false,
      '2026-03-10T07:00:00Z',
      '2026-03-10T07:00:00Z',
    ],
    ['due now', '2026-03-10T07:00:00Z', '2026-03-10T07:00:00Z', true, '2026-03-10T07:00:00Z', '2026-03-11T07:00:00Z'],
    [
      'claimed a second late',
      '2026-03-10T07:00:00Z',
      '2026-03-10T07:00:01Z',
      true,
      '2026-03-10T07:00:00Z',
      '2026-03-11T07:00:00Z',
    ],
    [
      'missed five days: runs once for the latest, next is tomorrow',
      '2026-03-05T07:00:00Z',
      '2026-03-10T09:00:00Z',
      true,
      '2026-03-10T07:00:00Z',
      '2026-03-11T07:00:00Z',
    ],
  ])('%s', (_name, nextRunAt, now, due, runAt, next) => {
    expect(scheduleCatchUp(timing({}), at(nextRunAt), at(now))).toEqual({ due, runAt: at(runAt), nextRunAt: at(next) });
  });
});

describe('figures', () => {
  it.each([
    ['t1', true],
    ['T-3', true],
    ['c1', false],
    ['a16', false],
    ['st1', false],
    ['nonsense', false],
  ])('%s is a totalizer: %s', (code, totalizer) => {
    expect(isTotalizerChannel(code)).toBe(totalizer);
  });

  it.each<[number | null, number, number]>([
    [null, 120, 0],
    [100, 120, 20],
    [100, 100, 0],
    [900, 15, 15],
  ])('a totalizer from %j to %j grew by %j', (previous, last, increase) => {
    expect(totalizerIncrease(previous, last)).toBe(increase);
  });

  it.each<[string, boolean, { t: number; connected: boolean }[], number]>([
    ['connected throughout', true, [], 100],
    ['never connected', false, [], 0],
    [
      'drops at 30, back at 80',
      true,
      [
        { t: 30, connected: false },
        { t: 80, connected: true },
      ],
      50,
    ],
    [
      'changes before and after the period ignored',
      false,
      [
        { t: -5, connected: true },
        { t: 150, connected: false },
      ],
      0,
    ],
    ['connects at 40', false, [{ t: 40, connected: true }], 60],
    [
      'repeated connects count once',
      false,
      [
        { t: 40, connected: true },
        { t: 60, connected: true },
      ],
      60,
    ],
  ])('%s', (_name, atStart, changes, total) => {
    expect(connectedMs(atStart, changes, 0, 100)).toBe(total);
  });

  it.each([
    [50, 0, 100, 50],
    [1, 0, 3, 33.3],
    [0, 10, 10, 0],
  ])('%i ms connected of [%i, %i) is %j %', (connected, start, end, percent) => {
    expect(uptimePercent(connected, start, end)).toBe(percent);
  });
});

// Issue 35 item 10: a CSV opened in a tab left the tab blank.
describe('opensInTab', () => {
  it.each([
    ['PDF', true],
    ['CSV', false],
  ] as const)('%s: %s', (format, expected) => expect(opensInTab(format)).toBe(expected));
});
