import type { DeviceTableGroup, DeviceTableNumberField, DeviceTableTextField } from '@fieldlink/api/device-table';
import type { DeviceTableColumns } from '@fieldlink/api/device-table-binary';

/**
 * The device table in the browser: the call's columns decoded once. Numbers live in Float64Arrays
 * with NaN for "no value": 100,000 rows of a number column take 800 KB and read without boxing.
 */
export interface DeviceTableData {
  count: number;
  generatedAt: number;
  groups: DeviceTableGroup[];
  /** Group path as the table shows it, per group index: names from the top of the caller's tree. */
  groupPathNames: string[];
  /** Per group index: true for a New Devices group. */
  groupIsNew: boolean[];
  text: Record<DeviceTableTextField, (string | null)[]>;
  numbers: Record<DeviceTableNumberField, Float64Array>;
  /**
   * Per row, how many live changes it has taken (`live-changes.ts`): a drawn row whose count moved
   * is drawn again, the others are not.
   */
  revision: Uint32Array;
  /**
   * The rows by name as the server sorted them, or null: taken for the name order only once checked
   * against the names (`checkedTextOrder`), so a server that sorts otherwise costs one pass, not a
   * wrong order.
   */
  nameOrder: Int32Array | null;
}

/** Separator of group names in the group-path column. */
export const GROUP_PATH_SEPARATOR = ' / ';

/** The table data of the call's columns (decoded from its binary form, `getDeviceTable`). */
export function decodeDeviceTable({
  count,
  generatedAt,
  groups,
  text,
  numbers,
  nameOrder,
}: DeviceTableColumns): DeviceTableData {
  const byId = new Map(groups.map((group) => [group.id, group]));
  // Groups above the caller's attachment points are not in the answer, so a path starts at the
  // highest group the caller can see, the way the account tree shows it.
  const groupPathNames = groups.map((group) =>
    group.path
      .slice(2)
      .split('/')
      .map((id) => byId.get(id)?.name)
      .filter((name): name is string => name !== undefined)
      .join(GROUP_PATH_SEPARATOR),
  );
  return {
    count,
    generatedAt,
    groups,
    groupPathNames,
    groupIsNew: groups.map((group) => group.kind === 'new'),
    text,
    numbers,
    revision: new Uint32Array(count),
    nameOrder: nameOrder ?? null,
  };
}
