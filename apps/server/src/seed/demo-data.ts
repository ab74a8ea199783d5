import type { AccountKind } from '@fieldlink/domain/app-variant';
import type { ExtraFlag, Permission } from '@fieldlink/domain/permissions';
import { ACCOUNTS_USER_VARIANT, OTHER_USER_VARIANT } from '@fieldlink/domain/user-variant';
import type { DeviceKind } from '@fieldlink/simulation/device-kind';
import { createDeviceIdentity } from '@fieldlink/simulation/device-identity';
import { seedFromText } from '@fieldlink/simulation/seeded-random';
import { demoFleet, demoFleetAccount } from '@fieldlink/simulation/demo-fleet';

/** Kinds of simulated device (packages/simulation). */
export type DemoDeviceKind = DeviceKind;

export interface DemoDevice {
  thingName: string;
  name: string;
  sn: string;
  kind: DemoDeviceKind;
  site: string;
  plan: 'FREE' | 'PREMIUM';
  location: { lat: number; lng: number; address: string };
  /** Tags of the device: a water plant's configuration tag names its optional features. */
  tags?: { key: string; value: string }[];
}

export interface DemoGroup {
  name: string;
  devices: DemoDevice[];
  groups?: DemoGroup[];
}

export interface DemoUser {
  email: string;
  firstName: string;
  lastName: string;
  permissions: Permission[];
  secretPermissions: ExtraFlag[];
  /** Sees every value and chart but operates nothing (issue 35). */
  monitorOnly?: boolean;
}

export interface DemoAccount {
  key: string;
  name: string;
  appType: string;
  kind: AccountKind;
  userVariant: string | null;
  /** The account's brand theme, or null for none. */
  theme: string | null;
  groups: DemoGroup[];
  users: DemoUser[];
}

/** A water plant of the given features (its configuration tag for the app type). */
const plant = (demo: DemoDevice, key: 'filtecConfig' | 'filtecMoeConfig', features: string): DemoDevice => ({
  ...demo,
  tags: [{ key, value: features }],
});

/** A brewery device with the vessel it watches (its `vessel` tag: only fermentation vessels are tanks). */
const vessel = (demo: DemoDevice, value: string): DemoDevice => ({ ...demo, tags: [{ key: 'vessel', value }] });

const device = (
  thingName: string,
  name: string,
  kind: DemoDeviceKind,
  site: string,
  [lat, lng]: [number, number],
  address: string,
  plan: 'FREE' | 'PREMIUM' = 'PREMIUM',
): DemoDevice => ({
  thingName,
  name,
  // The serial on the box is the one the simulated device reports (its identity from its thing name).
  sn: createDeviceIdentity(kind, seedFromText(thingName)).sn,
  kind,
  site,
  plan,
  location: { lat, lng, address },
});

/**
 * The demo installation: a supplier whose tree holds one customer account per app type, each with
 * groups, devices of every hardware family and users with different permission sets. Customer
 * accounts hang under the supplier's "Customers" group, so the supplier's admin sees them all.
 */
export const DEMO_SUPPLIER: DemoAccount = {
  key: 'supplier',
  name: 'Fieldlink Supply',
  appType: 'default',
  kind: 'supplier',
  userVariant: null,
  theme: null,
  groups: [
    {
      name: 'Workshop',
      devices: [
        device(
          'FLS-BENCH-01',
          'Test bench controller',
          'generic',
          'Workshop',
          [32.7767, -96.797],
          '1500 Marilla St, Dallas, TX',
        ),
      ],
    },
  ],
  users: [
    {
      email: 'admin@fieldlink.test',
      firstName: 'Avery',
      lastName: 'Admin',
      permissions: ['ADMIN'],
      secretPermissions: ['ADMIN'],
    },
  ],
};

export const DEMO_CUSTOMERS: DemoAccount[] = [
  {
    key: 'brew',
    name: 'Northgate Brewing',
    appType: 'brew',
    kind: 'customer',
    userVariant: OTHER_USER_VARIANT,
    theme: null,
    groups: [
      {
        name: 'Cellar',
        devices: [
          vessel(
            device(
              'NGB-FV01',
              'Fermenter FV1',
              'brewTank',
              'Cellar',
              [32.8998, -97.0403],
              '2600 Cellar Rd, Irving, TX',
            ),
            'fermenter',
          ),
          vessel(
            device(
              'NGB-FV02',
              'Fermenter FV2',
              'brewTank',
              'Cellar',
              [32.8999, -97.0401],
              '2600 Cellar Rd, Irving, TX',
            ),
            'fermenter',
          ),
          vessel(
            device(
              'NGB-BT01',
              'Bright tank BT1',
              'brewTank',
              'Cellar',
              [32.9001, -97.0399],
              '2600 Cellar Rd, Irving, TX',
            ),
            'bright tank',
          ),
        ],
      },
      {
        name: 'Brewhouse',
        devices: [
          vessel(
            device(
              'NGB-HLT01',
              'Hot liquor tank',
              'generic',
              'Brewhouse',
              [32.9003, -97.0398],
              '2600 Cellar Rd, Irving, TX',
              'FREE',
            ),
            'hot liquor tank',
          ),
        ],
      },
    ],
    users: [
      {
        email: 'brew@fieldlink.test',
        firstName: 'Bailey',
        lastName: 'Brewer',
        permissions: ['ADMIN'],
        secretPermissions: [],
      },
    ],
  },
  {
    key: 'spray',
    name: 'Orchard Spray Co',
    appType: 'spray',
    kind: 'customer',
    userVariant: OTHER_USER_VARIANT,
    theme: 'mosnix',
    groups: [
      {
        name: 'North Block',
        devices: [
          device('OSC-SPR01', 'Sprayer Row 1', 'sprayer', 'North Block', [33.2148, -97.1331], 'Orchard Ln, Denton, TX'),
          device('OSC-SPR02', 'Sprayer Row 2', 'sprayer', 'North Block', [33.2151, -97.1327], 'Orchard Ln, Denton, TX'),
        ],
      },
      {
        name: 'South Block',
        devices: [
          device(
            'OSC-SPR03',
            'Sprayer Row 3',
            'sprayer',
            'South Block',
            [33.2102, -97.1299],
            'Orchard Ln, Denton, TX',
            'FREE',
          ),
          device(
            'OSC-PUMP01',
            'Pump house',
            'generic',
            'South Block',
            [33.2099, -97.1301],
            'Orchard Ln, Denton, TX',
            'FREE',
          ),
        ],
      },
    ],
    users: [
      {
        email: 'spray@fieldlink.test',
        firstName: 'Sam',
        lastName: 'Sprayman',
        permissions: [
          'VIEW_DASH',
          'ADD_EDIT_DELETE_SCENES',
          'ADD_EDIT_DELETE_WIDGETS',
          'VIEW_ACCOUNTS',
          'ADD_EDIT_DELETE_GROUPS',
          'ALARM',
        ],
        secretPermissions: ['MOSNIX_BROADCAST_SPRAY'],
      },
    ],
  },
  {
    key: 'stock',
    name: 'Corner Retail',
    appType: 'stock',
    kind: 'customer',
    userVariant: ACCOUNTS_USER_VARIANT,
    theme: 'bp',
    // Regions hold stores; a store is a group with smart shelves (features/inventory).
    groups: [
      {
        name: 'North Texas',
        devices: [],
        groups: [
          {
            name: 'Main Street Store',
            devices: [
              device(
                'CRS-SHELF01',
                'Shelf A1',
                'retailShelf',
                'Main Street',
                [32.7555, -97.3308],
                '300 Main St, Fort Worth, TX',
              ),
              device(
                'CRS-SHELF02',
                'Shelf A2',
                'retailShelf',
                'Main Street',
                [32.7556, -97.3307],
                '300 Main St, Fort Worth, TX',
              ),
            ],
          },
          {
            name: 'Airport Store',
            devices: [
              device(
                'CRS-SHELF03',
                'Shelf B1',
                'retailShelf',
                'Airport',
                [32.8998, -97.0403],
                'Terminal D, DFW Airport, TX',
              ),
              device(
                'CRS-SHELF04',
                'Shelf B2',
                'retailShelf',
                'Airport',
                [32.8996, -97.0405],
                'Terminal D, DFW Airport, TX',
                'FREE',
              ),
            ],
          },
        ],
      },
      {
        name: 'Central Texas',
        devices: [],
        groups: [
          {
            name: 'Riverside Store',
            devices: [
              device(
                'CRS-SHELF05',
                'Shelf C1',
                'retailShelf',
                'Riverside',
                [30.2569, -97.7467],
                '200 Riverside Dr, Austin, TX',
              ),
              device(
                'CRS-SHELF06',
                'Shelf C2',
                'retailShelf',
                'Riverside',
                [30.2571, -97.7465],
                '200 Riverside Dr, Austin, TX',
              ),
            ],
          },
        ],
      },
    ],
    users: [
      {
        email: 'stock@fieldlink.test',
        firstName: 'Sky',
        lastName: 'Stocker',
        permissions: ['VIEW_ACCOUNTS', 'READ_REPORTS', 'REPORTING', 'REPORTING_PLUS'],
        secretPermissions: [],
      },
    ],
  },
  {
    key: 'filtec',
    name: 'Filtec Water',
    appType: 'filtec',
    kind: 'customer',
    userVariant: OTHER_USER_VARIANT,
    theme: 'filtec',
    groups: [
      {
        name: 'Lakeside Plant',
        devices: [
          plant(
            device(
              'FTW-PLANT01',
              'Lakeside treatment plant',
              'waterPlant',
              'Lakeside',
              [32.9271, -96.6016],
              'Lake Ray Hubbard, Rowlett, TX',
            ),
            'filtecConfig',
            'waterTank,flowmeter2,borePressure,preTreatment,media,carbon,chlorination,uvOutletSolenoid',
          ),
          device(
            'FTW-BORE01',
            'Bore 1',
            'waterPlant',
            'Lakeside',
            [32.9282, -96.6031],
            'Lake Ray Hubbard, Rowlett, TX',
            'FREE',
          ),
        ],
      },
      {
        name: 'Hilltop Plant',
        devices: [
          plant(
            device(
              'FTW-PLANT02',
              'Hilltop treatment plant',
              'waterPlant',
              'Hilltop',
              [32.5421, -97.1467],
              'Hilltop Rd, Mansfield, TX',
            ),
            'filtecConfig',
            'waterTank,communityFlowmeter,secondaryTreated,media,filter3,media4,softener,greensand,chlorination,uvSignalPoints2',
          ),
          device(
            'FTW-TANK01',
            'Reservoir tank',
            'generic',
            'Hilltop',
            [32.5426, -97.1459],
            'Hilltop Rd, Mansfield, TX',
            'FREE',
          ),
        ],
      },
    ],
    users: [
      {
        email: 'water@fieldlink.test',
        firstName: 'Wren',
        lastName: 'Waters',
        permissions: ['ADMIN'],
        secretPermissions: [],
      },
    ],
  },
  {
    key: 'filtecMoe',
    name: 'Moe Township Water',
    appType: 'filtec moe',
    kind: 'customer',
    userVariant: OTHER_USER_VARIANT,
    theme: 'filtec',
    groups: [
      {
        name: 'Township Plant',
        devices: [
          plant(
            device(
              'MTW-PLANT01',
              'Township plant',
              'waterPlant',
              'Township',
              [32.4487, -96.8428],
              'Water Works Rd, Midlothian, TX',
            ),
            'filtecMoeConfig',
            'waterTank,media,carbon,softener',
          ),
          plant(
            device(
              'MTW-PLANT02',
              'Creek plant',
              'waterPlant',
              'Creek',
              [32.4512, -96.8391],
              'Creek Rd, Midlothian, TX',
            ),
            'filtecMoeConfig',
            'waterTank,media,greensand',
          ),
          plant(
            device(
              'MTW-UV01',
              'UV skid',
              'waterPlant',
              'Township',
              [32.4489, -96.8425],
              'Water Works Rd, Midlothian, TX',
              'FREE',
            ),
            'filtecMoeConfig',
            'uvOutletSolenoid',
          ),
          device(
            'MTW-PUMP01',
            'Booster pump',
            'generic',
            'Creek',
            [32.4515, -96.8388],
            'Creek Rd, Midlothian, TX',
            'FREE',
          ),
        ],
      },
    ],
    users: [
      {
        email: 'moe@fieldlink.test',
        firstName: 'Morgan',
        lastName: 'Moe',
        permissions: ['VIEW_DASH', 'ADD_EDIT_DELETE_SCENES', 'ADD_EDIT_DELETE_WIDGETS', 'ALARM'],
        secretPermissions: [],
      },
    ],
  },
  {
    key: 'default',
    name: 'Acme Controls',
    appType: 'default',
    kind: 'customer',
    userVariant: OTHER_USER_VARIANT,
    theme: null,
    groups: [
      {
        name: 'Boiler Room',
        devices: [
          device(
            'ACME-BLR01',
            'Boiler 1',
            'generic',
            'Boiler Room',
            [32.7831, -96.8067],
            '100 Commerce St, Dallas, TX',
          ),
          device(
            'ACME-BLR02',
            'Boiler 2',
            'generic',
            'Boiler Room',
            [32.7833, -96.8064],
            '100 Commerce St, Dallas, TX',
          ),
        ],
      },
      {
        name: 'Cold Store',
        devices: [
          device('ACME-COLD01', 'Freezer room', 'generic', 'Cold Store', [32.7811, -96.8012], '220 Elm St, Dallas, TX'),
          device(
            'ACME-COLD02',
            'Chiller room',
            'generic',
            'Cold Store',
            [32.7813, -96.8009],
            '220 Elm St, Dallas, TX',
            'FREE',
          ),
        ],
      },
    ],
    users: [
      {
        email: 'viewer@fieldlink.test',
        firstName: 'Vic',
        lastName: 'Viewer',
        permissions: ['VIEW_DASH'],
        secretPermissions: [],
        monitorOnly: true,
      },
      {
        email: 'ops@fieldlink.test',
        firstName: 'Olive',
        lastName: 'Operator',
        permissions: ['VIEW_DASH', 'VIEW_ACCOUNTS', 'ADD_EDIT_DELETE_GROUPS', 'INVITE_USERS', 'ADD_DEVICES'],
        secretPermissions: [],
      },
    ],
  },
  {
    // A demo account (core §1, §3, §6): its devices are the default app's simulated `_DEMO` fleet,
    // which the signed-in browser runs itself. The server keeps the devices as entities only: no
    // broker account, no history, nothing ingested; the scenes are read-only for everyone.
    key: 'demo',
    ...demoFleetAccount(demoFleet('default')),
    name: 'Fieldlink Demo',
    groups: demoFleet('default').groups.map((group) => ({
      name: group.name,
      devices: group.devices.map((demo) => ({
        ...device(
          demo.thingName,
          demo.name,
          demo.kind,
          demo.site,
          [demo.location.lat, demo.location.lng],
          demo.location.address,
        ),
        tags: demo.tags.map(({ key, value }) => ({ key, value })),
      })),
    })),
    users: [
      {
        email: 'prospect@fieldlink.test',
        firstName: 'Pat',
        lastName: 'Prospect',
        // Scene and widget rights, so what keeps the dashboards as they are is the account (§6).
        permissions: ['VIEW_DASH', 'VIEW_ACCOUNTS', 'ALARM', 'ADD_EDIT_DELETE_SCENES', 'ADD_EDIT_DELETE_WIDGETS'],
        secretPermissions: [],
      },
    ],
  },
];
