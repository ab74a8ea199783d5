import { useState } from 'react';
import type { BrewBatchesAnswer } from '@fieldlink/api/brew';
import { Button } from '../../../components/ui/button';
import { showToast } from '../../../lib/app-store/app-store';
import { useBrewCall } from '../api/batch-calls';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';

type FinishedBatch = Pick<BrewBatchesAnswer['batches'][number], 'id' | 'tankNumber' | 'tankName' | 'props'>;

/**
 * "Take back end" of a finished batch (`DELETE /brew/batch/end`), after a confirmation naming the
 * batch and its tank. The caller offers it only where the server would accept it (END_BREW, the
 * tank's newest batch, no other batch running: `takeBackOffers`). On success every brew query is read
 * again, so the finished list drops the batch and the tank shows it running, without a reload.
 */
export function TakeBackEnd({ batch, onDone }: { batch: FinishedBatch; onDone?: () => void }) {
  const [open, setOpen] = useState(false);
  const tank = `tank ${batch.tankNumber} · ${batch.tankName}`;
  const resume = useBrewCall('resume', () => {
    setOpen(false);
    showToast('success', `${batch.props.beerName} runs again in ${tank}.`);
    onDone?.();
  });
  return (
    <>
      <Button size="sm" onClick={() => setOpen(true)} aria-label={`Take back end of ${batch.props.beerName}`}>
        Take back end
      </Button>
      {open && (
        <ConfirmDialog
          title="Take back this end?"
          confirmLabel="Take back end"
          tone="default"
          busy={resume.isPending}
          onConfirm={() => resume.mutate({ batchId: batch.id })}
          onClose={() => setOpen(false)}
        >
          {batch.props.beerName} runs again in {tank}, in the state it had before it was ended. The report made when it
          ended stays with the batch.
        </ConfirmDialog>
      )}
    </>
  );
}
