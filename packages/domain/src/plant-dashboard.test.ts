import { describe, expect, it } from 'vitest';
import {
  BORE_PRESSURE_THRESHOLDS,
  FLOW_AXIS_MAX,
  GENERATED_WIDGET_ACCOUNT_ID,
  hasPlantDashboard,
  INLET_PRESSURE_THRESHOLDS,
  OUTLET_PRESSURE_THRESHOLDS,
  parsePlantFeatures,
  PLANT_ALARMS,
  PLANT_RESETS,
  PLANT_SECTIONS,
  PLANT_WIDGET_GROUPS,
  plantAlarmCode,
  plantDashboard,
  plantFeaturesTag,
  PRESSURE_RANGE,
  TANK_LEVEL_RANGE,
  UV_CHART_RANGE,
  UV_GAUGE_MAX,
  uvSignalPoints,
  widgetConfirmsCommands,
  type PlantAppType,
  offeredPlantFeatures,
  PLANT_FEATURE_KEYS,
} from './plant-dashboard';

const ALL_FEATURES =
  'waterTank,flowmeter2,communityFlowmeter,borePressure,preTreatment,secondaryTreated,media,media4,carbon,softener,greensand,filter3,chlorination,uvOutletSolenoid';
const tagged = (appType: PlantAppType, value: string, custom = 'Filtec 2.1') => ({
  tags: [{ key: appType === 'filtec' ? 'filtecConfig' : 'filtecMoeConfig', value }],
  custom,
});
const sectionsOf = (appType: PlantAppType, value: string) =>
  plantDashboard(appType, tagged(appType, value)).map((section) => section.section);
const widget = (appType: PlantAppType, value: string, key: string) =>
  plantDashboard(appType, tagged(appType, value))
    .flatMap((section) => section.widgets)
    .find((w) => w.key === key);

describe('the sections of each water-plant app type (§2)', () => {
  it('lists filtec’s eleven and filtec moe’s nine sections in order', () => {
    expect(PLANT_SECTIONS.filtec).toEqual([
      'Water',
      'UV',
      'Pressure',
      'Pre-Treatment',
      'Multimedia Filters',
      'Carbon Filters',
      'Softener',
      'Greensand Filters',
      'Chlorine Reticulation',
      'Alarms',
      'Resets',
    ]);
    expect(PLANT_SECTIONS['filtec moe']).toEqual([
      'Water',
      'UV',
      'Pressure',
      'Multimedia Filters',
      'Carbon Filters',
      'Softener',
      'Greensand Filters',
      'Alarms',
      'Resets',
    ]);
    expect(PLANT_WIDGET_GROUPS).toEqual([
      'WATER',
      'UV',
      'PRESSURE',
      'PRE_TREATMENT',
      'SOFTENER',
      'CARBON',
      'GREENSAND',
      'MEDIA',
      'CHLORINATION',
      'ALARM',
    ]);
  });

  it.each([
    ['filtec', '', 'Water UV Pressure Alarms Resets'],
    ['filtec', ALL_FEATURES, PLANT_SECTIONS.filtec.join(' ')],
    ['filtec moe', ALL_FEATURES, PLANT_SECTIONS['filtec moe'].join(' ')],
    ['filtec', 'media', 'Water UV Pressure Multimedia Filters Alarms Resets'],
    ['filtec', 'preTreatment, chlorination', 'Water UV Pressure Pre-Treatment Chlorine Reticulation Alarms Resets'],
    // moe has neither section, whatever its tag says.
    ['filtec moe', 'preTreatment chlorination', 'Water UV Pressure Alarms Resets'],
    ['filtec moe', 'softener;greensand', 'Water UV Pressure Softener Greensand Filters Alarms Resets'],
  ] as const)('%s with %j -> %s', (appType, tag, expected) => {
    expect(sectionsOf(appType, tag).join(' ')).toBe(expected);
  });

  it('gives each section its widget group and every widget the section’s group', () => {
    for (const section of plantDashboard('filtec', tagged('filtec', ALL_FEATURES))) {
      for (const w of section.widgets) expect(w.group).toBe(section.group);
    }
    expect(plantDashboard('filtec', tagged('filtec', ALL_FEATURES)).map((s) => s.group)).toEqual([
      'WATER',
      'UV',
      'PRESSURE',
      'PRE_TREATMENT',
      'MEDIA',
      'CARBON',
      'SOFTENER',
      'GREENSAND',
      'CHLORINATION',
      'ALARM',
      null,
    ]);
  });
});

describe('dashboard visibility: fixed, or its key in the configuration tag (§4)', () => {
  it.each([
    ['tankLevel', '', false],
    ['tankLevel', 'waterTank', true],
    ['supply1Flow', '', true],
    ['supply2Flow', 'flowmeter2', true],
    ['communityFlow', 'communityFlowmeter', true],
    ['borePressure', 'borePressure', true],
    ['borePressure', 'media', false],
    ['media3Backwash', 'media', false],
    ['media3Backwash', 'media filter3', true],
    ['media4Backwash', 'media4', true],
    ['uvOutletSolenoid', 'uvOutletSolenoid', true],
    ['secondaryTreatedTotal', 'secondaryTreated', true],
    ['reset-gpf1', '', true],
    ['reset-gpf3', '', false],
    ['reset-gpf3', 'flowmeter2', true],
    ['alarm-s5', '', false],
    ['alarm-s5', 'waterTank', true],
    ['alarm-xdo1', '', true],
  ])('%s with tag %j -> %s', (key, tag, shown) => {
    expect(widget('filtec', tag, key) !== undefined).toBe(shown);
  });

  it('reads the tag of the app type only, ignoring case, separators and unknown words', () => {
    expect([...parsePlantFeatures(' WATERTANK,, media;carbon  nonsense ')]).toEqual(['waterTank', 'media', 'carbon']);
    expect(parsePlantFeatures(null).size).toBe(0);
    expect(plantFeaturesTag(['carbon', 'waterTank'])).toBe('waterTank,carbon');
    const moeTagOnFiltec = { tags: [{ key: 'filtecMoeConfig', value: 'waterTank' }], custom: null };
    expect(plantDashboard('filtec', moeTagOnFiltec).flatMap((s) => s.widgets.map((w) => w.key))).not.toContain(
      'tankLevel',
    );
  });

  it.each([
    ['filtec', [{ key: 'filtecConfig', value: '' }], true],
    ['filtec moe', [{ key: 'filtecMoeConfig', value: 'media' }], true],
    ['filtec moe', [{ key: 'filtecConfig', value: 'media' }], false],
    ['filtec', [], false],
    ['default', [{ key: 'filtecConfig', value: 'media' }], false],
  ])('%s with tags %j has the plant dashboard: %s', (appType, tags, expected) => {
    expect(hasPlantDashboard(appType, tags)).toBe(expected);
  });
});

describe('§9 thresholds and axes', () => {
  it('keeps every constant of §9', () => {
    expect(FLOW_AXIS_MAX).toEqual({ filtec: 180, 'filtec moe': 100 });
    expect(TANK_LEVEL_RANGE).toEqual([0, 100]);
    expect(PRESSURE_RANGE).toEqual([0, 6]);
    expect(INLET_PRESSURE_THRESHOLDS).toEqual({ good: 4.8, warning: 5, alarm: 6 });
    expect(OUTLET_PRESSURE_THRESHOLDS).toEqual({ fault: 1, warning: 1.2 });
    expect(BORE_PRESSURE_THRESHOLDS).toEqual({ fault: 1, warning: 2 });
    expect(UV_CHART_RANGE).toEqual([0, 300]);
    expect(UV_GAUGE_MAX).toBe(99);
    expect(GENERATED_WIDGET_ACCOUNT_ID).toBe('3');
  });

  it.each([
    ['filtec', true],
    ['filtec moe', false],
  ] as const)('%s offers every plant feature, UV signal points option 2 only in filtec (%s)', (appType, option2) => {
    const offered = offeredPlantFeatures(appType);
    expect(offered.includes('uvSignalPoints2')).toBe(option2);
    expect(offered).toEqual(PLANT_FEATURE_KEYS.filter((feature) => option2 || feature !== 'uvSignalPoints2'));
    expect(offered.length).toBe(PLANT_FEATURE_KEYS.length - (option2 ? 0 : 1));
  });

  it.each([
    ['filtec', '', { fault: 40, low: 46 }],
    ['filtec', 'uvSignalPoints2', { fault: 47.7, low: 50.5 }],
    ['filtec moe', '', { fault: 40, low: 46 }],
    ['filtec moe', 'uvSignalPoints2', { fault: 40, low: 46 }],
  ] as const)('UV signal points of %s with %j -> %o', (appType, tag, expected) => {
    expect(uvSignalPoints(appType, parsePlantFeatures(tag))).toEqual(expected);
    const gauge = widget(appType, tag, 'uvDose')!;
    expect(gauge.max).toBe(99);
    expect(gauge.arcSegments?.map((band) => band.endValue)).toEqual([expected.fault, expected.low, 99]);
  });

  it.each([
    ['filtec', 'supply1FlowChart', '', [0, 180]],
    ['filtec moe', 'supply1FlowChart', '', [0, 100]],
    ['filtec', 'tankLevelChart', 'waterTank', [0, 100]],
    ['filtec', 'pressureChart', '', [0, 6]],
    ['filtec', 'uvDoseChart', '', [0, 300]],
  ] as const)('%s %s axis -> %o', (appType, key, tag, [min, max]) => {
    expect(widget(appType, tag, key)!.axes?.[0]).toMatchObject({ min, max });
  });

  it.each([
    ['inletPressure', '', [4.8, 5, 6]],
    ['outletPressure', '', [1, 1.2, 6]],
    ['borePressure', 'borePressure', [1, 2, 6]],
  ] as const)('%s bands end at %o on a 0-6 bar gauge', (key, tag, ends) => {
    const gauge = widget('filtec', tag, key)!;
    expect([gauge.min, gauge.max]).toEqual([0, 6]);
    expect(gauge.arcSegments?.map((band) => band.endValue)).toEqual(ends);
  });
});

describe('plant channel codes', () => {
  it('reads the fixed codes of §3', () => {
    const codes = plantDashboard('filtec', tagged('filtec', 'waterTank')).flatMap((s) =>
      s.widgets.flatMap((w) => w.channels.map(([code]) => code)),
    );
    for (const code of ['d1', 'a1', 't1', 'a16', 't5', 'c2', 'c3']) expect(codes).toContain(code);
  });

  it('has reset buttons gpf1-gpf14 and alarm flags s1-s16 and xdo1-xdo16, once each', () => {
    expect(PLANT_RESETS.map((r) => r.code)).toEqual(Array.from({ length: 14 }, (_, i) => `gpf${i + 1}`));
    const codes = PLANT_ALARMS.map((a) => a.code);
    expect(codes).toEqual([
      ...Array.from({ length: 16 }, (_, i) => `s${i + 1}`),
      ...Array.from({ length: 16 }, (_, i) => `xdo${i + 1}`),
    ]);
    const newer = PLANT_ALARMS.map((a) => a.newerCode ?? a.code);
    expect(new Set(newer).size).toBe(32);
  });

  it.each([
    ['filtec', 'Filtec 3.10', 'Tank low level', 's13'],
    ['filtec', 'Filtec 3.00', 'Tank low level', 's5'],
    ['filtec', 'Filtec 2.1', 'Dosing pump fault', 's7'],
    ['filtec', 'Filtec 3.5', 'Dosing pump fault', 's15'],
    ['filtec', 'Filtec 3.5', 'Softener salt low', 's5'],
    ['filtec', 'Filtec 3.5', 'High inlet pressure', 's1'],
    ['filtec', 'Unfieldlinkd', 'Tank low level', 's5'],
    ['filtec moe', 'Filtec 3.5', 'Tank low level', 's5'],
  ] as const)('%s, macro %j: %s reads %s', (appType, custom, name, code) => {
    const alarm = PLANT_ALARMS.find((a) => a.name === name)!;
    expect(plantAlarmCode(appType, custom, alarm)).toBe(code);
    const shown = plantDashboard(appType, tagged(appType, ALL_FEATURES, custom))
      .find((s) => s.section === 'Alarms')!
      .widgets.find((w) => w.name === name);
    expect(shown?.channels[0]?.[0]).toBe(code);
  });
});

describe('select before operate (issue 36 item 1)', () => {
  it.each([
    ['an authored widget by default', {}, 'acct-1', true],
    ['an authored widget left to confirm', { noConfirmation: false }, 'acct-1', true],
    ['an authored widget marked "no confirmation"', { noConfirmation: true }, 'acct-1', false],
    ['a generated plant widget', {}, GENERATED_WIDGET_ACCOUNT_ID, true],
    ['a generated plant widget, even marked', { noConfirmation: true }, GENERATED_WIDGET_ACCOUNT_ID, true],
  ])('%s', (_case, widget, accountId, confirms) => {
    expect(widgetConfirmsCommands(widget, { accountId })).toBe(confirms);
  });
});

describe('the whole generated dashboard (a reviewed record: packages/domain/src/__records__)', () => {
  /** One line a widget: what a reviewer compares with §2-§4 of the application specification. */
  const record = (appType: PlantAppType, device: ReturnType<typeof tagged>) =>
    plantDashboard(appType, device)
      .map(
        (section) =>
          `## ${section.section} (${section.group ?? 'no group'})\n` +
          section.widgets.map(({ section: _, group: __, ...widget }) => `- ${JSON.stringify(widget)}`).join('\n'),
      )
      .join('\n\n') + '\n';

  it.each<[string, PlantAppType, string, string]>([
    ['filtec-every-feature', 'filtec', ALL_FEATURES + ',uvSignalPoints2', 'Filtec 2.1'],
    ['filtec-newer-alarms', 'filtec', ALL_FEATURES, 'Filtec 3.01'],
    ['filtec-moe-every-feature', 'filtec moe', ALL_FEATURES, 'Filtec 2.1'],
    ['filtec-fixed-only', 'filtec', '', 'Filtec 2.1'],
  ])('%s', async (name, appType, features, custom) => {
    await expect(record(appType, tagged(appType, features, custom))).toMatchFileSnapshot(
      `./__records__/plant-dashboard-${name}.md`,
    );
  });
});
