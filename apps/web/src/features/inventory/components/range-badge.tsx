import type { RangeState } from '@fieldlink/domain/retail';
import { Badge, type BadgeTone } from '../../../components/ui/badge';

const TONES: Record<RangeState, BadgeTone> = { EMPTY: 'danger', LOW: 'warning', GOOD: 'success' };
export const RANGE_LABELS: Record<RangeState, string> = { EMPTY: 'Empty', LOW: 'Low', GOOD: 'Good' };

export function RangeBadge({ state }: { state: RangeState }) {
  return (
    <Badge tone={TONES[state]} dot>
      {RANGE_LABELS[state]}
    </Badge>
  );
}
