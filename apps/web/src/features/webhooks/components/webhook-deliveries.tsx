import type { Webhook } from '@fieldlink/api/webhooks';
import { WEBHOOK_EVENT_LABELS } from '@fieldlink/domain/webhooks';
import { formatDateTime } from '@fieldlink/domain/date-format';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { ClockIcon } from '../../../components/ui/icons';
import { ListState } from '../../../components/ui/list-state';
import { useReaderClock } from '../../../lib/page-time-zone';
import { useWebhookDeliveries } from '../api/get-webhook-deliveries';
import { DELIVERY_STATE_LABELS, deliveryOutcome } from '../model/webhook-text';

const STATE_TONES = { delivered: 'success', pending: 'warning', failed: 'danger' } as const satisfies Record<
  string,
  BadgeTone
>;

/** A webhook's newest deliveries: the event, when, what the receiver answered, how fast, and what comes next. */
export function WebhookDeliveries({ webhook }: { webhook: Webhook }) {
  const clock = useReaderClock();
  const deliveries = useWebhookDeliveries(webhook.id);
  const rows = deliveries.data?.deliveries ?? [];
  return (
    <ListState
      query={deliveries}
      noun="deliveries"
      empty={
        rows.length > 0
          ? null
          : {
              icon: <ClockIcon size={20} />,
              title: 'No deliveries yet',
              text: 'Events this webhook takes appear here as they are sent. “Send test event” sends one now.',
            }
      }
    >
      <div className="fl-table-frame webhook-deliveries">
        <table className="fl-table" aria-label={`Deliveries to ${webhook.url}`}>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Time</th>
              <th scope="col">State</th>
              <th scope="col">Answer</th>
              <th scope="col">Response time</th>
              <th scope="col">Attempts</th>
              <th scope="col">Next retry</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((delivery) => (
              <tr key={delivery.id} data-testid="webhook-delivery">
                <td data-label="Event">{WEBHOOK_EVENT_LABELS[delivery.event]}</td>
                <td data-label="Time">{formatDateTime(delivery.at, clock)}</td>
                <td data-label="State">
                  <Badge tone={STATE_TONES[delivery.state]} dot>
                    {DELIVERY_STATE_LABELS[delivery.state]}
                  </Badge>
                </td>
                <td data-label="Answer" className="webhook-answer">
                  {deliveryOutcome(delivery)}
                </td>
                <td data-label="Response time">{delivery.responseMs === null ? '—' : `${delivery.responseMs} ms`}</td>
                <td data-label="Attempts">{delivery.attempts}</td>
                <td data-label="Next retry">
                  {delivery.nextAttemptAt === null ? '—' : formatDateTime(delivery.nextAttemptAt, clock)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </ListState>
  );
}
