import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { SparkIcon } from '../../../components/ui/icons';
import { PanelMessage } from '../../../components/ui/panel-message';

function ComingSoon({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <PanelMessage
      icon={icon}
      eyebrow="Coming soon"
      title={title}
      actions={
        <Link to="/dash" className="fl-button fl-button--secondary">
          Go to device dashboards
        </Link>
      }
    >
      {children}
    </PanelMessage>
  );
}

export const ComingSoonPage = () => (
  <ComingSoon icon={<SparkIcon size={26} />} title="On its way">
    This part of the console is being built. Live device dashboards are ready to use now.
  </ComingSoon>
);
