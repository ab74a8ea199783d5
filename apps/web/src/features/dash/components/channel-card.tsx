import { memo, type ReactNode } from 'react';
import { isChannelStale } from '@fieldlink/domain/staleness';
import { channelDisplayName } from '@fieldlink/domain/channels';
import { Badge } from '../../../components/ui/badge';
import { useNow } from '../../../lib/clock';
import { formatAge, formatDateTime } from '../../../lib/format-time';
import { useLatestValue } from '../../../lib/realtime/use-realtime';
import { channelKindLabel, channelTitle, formatChannelValue, isBinaryChannel } from '../model/channel-presentation';
import { ChannelWrite } from './channel-write';

export interface ChannelCardProps {
  thingName: string;
  code: string;
  name?: string | null;
  uploadInterval: number | null;
  logInterval: number | null;
  /** Shows the write control of setpoints, relays and flags. */
  writable?: boolean;
  /** The channel's alarm control, drawn in the footer. */
  alarm?: ReactNode;
}

/**
 * One channel: its value and how fresh it is. The value and the age read the store separately, so a
 * tick of the clock re-renders only the age line and a new value only this card.
 */
export const ChannelCard = memo(function ChannelCard({
  thingName,
  code,
  name,
  uploadInterval,
  logInterval,
  writable = false,
  alarm,
}: ChannelCardProps) {
  const title = channelTitle(code, name);
  const displayName = channelDisplayName(code) ?? code;
  return (
    <article className="channel-card" aria-label={title}>
      <header className="channel-card__head">
        <span className="channel-card__title" title={title}>
          {title}
        </span>
        <span className="channel-card__code">{title === displayName ? code : displayName}</span>
      </header>
      <ChannelValue thingName={thingName} code={code} />
      {writable && <ChannelWrite thingName={thingName} code={code} title={title} />}
      <footer className="channel-card__foot">
        <span className="channel-card__kind">{channelKindLabel(code)}</span>
        {alarm}
        <ChannelAge thingName={thingName} code={code} uploadInterval={uploadInterval} logInterval={logInterval} />
      </footer>
    </article>
  );
});

function ChannelValue({ thingName, code }: { thingName: string; code: string }) {
  const latest = useLatestValue(thingName, code);
  const testId = `channel-value-${code}`;
  if (!latest) {
    return (
      <div className="channel-card__value is-empty" data-testid={testId}>
        —
      </div>
    );
  }
  const text = formatChannelValue(code, latest.value);
  if (isBinaryChannel(code)) {
    return (
      <div className="channel-card__value">
        <span className={`channel-card__state ${latest.value !== 0 ? 'is-on' : 'is-off'}`} data-testid={testId}>
          {text}
        </span>
      </div>
    );
  }
  return (
    <div className="channel-card__value-wrap">
      <div className="channel-card__value" data-testid={testId}>
        {text}
      </div>
      {(latest.tempSp !== undefined || latest.diff !== undefined) && (
        <div className="channel-card__extra">
          {latest.tempSp !== undefined && <span>SP {formatChannelValue('c1', latest.tempSp)}</span>}
          {latest.diff !== undefined && <span>Δ {formatChannelValue('c1', latest.diff)}</span>}
        </div>
      )}
    </div>
  );
}

function ChannelAge({
  thingName,
  code,
  uploadInterval,
  logInterval,
}: {
  thingName: string;
  code: string;
  uploadInterval: number | null;
  logInterval: number | null;
}) {
  const latest = useLatestValue(thingName, code);
  const now = useNow();
  if (!latest) return <span className="channel-card__age">No data yet</span>;
  const stale = isChannelStale({ lastT: latest.t, uploadInterval, logInterval, now });
  return (
    <span className="channel-card__age" title={formatDateTime(latest.t)}>
      {stale && <Badge tone="warning">Stale</Badge>}
      <time dateTime={new Date(latest.t).toISOString()}>{formatAge(latest.t, now)}</time>
    </span>
  );
}
