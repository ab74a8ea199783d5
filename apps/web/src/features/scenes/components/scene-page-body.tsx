import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Scene } from '@fieldlink/api/scenes';
import { sceneRoute } from '@fieldlink/domain/widgets';
import { Button } from '../../../components/ui/button';
import { DashboardIcon, PlusIcon } from '../../../components/ui/icons';
import { PanelMessage } from '../../../components/ui/panel-message';
import { ApiError, serverErrorMessage } from '../../../lib/api-client';
import { WidgetsIcon } from './scene-icons';
import { SceneSkeleton } from './scene-skeleton';

/** What `GET /scenes` has answered so far. */
export type ScenesAnswer =
  | { status: 'pending' }
  | { status: 'error'; error: unknown; retry: () => void }
  | { status: 'success'; scenes: readonly Scene[] };

/**
 * The scene page below its tabs: the shown scene's grid (`grid`, drawn only when there is one with
 * widgets), or what stands in its place: loading, a refusal with Try again, no scenes yet, a scene
 * that no longer exists, an empty scene. Each empty state offers its next step only to who may take it.
 */
export function ScenePageBody({
  answer,
  scene,
  group,
  accountId,
  canAddScene,
  widgetsEditable,
  onAddScene,
  onAddWidget,
  grid,
}: {
  answer: ScenesAnswer;
  scene: Scene | null;
  group: { id: string; name: string };
  accountId: string;
  canAddScene: boolean;
  widgetsEditable: boolean;
  onAddScene: () => void;
  onAddWidget: () => void;
  grid: (scene: Scene) => ReactNode;
}) {
  if (answer.status === 'pending') return <SceneSkeleton />;
  if (answer.status === 'error') {
    const { error, retry } = answer;
    return (
      <PanelMessage
        title={error instanceof ApiError && error.status === 404 ? 'Dashboard not found' : 'Could not read the scenes'}
        actions={
          <Button variant="primary" onClick={retry}>
            Try again
          </Button>
        }
      >
        {serverErrorMessage(error)}
      </PanelMessage>
    );
  }
  if (answer.scenes.length === 0) {
    return (
      <PanelMessage
        icon={<DashboardIcon size={26} />}
        title="No scenes yet"
        actions={
          canAddScene && (
            <Button variant="primary" data-testid="scene-create-first" onClick={onAddScene}>
              <PlusIcon size={16} />
              Create a scene
            </Button>
          )
        }
      >
        {canAddScene
          ? `A scene is a dashboard of widgets for the devices of ${group.name}: gauges, switches, charts and notes, arranged as you like.`
          : `${group.name} has no dashboards yet.`}
      </PanelMessage>
    );
  }
  if (!scene) {
    return (
      <PanelMessage
        icon={<DashboardIcon size={26} />}
        title="This scene no longer exists"
        actions={
          <Link to={sceneRoute(accountId, group.id)} className="fl-button fl-button--primary">
            Open {group.name}’s first scene
          </Link>
        }
      >
        It may have been deleted or moved.
      </PanelMessage>
    );
  }
  if (scene.widgets.length === 0) {
    return (
      <div className="scene-empty fl-card" data-testid="scene-empty">
        <div className="scene-empty__icon">
          <WidgetsIcon size={26} />
        </div>
        <h2>This scene is empty</h2>
        <p className="fl-muted">
          {widgetsEditable
            ? 'Add widgets to watch live values, operate setpoints and relays, chart logs or write notes.'
            : 'No widgets have been added to this scene yet.'}
        </p>
        {widgetsEditable && (
          <Button variant="primary" data-testid="widget-add-first" onClick={onAddWidget}>
            <PlusIcon size={16} />
            Add a widget
          </Button>
        )}
      </div>
    );
  }
  return grid(scene);
}
