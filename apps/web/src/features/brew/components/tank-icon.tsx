import type { TankIcon as TankIconName } from '@fieldlink/domain/brew';

const LABELS: Record<TankIconName, string> = {
  filled: 'Filled',
  filling: 'Filling',
  fermenting: 'Fermenting',
  cleaning: 'Cleaning',
  idle: 'Idle',
};

/**
 * A cylindro-conical tank drawn in its state (§4): full, filling (half, with an arrow in), fermenting
 * (full with rising bubbles), cleaning (spray ball) or idle (empty).
 */
export function TankIcon({ icon, size = 44 }: { icon: TankIconName; size?: number }) {
  const body = 'M14 6h20a2 2 0 0 1 2 2v26l-12 10L12 34V8a2 2 0 0 1 2-2z';
  const fillTop = icon === 'filling' ? 24 : 12;
  const filled = icon === 'filled' || icon === 'filling' || icon === 'fermenting';
  return (
    <svg
      className={`tank-icon tank-icon--${icon}`}
      width={size}
      height={size}
      viewBox="0 0 48 48"
      role="img"
      aria-label={LABELS[icon]}
    >
      <defs>
        <clipPath id={`tank-clip-${icon}`}>
          <path d={body} />
        </clipPath>
      </defs>
      {filled && (
        <rect
          className="tank-icon__beer"
          x="10"
          y={fillTop}
          width="28"
          height={48 - fillTop}
          clipPath={`url(#tank-clip-${icon})`}
        />
      )}
      <path className="tank-icon__shell" d={body} />
      <path className="tank-icon__legs" d="M15 36l-3 10M33 36l3 10" />
      {icon === 'fermenting' && (
        <g className="tank-icon__bubbles">
          <circle cx="20" cy="28" r="1.6" />
          <circle cx="26" cy="22" r="1.3" />
          <circle cx="23" cy="16" r="1.1" />
        </g>
      )}
      {icon === 'filling' && <path className="tank-icon__arrow" d="M24 2v10m-3-3 3 3 3-3" />}
      {icon === 'cleaning' && (
        <g className="tank-icon__spray">
          <circle cx="24" cy="12" r="2" />
          <path d="M24 14l-6 8M24 14l6 8M24 14v9" />
        </g>
      )}
    </svg>
  );
}
