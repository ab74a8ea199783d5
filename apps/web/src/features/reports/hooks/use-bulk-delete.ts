import { useState } from 'react';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { ReportRef } from '@fieldlink/api/reports';
import { showToast } from '../../../lib/app-store/app-store';

interface Listed {
  id: string;
  accountId: string;
  name: string;
}

/**
 * The selection of a report or schedule list and its bulk delete: one DELETE per item (§7), the list
 * read again afterwards, and a toast that says how many went (or how many could not).
 */
export function useBulkDelete<T extends Listed>(options: {
  shown: readonly T[];
  noun: 'report' | 'schedule';
  deleteOne: (ref: ReportRef) => Promise<unknown>;
  queryKey: QueryKey;
}) {
  const { shown, noun, deleteOne, queryKey } = options;
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: async (refs: readonly ReportRef[]) => {
      const outcomes = await Promise.allSettled(refs.map(deleteOne));
      return outcomes.filter((outcome) => outcome.status === 'rejected').length;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey }),
  });
  const chosen = shown.filter((item) => selected.has(item.id));

  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };
  const toggleAll = () =>
    setSelected(chosen.length === shown.length ? new Set() : new Set(shown.map((item) => item.id)));
  const confirm = () =>
    remove.mutate(
      chosen.map((item) => ({ id: item.id, accountId: item.accountId })),
      {
        onSuccess: (failed) => {
          setSelected(new Set());
          setConfirming(false);
          if (failed > 0) showToast('error', `${failed} of ${chosen.length} ${noun}s could not be deleted.`);
          else
            showToast(
              'success',
              chosen.length === 1 ? `${capitalised(noun)} deleted.` : `${chosen.length} ${noun}s deleted.`,
            );
        },
      },
    );

  return { selected, chosen, toggle, toggleAll, confirming, setConfirming, confirm, busy: remove.isPending };
}

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
