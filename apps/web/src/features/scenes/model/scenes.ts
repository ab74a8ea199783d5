import type { Scene } from '@fieldlink/api/scenes';
import { normaliseSceneName } from '@fieldlink/domain/widgets';

/**
 * Which scene a route shows, and the scene name dialog's rule. Routes themselves are the domain's
 * `sceneRoute` (§2: the scene segment is omitted when the scene's name is empty).
 */

/**
 * The scene a route shows: the one named by the scene segment, else (no segment) the scene without a
 * name, else the first. Null when the segment names no scene of the group, or there is none.
 */
export function sceneOfRoute<S extends Pick<Scene, 'id' | 'name'>>(scenes: readonly S[], sceneId: string | undefined) {
  if (sceneId !== undefined) return scenes.find((scene) => scene.id === sceneId) ?? null;
  return scenes.find((scene) => scene.name.trim() === '') ?? scenes[0] ?? null;
}

/** Scenes in the order of the ids (scenes not named are kept after, in their order). */
export function inOrder<S extends Pick<Scene, 'id'>>(scenes: readonly S[], ids: readonly string[]): S[] {
  const rank = new Map(ids.map((id, index) => [id, index]));
  return [...scenes].sort((a, b) => (rank.get(a.id) ?? ids.length) - (rank.get(b.id) ?? ids.length));
}

/** The API's limit on a scene name. */
export const SCENE_NAME_MAX = 120;

/**
 * The message for a scene name typed in the dialog, or null when it can be saved. The domain allows an
 * empty name (such a scene is the group's route without a scene segment); the dialog asks for one,
 * because a tab needs a label.
 */
export function sceneNameError(name: string): string | null {
  const normalised = normaliseSceneName(name);
  if (normalised === '') return 'Enter a name for the scene.';
  if (normalised.length > SCENE_NAME_MAX) return `Use at most ${SCENE_NAME_MAX} characters.`;
  return null;
}
