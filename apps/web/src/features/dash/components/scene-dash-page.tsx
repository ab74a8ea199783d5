import { Link } from 'react-router';
import { DashboardIcon } from '../../../components/ui/icons';
import { PanelMessage } from '../../../components/ui/panel-message';

/** `/dash/:accountId/:groupId(/:sceneId)`: scene dashboards arrive with the scenes feature. */
export function SceneDashPage() {
  return (
    <PanelMessage
      icon={<DashboardIcon size={26} />}
      eyebrow="Coming soon"
      title="Scene dashboards"
      actions={
        <Link to="/dash" className="fl-button fl-button--primary">
          Open a device dash
        </Link>
      }
    >
      Drag-and-drop dashboards of widgets for a group are on their way. Meanwhile, every device has its own live dash.
    </PanelMessage>
  );
}
