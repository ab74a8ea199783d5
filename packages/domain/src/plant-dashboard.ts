import type { AppType } from './app-variant';
import { usesNewerFiltecAlarms } from './macro';
import type { WidgetType } from './widgets';

/**
 * Water-plant dashboards (applications §2, §3, §4, §9): generated from the plant model for the app
 * types `filtec` and `filtec moe`, never stored. A device's dashboard is the plant's sections, each
 * holding the widgets of one widget group; a widget is shown when its visibility is fixed, or when
 * it is optional and its feature key is in the device's configuration tag. Every threshold and axis
 * of §9 is here, once.
 */

/** Widget groups named in the plant model (§2). */
export const PLANT_WIDGET_GROUPS = [
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
] as const;
export type PlantWidgetGroup = (typeof PLANT_WIDGET_GROUPS)[number];

/** The sections of a plant dashboard and the widget group each shows (the reset buttons have none). */
export const PLANT_SECTION_GROUPS = {
  Water: 'WATER',
  UV: 'UV',
  Pressure: 'PRESSURE',
  'Pre-Treatment': 'PRE_TREATMENT',
  'Multimedia Filters': 'MEDIA',
  'Carbon Filters': 'CARBON',
  Softener: 'SOFTENER',
  'Greensand Filters': 'GREENSAND',
  'Chlorine Reticulation': 'CHLORINATION',
  Alarms: 'ALARM',
  Resets: null,
} as const satisfies Record<string, PlantWidgetGroup | null>;
export type PlantSection = keyof typeof PLANT_SECTION_GROUPS;

/** The sections of each water-plant app type, in order (§2). */
export const PLANT_SECTIONS: Readonly<Record<PlantAppType, readonly PlantSection[]>> = {
  filtec: [
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
  ],
  'filtec moe': [
    'Water',
    'UV',
    'Pressure',
    'Multimedia Filters',
    'Carbon Filters',
    'Softener',
    'Greensand Filters',
    'Alarms',
    'Resets',
  ],
};

export type PlantAppType = Extract<AppType, 'filtec' | 'filtec moe'>;

/** True for the two app types whose device dashboards are generated. */
export function isPlantAppType(appType: string): appType is PlantAppType {
  return appType === 'filtec' || appType === 'filtec moe';
}

/** The device tag holding the plant's optional features, per app type (§3). */
export const PLANT_CONFIG_TAG_KEYS: Readonly<Record<PlantAppType, string>> = {
  filtec: 'filtecConfig',
  'filtec moe': 'filtecMoeConfig',
};

/** Optional plant features (§3) and their keys in the configuration tag. */
export const PLANT_FEATURES = {
  waterTank: 'Water tank',
  flowmeter2: 'Second flowmeter',
  communityFlowmeter: 'Community flowmeter',
  borePressure: 'Bore pressure',
  preTreatment: 'Pre-treatment',
  secondaryTreated: 'Secondary treated',
  media: 'Media',
  media4: 'Media 4',
  carbon: 'Carbon',
  softener: 'Softener',
  greensand: 'Greensand',
  filter3: 'Filter 3',
  chlorination: 'Chlorination',
  uvOutletSolenoid: 'UV outlet solenoid',
  /** Not a piece of plant: the UV dose signal-point option 2 (47.7 / 50.5). */
  uvSignalPoints2: 'UV signal points option 2',
} as const;
export type PlantFeature = keyof typeof PLANT_FEATURES;
export const PLANT_FEATURE_KEYS = Object.keys(PLANT_FEATURES) as PlantFeature[];

/**
 * The features a configuration tag value turns on: feature keys separated by commas, semicolons or
 * white space, case-insensitive (`waterTank, media,CARBON`). Unknown words are passed over.
 */
export function parsePlantFeatures(tagValue: string | null | undefined): Set<PlantFeature> {
  const byLower = new Map(PLANT_FEATURE_KEYS.map((key) => [key.toLowerCase(), key]));
  const features = new Set<PlantFeature>();
  for (const word of (tagValue ?? '').split(/[\s,;]+/)) {
    const feature = byLower.get(word.toLowerCase());
    if (feature) features.add(feature);
  }
  return features;
}

/** The tag value that turns on exactly these features, in the canonical order. */
export function plantFeaturesTag(features: Iterable<PlantFeature>): string {
  const on = new Set(features);
  return PLANT_FEATURE_KEYS.filter((key) => on.has(key)).join(',');
}

/** The features of a device of a plant app type, read from its configuration tag. */
export function deviceFeatures(
  appType: PlantAppType,
  tags: readonly { key: string; value: string }[],
): Set<PlantFeature> {
  return parsePlantFeatures(tags.find((tag) => tag.key === PLANT_CONFIG_TAG_KEYS[appType])?.value);
}

/** True when the device has the plant dashboard: a plant app type and its configuration tag. */
export function hasPlantDashboard(appType: string, tags: readonly { key: string; value: string }[]): boolean {
  return isPlantAppType(appType) && tags.some((tag) => tag.key === PLANT_CONFIG_TAG_KEYS[appType]);
}

// §9 thresholds and axes.

/** Flow chart axis (L/min): 0-180 in the main plant (filtec), 0-100 in the others. */
export const FLOW_AXIS_MAX: Readonly<Record<PlantAppType, number>> = { filtec: 180, 'filtec moe': 100 };
/** Tank level 0-100 %. */
export const TANK_LEVEL_RANGE = [0, 100] as const;
/** Pressures 0-6 bar. */
export const PRESSURE_RANGE = [0, 6] as const;
/** Inlet pressure: good up to 4.8, warning up to 5, alarm up to 6 (bar). */
export const INLET_PRESSURE_THRESHOLDS = { good: 4.8, warning: 5, alarm: 6 } as const;
/** Outlet pressure: fault below 1, warning below 1.2 (bar). */
export const OUTLET_PRESSURE_THRESHOLDS = { fault: 1, warning: 1.2 } as const;
/** Bore pressure: fault below 1, warning below 2 (bar). */
export const BORE_PRESSURE_THRESHOLDS = { fault: 1, warning: 2 } as const;
/** UV dose chart axis (mJ/cm²). */
export const UV_CHART_RANGE = [0, 300] as const;
/** UV dose gauge maximum. */
export const UV_GAUGE_MAX = 99;
/** UV signal points: the default option and option 2; filtec moe is fixed at the default (§9). */
export const UV_SIGNAL_POINTS = {
  default: { fault: 40, low: 46 },
  option2: { fault: 47.7, low: 50.5 },
} as const;
/** The account id of generated widgets (§9). */
export const GENERATED_WIDGET_ACCOUNT_ID = '3';

/**
 * Whether a control widget asks before it sends a command to a device (issue 36 item 1, select before
 * operate): always on a generated plant dashboard (its scene's account is the generated-widget id),
 * whatever the widget says; on an authored scene unless its author marked the widget "no
 * confirmation" for an output that is safe to toggle.
 */
export function widgetConfirmsCommands(widget: { noConfirmation?: boolean }, scene: { accountId: string }): boolean {
  return scene.accountId === GENERATED_WIDGET_ACCOUNT_ID || widget.noConfirmation !== true;
}

/** Colours of threshold bands. */
export const PLANT_BAND_COLOURS = { good: '#2e9d5b', warning: '#e0a526', alarm: '#d64545' } as const;

/**
 * The features a plant of the app type may have switched on, in {@link PLANT_FEATURES} order: UV
 * signal points option 2 only in the main plant (filtec); filtec moe is fixed at the default (§9).
 */
export function offeredPlantFeatures(appType: PlantAppType): PlantFeature[] {
  return PLANT_FEATURE_KEYS.filter((feature) => appType === 'filtec' || feature !== 'uvSignalPoints2');
}

/** The UV gauge's fault and low points: moe fixed at 40 / 46; filtec by the signal-point option. */
export function uvSignalPoints(
  appType: PlantAppType,
  features: ReadonlySet<PlantFeature>,
): {
  fault: number;
  low: number;
} {
  if (appType === 'filtec moe') return UV_SIGNAL_POINTS.default;
  return features.has('uvSignalPoints2') ? UV_SIGNAL_POINTS.option2 : UV_SIGNAL_POINTS.default;
}

/** A threshold band of a gauge: up to `endValue`, in `color`, called `text`. */
export interface PlantBand {
  endValue: number;
  color: string;
  text: string;
}

/** A chart axis of a generated chart. */
export interface PlantAxis {
  name: string;
  units: string;
  min: number;
  max: number;
  /** Channel codes on this axis. */
  codes: readonly string[];
}

/** One generated widget: what the web turns into a widget of the scene kit. */
export interface PlantWidget {
  /** Stable key: the widget's id on the generated dashboard. */
  key: string;
  section: PlantSection;
  group: PlantWidgetGroup | null;
  /** `fixed`, or the feature whose key must be in the configuration tag. */
  visibility: 'fixed' | PlantFeature;
  type: WidgetType;
  name: string;
  /** `[code, channel name]` of the device. */
  channels: readonly (readonly [string, string])[];
  /** Width on the lg grid (12 columns). */
  w: number;
  min?: number;
  max?: number;
  units?: string;
  arcSegments?: readonly PlantBand[];
  axes?: readonly PlantAxis[];
  activeColor?: string;
}

/** A plant alarm flag: its codes in the older and the newer alarm version, and the feature it needs. */
export interface PlantAlarm {
  name: string;
  code: string;
  /** The code in the newer alarm version (filtec, custom macro above 3.00), when it differs. */
  newerCode?: string;
  visibility: 'fixed' | PlantFeature;
}

/**
 * The alarm flags s1-s16 and xdo1-xdo16. In the newer alarm version the dosing flags and the tank
 * flags move to s13-s16, and the four alarms held there move to s5-s8.
 */
export const PLANT_ALARMS: readonly PlantAlarm[] = [
  { name: 'High inlet pressure', code: 's1', visibility: 'fixed' },
  { name: 'Low outlet pressure', code: 's2', visibility: 'fixed' },
  { name: 'UV lamp fault', code: 's3', visibility: 'fixed' },
  { name: 'UV dose low', code: 's4', visibility: 'fixed' },
  { name: 'Tank low level', code: 's5', newerCode: 's13', visibility: 'waterTank' },
  { name: 'Tank high level', code: 's6', newerCode: 's14', visibility: 'waterTank' },
  { name: 'Dosing pump fault', code: 's7', newerCode: 's15', visibility: 'chlorination' },
  { name: 'Chlorine tank low', code: 's8', newerCode: 's16', visibility: 'chlorination' },
  { name: 'Bore pump fault', code: 's9', visibility: 'fixed' },
  { name: 'Power failure', code: 's10', visibility: 'fixed' },
  { name: 'Backwash fault', code: 's11', visibility: 'fixed' },
  { name: 'Low bore pressure', code: 's12', visibility: 'borePressure' },
  { name: 'Softener salt low', code: 's13', newerCode: 's5', visibility: 'softener' },
  { name: 'Pre-treatment fault', code: 's14', newerCode: 's6', visibility: 'preTreatment' },
  { name: 'Greensand regeneration fault', code: 's15', newerCode: 's7', visibility: 'greensand' },
  { name: 'Secondary treated tank high', code: 's16', newerCode: 's8', visibility: 'secondaryTreated' },
  { name: 'Plant run output fault', code: 'xdo1', visibility: 'fixed' },
  { name: 'UV outlet solenoid fault', code: 'xdo2', visibility: 'uvOutletSolenoid' },
  { name: 'Pre-treatment pump fault', code: 'xdo3', visibility: 'preTreatment' },
  { name: 'Multimedia filter 1 fault', code: 'xdo4', visibility: 'media' },
  { name: 'Multimedia filter 2 fault', code: 'xdo5', visibility: 'media' },
  { name: 'Multimedia filter 3 fault', code: 'xdo6', visibility: 'filter3' },
  { name: 'Multimedia filter 4 fault', code: 'xdo7', visibility: 'media4' },
  { name: 'Carbon filter 1 fault', code: 'xdo8', visibility: 'carbon' },
  { name: 'Carbon filter 2 fault', code: 'xdo9', visibility: 'carbon' },
  { name: 'Softener fault', code: 'xdo10', visibility: 'softener' },
  { name: 'Greensand filter fault', code: 'xdo11', visibility: 'greensand' },
  { name: 'Chlorine dosing pump fault', code: 'xdo12', visibility: 'chlorination' },
  { name: 'Second flowmeter fault', code: 'xdo13', visibility: 'flowmeter2' },
  { name: 'Community flowmeter fault', code: 'xdo14', visibility: 'communityFlowmeter' },
  { name: 'Bore pump contactor fault', code: 'xdo15', visibility: 'fixed' },
  { name: 'Secondary treated pump fault', code: 'xdo16', visibility: 'secondaryTreated' },
];

/** What a reset button clears in the plant: a total (channel) or latched alarm flags. */
export interface PlantReset {
  code: string;
  name: string;
  visibility: 'fixed' | PlantFeature;
  /** The total it sets back to zero, or `alarms` for every latched alarm flag. */
  clears: string;
}

/** The reset buttons gpf1-gpf14 (§3). */
export const PLANT_RESETS: readonly PlantReset[] = [
  { code: 'gpf1', name: 'Reset supply 1 total', visibility: 'fixed', clears: 'd1' },
  { code: 'gpf2', name: 'Reset operating time', visibility: 'fixed', clears: 't1' },
  { code: 'gpf3', name: 'Reset supply 2 total', visibility: 'flowmeter2', clears: 'd2' },
  { code: 'gpf4', name: 'Reset community total', visibility: 'communityFlowmeter', clears: 'd3' },
  { code: 'gpf5', name: 'Reset secondary treated total', visibility: 'secondaryTreated', clears: 'd4' },
  { code: 'gpf6', name: 'Reset UV lamp hours', visibility: 'fixed', clears: 't2' },
  { code: 'gpf7', name: 'Reset multimedia backwash count', visibility: 'media', clears: 't3' },
  { code: 'gpf8', name: 'Reset carbon backwash count', visibility: 'carbon', clears: 't4' },
  { code: 'gpf9', name: 'Reset softener regeneration count', visibility: 'softener', clears: 't6' },
  { code: 'gpf10', name: 'Reset greensand backwash count', visibility: 'greensand', clears: 't7' },
  { code: 'gpf11', name: 'Reset chlorine dosed', visibility: 'chlorination', clears: 't8' },
  { code: 'gpf12', name: 'Reset alarms', visibility: 'fixed', clears: 'alarms' },
  { code: 'gpf13', name: 'Reset pre-treatment run time', visibility: 'preTreatment', clears: 't9' },
  { code: 'gpf14', name: 'Reset bore pump run time', visibility: 'borePressure', clears: 't10' },
];

const { good: GOOD, warning: WARN, alarm: ALARM } = PLANT_BAND_COLOURS;
const bands = (...segments: [number, string, string][]): PlantBand[] =>
  segments.map(([endValue, color, text]) => ({ endValue, color, text }));

/** The measuring widgets of a plant, by section (alarms and resets are generated from their tables). */
function measuringWidgets(appType: PlantAppType, features: ReadonlySet<PlantFeature>): PlantWidget[] {
  const uv = uvSignalPoints(appType, features);
  const [pressureMin, pressureMax] = PRESSURE_RANGE;
  const [tankMin, tankMax] = TANK_LEVEL_RANGE;
  const widget = (
    section: PlantSection,
    visibility: PlantWidget['visibility'],
    key: string,
    type: WidgetType,
    name: string,
    channels: PlantWidget['channels'],
    w: number,
    extra: Partial<PlantWidget> = {},
  ): PlantWidget => ({
    key,
    section,
    group: PLANT_SECTION_GROUPS[section],
    visibility,
    type,
    name,
    channels,
    w,
    ...extra,
  });
  return [
    widget('Water', 'fixed', 'supply1FlowChart', 'chart', 'Supply flow', [['a1', 'Supply 1 flow']], 6, {
      axes: [{ name: 'Flow', units: 'L/min', min: 0, max: FLOW_AXIS_MAX[appType], codes: ['a1'] }],
    }),
    widget('Water', 'fixed', 'supply1Flow', 'value', 'Supply 1 flow', [['a1', 'Supply 1 flow']], 2, {
      units: 'L/min',
    }),
    widget('Water', 'fixed', 'supply1Total', 'value', 'Supply 1 total', [['d1', 'Supply 1 total']], 2, {
      units: 'm³',
    }),
    widget('Water', 'fixed', 'operatingTime', 'value', 'Operating time', [['t1', 'Operating time']], 2, {
      units: 'h',
    }),
    widget('Water', 'fixed', 'plantRun', 'switch', 'Plant run', [['do1', 'Plant run']], 2, { activeColor: GOOD }),
    widget('Water', 'waterTank', 'tankLevel', 'tank', 'Tank level', [['a16', 'Tank level']], 2, {
      min: tankMin,
      max: tankMax,
      units: '%',
    }),
    widget('Water', 'waterTank', 'tankLevelChart', 'chart', 'Tank level', [['a16', 'Tank level']], 6, {
      axes: [{ name: 'Tank level', units: '%', min: tankMin, max: tankMax, codes: ['a16'] }],
    }),
    widget('Water', 'flowmeter2', 'supply2Flow', 'value', 'Supply 2 flow', [['a2', 'Supply 2 flow']], 2, {
      units: 'L/min',
    }),
    widget('Water', 'flowmeter2', 'supply2Total', 'value', 'Supply 2 total', [['d2', 'Supply 2 total']], 2, {
      units: 'm³',
    }),
    widget('Water', 'communityFlowmeter', 'communityFlow', 'value', 'Community flow', [['a3', 'Community flow']], 2, {
      units: 'L/min',
    }),
    widget(
      'Water',
      'communityFlowmeter',
      'communityTotal',
      'value',
      'Community total',
      [['d3', 'Community total']],
      2,
      { units: 'm³' },
    ),
    widget(
      'Water',
      'secondaryTreated',
      'secondaryTreatedTotal',
      'value',
      'Secondary treated total',
      [['d4', 'Secondary treated total']],
      2,
      { units: 'm³' },
    ),
    widget('UV', 'fixed', 'uvDose', 'radial', 'UV dose', [['t5', 'UV dose']], 3, {
      min: 0,
      max: UV_GAUGE_MAX,
      units: 'mJ/cm²',
      arcSegments: bands([uv.fault, ALARM, 'Fault'], [uv.low, WARN, 'Low'], [UV_GAUGE_MAX, GOOD, 'Good']),
    }),
    widget('UV', 'fixed', 'uvDoseChart', 'chart', 'UV dose', [['t5', 'UV dose']], 6, {
      axes: [{ name: 'UV dose', units: 'mJ/cm²', min: UV_CHART_RANGE[0], max: UV_CHART_RANGE[1], codes: ['t5'] }],
    }),
    widget('UV', 'fixed', 'uvLampHours', 'value', 'UV lamp hours', [['t2', 'UV lamp hours']], 2, { units: 'h' }),
    widget(
      'UV',
      'uvOutletSolenoid',
      'uvOutletSolenoid',
      'indicator',
      'UV outlet solenoid',
      [['do2', 'UV outlet solenoid']],
      2,
      {
        activeColor: GOOD,
      },
    ),
    widget('Pressure', 'fixed', 'inletPressure', 'radial', 'Inlet pressure', [['c2', 'Inlet pressure']], 3, {
      min: pressureMin,
      max: pressureMax,
      units: 'bar',
      arcSegments: bands(
        [INLET_PRESSURE_THRESHOLDS.good, GOOD, 'Good'],
        [INLET_PRESSURE_THRESHOLDS.warning, WARN, 'Warning'],
        [INLET_PRESSURE_THRESHOLDS.alarm, ALARM, 'Alarm'],
      ),
    }),
    widget('Pressure', 'fixed', 'outletPressure', 'radial', 'Outlet pressure', [['c3', 'Outlet pressure']], 3, {
      min: pressureMin,
      max: pressureMax,
      units: 'bar',
      arcSegments: bands(
        [OUTLET_PRESSURE_THRESHOLDS.fault, ALARM, 'Fault'],
        [OUTLET_PRESSURE_THRESHOLDS.warning, WARN, 'Warning'],
        [pressureMax, GOOD, 'Good'],
      ),
    }),
    widget(
      'Pressure',
      'fixed',
      'pressureChart',
      'chart',
      'Pressures',
      [
        ['c2', 'Inlet pressure'],
        ['c3', 'Outlet pressure'],
      ],
      6,
      { axes: [{ name: 'Pressure', units: 'bar', min: pressureMin, max: pressureMax, codes: ['c2', 'c3'] }] },
    ),
    widget('Pressure', 'borePressure', 'borePressure', 'radial', 'Bore pressure', [['c4', 'Bore pressure']], 3, {
      min: pressureMin,
      max: pressureMax,
      units: 'bar',
      arcSegments: bands(
        [BORE_PRESSURE_THRESHOLDS.fault, ALARM, 'Fault'],
        [BORE_PRESSURE_THRESHOLDS.warning, WARN, 'Warning'],
        [pressureMax, GOOD, 'Good'],
      ),
    }),
    widget(
      'Pressure',
      'borePressure',
      'borePumpRunTime',
      'value',
      'Bore pump run time',
      [['t10', 'Bore pump run time']],
      2,
      {
        units: 'h',
      },
    ),
    widget(
      'Pre-Treatment',
      'preTreatment',
      'preTreatmentPressure',
      'radial',
      'Pre-treatment pressure',
      [['c5', 'Pre-treatment pressure']],
      3,
      { min: pressureMin, max: pressureMax, units: 'bar' },
    ),
    widget(
      'Pre-Treatment',
      'preTreatment',
      'preTreatmentPump',
      'indicator',
      'Pre-treatment pump',
      [['do3', 'Pre-treatment pump']],
      2,
      {
        activeColor: GOOD,
      },
    ),
    widget(
      'Pre-Treatment',
      'preTreatment',
      'preTreatmentRunTime',
      'value',
      'Run time',
      [['t9', 'Pre-treatment run time']],
      2,
      {
        units: 'h',
      },
    ),
    widget(
      'Multimedia Filters',
      'media',
      'mediaDifferential',
      'value',
      'Differential pressure',
      [['c6', 'Multimedia differential pressure']],
      2,
      { units: 'bar' },
    ),
    widget(
      'Multimedia Filters',
      'media',
      'mediaBackwashes',
      'value',
      'Backwashes',
      [['t3', 'Multimedia backwashes']],
      2,
    ),
    widget(
      'Multimedia Filters',
      'media',
      'media1Backwash',
      'indicator',
      'Filter 1 backwash',
      [['do4', 'Multimedia filter 1 backwash']],
      2,
    ),
    widget(
      'Multimedia Filters',
      'media',
      'media2Backwash',
      'indicator',
      'Filter 2 backwash',
      [['do5', 'Multimedia filter 2 backwash']],
      2,
    ),
    widget(
      'Multimedia Filters',
      'filter3',
      'media3Backwash',
      'indicator',
      'Filter 3 backwash',
      [['do6', 'Multimedia filter 3 backwash']],
      2,
    ),
    widget(
      'Multimedia Filters',
      'media4',
      'media4Backwash',
      'indicator',
      'Filter 4 backwash',
      [['do7', 'Multimedia filter 4 backwash']],
      2,
    ),
    widget(
      'Carbon Filters',
      'carbon',
      'carbonDifferential',
      'value',
      'Differential pressure',
      [['c7', 'Carbon differential pressure']],
      2,
      { units: 'bar' },
    ),
    widget('Carbon Filters', 'carbon', 'carbonBackwashes', 'value', 'Backwashes', [['t4', 'Carbon backwashes']], 2),
    widget(
      'Carbon Filters',
      'carbon',
      'carbon1Backwash',
      'indicator',
      'Filter 1 backwash',
      [['do8', 'Carbon filter 1 backwash']],
      2,
    ),
    widget(
      'Carbon Filters',
      'carbon',
      'carbon2Backwash',
      'indicator',
      'Filter 2 backwash',
      [['do9', 'Carbon filter 2 backwash']],
      2,
    ),
    widget(
      'Softener',
      'softener',
      'softenerHardness',
      'value',
      'Outlet hardness',
      [['c8', 'Softener outlet hardness']],
      2,
      {
        units: 'mg/L',
      },
    ),
    widget(
      'Softener',
      'softener',
      'softenerRegenerations',
      'value',
      'Regenerations',
      [['t6', 'Softener regenerations']],
      2,
    ),
    widget(
      'Softener',
      'softener',
      'softenerRegenerating',
      'indicator',
      'Regenerating',
      [['do10', 'Softener regenerating']],
      2,
    ),
    widget(
      'Greensand Filters',
      'greensand',
      'greensandDifferential',
      'value',
      'Differential pressure',
      [['c9', 'Greensand differential pressure']],
      2,
      { units: 'bar' },
    ),
    widget(
      'Greensand Filters',
      'greensand',
      'greensandBackwashes',
      'value',
      'Backwashes',
      [['t7', 'Greensand backwashes']],
      2,
    ),
    widget(
      'Greensand Filters',
      'greensand',
      'greensandBackwash',
      'indicator',
      'Backwash',
      [['do11', 'Greensand backwash']],
      2,
    ),
    widget(
      'Chlorine Reticulation',
      'chlorination',
      'chlorineResidual',
      'radial',
      'Chlorine residual',
      [['a4', 'Chlorine residual']],
      3,
      {
        min: 0,
        max: 5,
        units: 'mg/L',
        arcSegments: bands([0.2, ALARM, 'Low'], [0.5, WARN, 'Marginal'], [4, GOOD, 'Good'], [5, ALARM, 'High']),
      },
    ),
    widget(
      'Chlorine Reticulation',
      'chlorination',
      'chlorineDosed',
      'value',
      'Chlorine dosed',
      [['t8', 'Chlorine dosed']],
      2,
      {
        units: 'L',
      },
    ),
    widget(
      'Chlorine Reticulation',
      'chlorination',
      'chlorineDosing',
      'indicator',
      'Dosing pump',
      [['do12', 'Chlorine dosing pump']],
      2,
      {
        activeColor: GOOD,
      },
    ),
  ];
}

/** The device a dashboard is generated for. */
export interface PlantDevice {
  tags: readonly { key: string; value: string }[];
  /** The custom macro string: the newer alarm version from 3.00 on (filtec only). */
  custom: string | null | undefined;
}

/** A section of a generated dashboard with its visible widgets (never empty). */
export interface PlantDashboardSection {
  section: PlantSection;
  group: PlantWidgetGroup | null;
  widgets: PlantWidget[];
}

/** The alarm code a plant reads for an alarm: the newer version's for filtec above macro 3.00. */
export function plantAlarmCode(appType: PlantAppType, custom: string | null | undefined, alarm: PlantAlarm): string {
  return appType === 'filtec' && usesNewerFiltecAlarms(custom) && alarm.newerCode ? alarm.newerCode : alarm.code;
}

/**
 * The generated dashboard of a plant device (§2, §4): the app type's sections in order, each with the
 * widgets shown for the device's features; sections left without a widget are left out.
 */
export function plantDashboard(appType: PlantAppType, device: PlantDevice): PlantDashboardSection[] {
  const features = deviceFeatures(appType, device.tags);
  const shown = (visibility: PlantWidget['visibility']) => visibility === 'fixed' || features.has(visibility);
  const alarms: PlantWidget[] = PLANT_ALARMS.map((alarm) => {
    const code = plantAlarmCode(appType, device.custom, alarm);
    return {
      key: `alarm-${alarm.code}`,
      section: 'Alarms',
      group: 'ALARM',
      visibility: alarm.visibility,
      type: 'indicator',
      name: alarm.name,
      channels: [[code, alarm.name]],
      // Wide enough for the longest alarm and reset names, four to a row.
      w: 3,
      activeColor: ALARM,
    };
  });
  const resets: PlantWidget[] = PLANT_RESETS.map((reset) => ({
    key: `reset-${reset.code}`,
    section: 'Resets',
    group: null,
    visibility: reset.visibility,
    type: 'button',
    name: reset.name,
    channels: [[reset.code, reset.name]],
    w: 3,
  }));
  const widgets = [...measuringWidgets(appType, features), ...alarms, ...resets].filter((w) => shown(w.visibility));
  return PLANT_SECTIONS[appType]
    .map((section) => ({
      section,
      group: PLANT_SECTION_GROUPS[section],
      widgets: widgets.filter((w) => w.section === section),
    }))
    .filter((section) => section.widgets.length > 0);
}
