import { useRef, useState, type DragEvent } from 'react';
import { Link } from 'react-router';
import type { Scene } from '@fieldlink/api/scenes';
import { ArrowLeftIcon, PencilIcon, PlusIcon, TrashIcon } from '../../../components/ui/icons';
import { sceneRoute } from '@fieldlink/domain/widgets';
import { ArrowRightIcon, MoreIcon } from './scene-icons';
import { Menu } from '../../../components/ui/menu';

export interface SceneTabsProps {
  accountId: string;
  groupId: string;
  scenes: readonly Scene[];
  currentId: string | null;
  /** Scenes can be added (ADD_EDIT_DELETE_SCENES, group not read-only). */
  canAdd: boolean;
  /** This scene can be renamed, deleted and moved. */
  canEdit: (scene: Scene) => boolean;
  onAdd: () => void;
  onRename: (scene: Scene) => void;
  onDelete: (scene: Scene) => void;
  /** Moves a scene to an index of the list. */
  onMove: (scene: Scene, toIndex: number) => void;
}

/**
 * The group's scenes as tabs, in their order. Editable tabs are dragged to reorder; the current
 * tab's menu renames, moves left or right, and deletes.
 */
export function SceneTabs({
  accountId,
  groupId,
  scenes,
  currentId,
  canAdd,
  canEdit,
  onAdd,
  onRename,
  onDelete,
  onMove,
}: SceneTabsProps) {
  const [dragging, setDragging] = useState<string | null>(null);
  const [dropIndex, setDropIndex] = useState<number | null>(null);
  const [menuFor, setMenuFor] = useState<Scene | null>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  const reorderable = scenes.length > 1 && scenes.every(canEdit);

  const onDragOver = (event: DragEvent, index: number) => {
    if (!dragging) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    const box = event.currentTarget.getBoundingClientRect();
    setDropIndex(event.clientX < box.left + box.width / 2 ? index : index + 1);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    const from = scenes.findIndex((scene) => scene.id === dragging);
    const scene = scenes[from];
    if (scene && dropIndex !== null) {
      const to = dropIndex > from ? dropIndex - 1 : dropIndex;
      if (to !== from) onMove(scene, to);
    }
    setDragging(null);
    setDropIndex(null);
  };

  const current = scenes.find((scene) => scene.id === currentId) ?? null;
  const currentIndex = current ? scenes.indexOf(current) : -1;

  return (
    <div className="scene-tabs">
      <nav
        className="scene-tabs__list"
        aria-label="Scenes"
        data-testid="scene-tabs"
        onDragLeave={() => setDropIndex(null)}
      >
        {scenes.map((scene, index) => {
          const active = scene.id === currentId;
          const classes = ['scene-tab'];
          if (active) classes.push('is-active');
          if (dragging === scene.id) classes.push('is-dragging');
          if (dropIndex === index && dragging) classes.push('drop-before');
          if (dropIndex === index + 1 && index === scenes.length - 1 && dragging) classes.push('drop-after');
          return (
            <Link
              key={scene.id}
              to={sceneRoute(accountId, groupId, scene)}
              className={classes.join(' ')}
              aria-current={active ? 'page' : undefined}
              data-testid="scene-tab"
              data-scene-id={scene.id}
              draggable={reorderable}
              title={reorderable ? 'Drag to reorder' : undefined}
              onDragStart={(event) => {
                event.dataTransfer.effectAllowed = 'move';
                event.dataTransfer.setData('text/plain', scene.id);
                setDragging(scene.id);
              }}
              onDragEnd={() => {
                setDragging(null);
                setDropIndex(null);
              }}
              onDragOver={(event) => onDragOver(event, index)}
              onDrop={onDrop}
            >
              <span className="scene-tab__name">{scene.name.trim() || 'Untitled'}</span>
            </Link>
          );
        })}
        {canAdd && (
          <button type="button" className="scene-tabs__add" onClick={onAdd} data-testid="scene-add">
            <PlusIcon size={15} />
            <span>New scene</span>
          </button>
        )}
      </nav>
      {current && canEdit(current) && (
        <>
          <button
            ref={menuButton}
            type="button"
            className="scene-tabs__more fl-button fl-button--ghost fl-button--sm"
            aria-haspopup="menu"
            aria-expanded={menuFor !== null}
            aria-label={`Scene options: ${current.name || 'Untitled'}`}
            data-testid="scene-menu-button"
            onClick={() => setMenuFor((open) => (open ? null : current))}
          >
            <MoreIcon size={16} />
          </button>
          {menuFor && menuButton.current && (
            <Menu
              place={menuButton.current}
              label="Scene options"
              onClose={() => setMenuFor(null)}
              items={[
                { label: 'Rename', icon: <PencilIcon size={15} />, onSelect: () => onRename(menuFor) },
                {
                  label: 'Move left',
                  icon: <ArrowLeftIcon size={15} />,
                  disabled: !reorderable || currentIndex <= 0,
                  onSelect: () => onMove(menuFor, currentIndex - 1),
                },
                {
                  label: 'Move right',
                  icon: <ArrowRightIcon size={15} />,
                  disabled: !reorderable || currentIndex >= scenes.length - 1,
                  onSelect: () => onMove(menuFor, currentIndex + 1),
                },
                { label: 'Delete', icon: <TrashIcon size={15} />, tone: 'danger', onSelect: () => onDelete(menuFor) },
              ]}
            />
          )}
        </>
      )}
    </div>
  );
}
