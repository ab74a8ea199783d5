import { UpdateIcon } from './ota-icons';

/** The banner's OTA part (§2, administrators only): the count and a button opening the pending list. */
export function OtaBannerItem({ count, onReview }: { count: number; onReview: () => void }) {
  return (
    <span className="ota-banner-item">
      <UpdateIcon size={17} />
      <span>{count === 1 ? '1 device has a pending OTA update.' : `${count} devices have pending OTA updates.`}</span>
      <button type="button" className="shell-banner__link ota-banner-item__link" onClick={onReview}>
        Review
      </button>
    </span>
  );
}
