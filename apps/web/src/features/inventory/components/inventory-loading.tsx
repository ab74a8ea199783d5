/** What the inventory screens show while their account or figures load. */
export function InventoryLoading() {
  return (
    <div className="inv-loading fl-muted" role="status">
      Loading inventory…
    </div>
  );
}
