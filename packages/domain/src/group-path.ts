import { isAccountsVariant } from './user-variant';

/**
 * Paths in the account tree (specification core §3). A group path is `./` followed by the group ids
 * from the root down, slash-separated (`./root1/g2/g3`); a device or user has the path of its group.
 * A scene or widget path is pipe-separated: `{groupId}|scene:{sceneId}|widget:{widgetId}`.
 */

/** Start of every group path; `./` alone is the empty path above every root. */
export const GROUP_PATH_START = './';
/** Name of the placeholder group new devices land in. */
export const NEW_DEVICES_GROUP_NAME = 'New Devices';
/** The same placeholder's name in the accounts-centred variant "2". */
export const NEW_STOCK_GROUP_NAME = 'New Stock';
/** Name of the placeholder group deleted entities go to. */
export const TRASH_GROUP_NAME = 'Trash';
/** Segments of a group path shorter than this are ignored when computing common groups (§5). */
export const MIN_COMMON_GROUP_SEGMENT_LENGTH = 6;

const SCENE_PREFIX = 'scene:';
const WIDGET_PREFIX = 'widget:';

/** The name of the new-devices group for a user variant: "New Stock" for "2", else "New Devices". */
export function newDevicesGroupName(userVariant: string | null | undefined): string {
  return isAccountsVariant(userVariant) ? NEW_STOCK_GROUP_NAME : NEW_DEVICES_GROUP_NAME;
}

/**
 * True when the text can be a group id inside a path: not empty, no `/` or `|` (the separators), no
 * white space, and not `.` or `..`, which would read as path steps.
 */
export function isPathId(id: string): boolean {
  return /^[^/|\s]+$/.test(id) && id !== '.' && id !== '..';
}

function requirePathId(id: string): string {
  if (!isPathId(id)) throw new RangeError(`Not a valid id in a path: ${JSON.stringify(id)}`);
  return id;
}

/** Builds a group path from group ids, root first (`['root1', 'g2']` -> `./root1/g2`). */
export function groupPath(groupIds: readonly string[]): string {
  return GROUP_PATH_START + groupIds.map(requirePathId).join('/');
}

/** The group ids of a path, root first, or null when the text is not a well-formed group path. */
export function parseGroupPath(path: string): string[] | null {
  if (!path.startsWith(GROUP_PATH_START)) return null;
  const rest = path.slice(GROUP_PATH_START.length);
  if (rest === '') return [];
  const ids = rest.split('/');
  return ids.every(isPathId) ? ids : null;
}

/** The path of a child group (`./a` + `b` -> `./a/b`). Throws a RangeError for a malformed parent. */
export function childPath(parent: string, childId: string): string {
  const ids = parseGroupPath(parent);
  if (ids === null) throw new RangeError(`Not a group path: ${JSON.stringify(parent)}`);
  return groupPath([...ids, childId]);
}

/** The id of the group a path ends in (`./a/b` -> `b`), or null for `./` or a malformed path. */
export function groupIdOfPath(path: string): string | null {
  const ids = parseGroupPath(path);
  return ids?.[ids.length - 1] ?? null;
}

/**
 * True when the entity at `entityPath` lies at or beneath `attachmentPath`: an attachment point covers
 * itself and everything below it. Compared id by id, so `./g1` does not cover `./g10`. A malformed
 * path on either side covers nothing (fails closed).
 */
export function isUnderPath(entityPath: string, attachmentPath: string): boolean {
  const entity = parseGroupPath(entityPath);
  const attachment = parseGroupPath(attachmentPath);
  if (entity === null || attachment === null || attachment.length > entity.length) return false;
  return attachment.every((id, index) => entity[index] === id);
}

/** True when the entity lies under any of the user's attachment points. */
export function isInScope(entityPath: string, attachmentPaths: readonly string[]): boolean {
  return attachmentPaths.some((attachmentPath) => isUnderPath(entityPath, attachmentPath));
}

/**
 * The group ids every path shares, in the order of the first path. Segments shorter than
 * {@link MIN_COMMON_GROUP_SEGMENT_LENGTH} characters are ignored (§5), which also drops the leading `.`.
 */
export function commonGroupIds(paths: readonly string[]): string[] {
  const [first, ...rest] = paths.map(
    (path) => new Set(path.split('/').filter((segment) => segment.length >= MIN_COMMON_GROUP_SEGMENT_LENGTH)),
  );
  if (first === undefined) return [];
  return [...first].filter((id) => rest.every((ids) => ids.has(id)));
}

/** A scene or widget path taken apart. */
export interface ScenePath {
  groupId: string;
  sceneId: string;
  /** Null for a scene's own path. */
  widgetId: string | null;
}

/** The path of a scene: `{groupId}|scene:{sceneId}`. Throws a RangeError for ids holding a separator. */
export function scenePath(groupId: string, sceneId: string): string {
  return `${requirePathId(groupId)}|${SCENE_PREFIX}${requirePathId(sceneId)}`;
}

/** The path of a widget: `{groupId}|scene:{sceneId}|widget:{widgetId}`. */
export function widgetPath(groupId: string, sceneId: string, widgetId: string): string {
  return `${scenePath(groupId, sceneId)}|${WIDGET_PREFIX}${requirePathId(widgetId)}`;
}

/** Takes a scene or widget path apart, or returns null when it is not one. */
export function parseScenePath(path: string): ScenePath | null {
  const [groupId = '', scene = '', widget, ...extra] = path.split('|');
  if (extra.length > 0 || !isPathId(groupId) || !scene.startsWith(SCENE_PREFIX)) return null;
  const sceneId = scene.slice(SCENE_PREFIX.length);
  if (!isPathId(sceneId)) return null;
  if (widget === undefined) return { groupId, sceneId, widgetId: null };
  const widgetId = widget.startsWith(WIDGET_PREFIX) ? widget.slice(WIDGET_PREFIX.length) : '';
  return isPathId(widgetId) ? { groupId, sceneId, widgetId } : null;
}
