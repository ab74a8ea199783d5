import type { Scene } from '@fieldlink/api/scenes';
import { Button } from '../../../components/ui/button';
import { ChevronRightIcon, LockIcon, PlusIcon } from '../../../components/ui/icons';
import { UnlockIcon } from './scene-icons';

/**
 * The scene page's head: the group's place in the tree, its name, and for the shown scene the layout
 * lock (a button for who may change the scene, else a note when locked) and Add widget.
 */
export function ScenePageHeader({
  ancestors,
  name,
  scene,
  canEditScene,
  widgetsEditable,
  lockPending,
  onToggleLock,
  onAddWidget,
}: {
  /** The names of the groups above it, from the tree's root down. */
  ancestors: readonly string[];
  /** The group's name. */
  name: string;
  scene: Scene | null;
  canEditScene: boolean;
  widgetsEditable: boolean;
  lockPending: boolean;
  onToggleLock: () => void;
  onAddWidget: () => void;
}) {
  return (
    <header className="scene-page__head">
      <div className="scene-page__titles">
        <nav className="scene-page__trail" aria-label="Group">
          {ancestors.map((ancestor, index) => (
            <span key={index}>
              {ancestor}
              <ChevronRightIcon size={13} />
            </span>
          ))}
        </nav>
        <h1 className="scene-page__title">{name}</h1>
      </div>
      {scene && (
        <div className="scene-page__actions">
          {canEditScene ? (
            <Button
              size="sm"
              variant="secondary"
              aria-pressed={scene.isGridLocked}
              data-testid="scene-lock"
              title={scene.isGridLocked ? 'Widgets cannot be moved or resized' : 'Widgets can be moved and resized'}
              busy={lockPending}
              onClick={onToggleLock}
            >
              {scene.isGridLocked ? <LockIcon size={15} /> : <UnlockIcon size={15} />}
              {scene.isGridLocked ? 'Unlock layout' : 'Lock layout'}
            </Button>
          ) : (
            scene.isGridLocked && (
              <span className="scene-page__locked" data-testid="scene-locked">
                <LockIcon size={14} /> Layout locked
              </span>
            )
          )}
          {widgetsEditable && (
            <Button size="sm" variant="primary" data-testid="widget-add" onClick={onAddWidget}>
              <PlusIcon size={15} />
              Add widget
            </Button>
          )}
        </div>
      )}
    </header>
  );
}
