import type { ReactNode } from 'react';
import { Icon } from '../../../../components/ui/icons';
import { Spinner } from '../../../../components/ui/spinner';
import './chart-widget.css';

/** Shared by the chart and table widgets: the toolbar's download button and status. */

export function DownloadIcon({ size = 15 }: { size?: number }) {
  return (
    <Icon size={size}>
      <path d="M12 4v11m0 0-4.5-4.5M12 15l4.5-4.5M5 19h14" />
    </Icon>
  );
}

export function CsvButton({ onClick, disabled }: { onClick: () => void; disabled?: boolean }) {
  return (
    <button
      type="button"
      className="chart-widget__tool"
      onClick={onClick}
      disabled={disabled}
      title="Download what is shown as CSV"
    >
      <DownloadIcon /> CSV
    </button>
  );
}

/** A widget's toolbar: controls at the start, the loading spinner and `end` controls at the end. */
export function WidgetToolbar({ children, end, busy }: { children?: ReactNode; end?: ReactNode; busy?: boolean }) {
  return (
    <div className="chart-widget__toolbar">
      {children}
      <span className="chart-widget__spacer" />
      {busy && <Spinner size={13} label="Loading logs" />}
      {end}
    </div>
  );
}

export function WidgetMessage({ children }: { children: ReactNode }) {
  return <div className="chart-widget__message">{children}</div>;
}
