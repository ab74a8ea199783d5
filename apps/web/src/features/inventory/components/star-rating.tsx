/** A rating of 1 to 5 as five stars, filled to the tenth, with the number beside them. */
export function StarRating({ rating, size = 16 }: { rating: number | null; size?: number }) {
  if (rating === null) return <span className="fl-muted">No rating yet</span>;
  const percent = `${(rating / 5) * 100}%`;
  return (
    <span
      className="inv-stars"
      aria-label={`${rating.toFixed(1)} of 5 stars`}
      title={`${rating.toFixed(1)} of 5 stars`}
    >
      <span className="inv-stars__track" style={{ fontSize: size }} aria-hidden="true">
        ★★★★★
        <span className="inv-stars__fill" style={{ width: percent }}>
          ★★★★★
        </span>
      </span>
      <span className="inv-stars__value">{rating.toFixed(1)}</span>
    </span>
  );
}
