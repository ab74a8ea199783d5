import { valueFraction } from '@fieldlink/domain/widget-values';

const percentOf = (value: number | undefined) => (value === undefined ? 0 : valueFraction(value, 0, 100) * 100);

/** A tank's level against its empty and refill levels: a vertical gauge with the two marks. */
export function TankGauge({
  level,
  emptyLevel,
  refillLevel,
}: {
  level: number | undefined;
  emptyLevel: number | undefined;
  refillLevel: number | undefined;
}) {
  const tone =
    level === undefined
      ? 'unknown'
      : emptyLevel !== undefined && level < emptyLevel
        ? 'empty'
        : refillLevel !== undefined && level < refillLevel
          ? 'refill'
          : 'ok';
  return (
    <div
      className={`spray-tank spray-tank--${tone}`}
      // A meter must hold a value: until the first reading the gauge is a picture saying so.
      {...(level === undefined
        ? { role: 'img', 'aria-label': 'Tank level: no data' }
        : {
            role: 'meter',
            'aria-label': 'Tank level',
            'aria-valuemin': 0,
            'aria-valuemax': 100,
            'aria-valuenow': level,
            'aria-valuetext': `${level.toFixed(1)} %`,
          })}
    >
      <div className="spray-tank__fill" style={{ height: `${percentOf(level)}%` }} />
      {refillLevel !== undefined && (
        <div
          className="spray-tank__mark spray-tank__mark--refill"
          style={{ bottom: `${percentOf(refillLevel)}%` }}
          title={`Refill level ${refillLevel} %`}
        />
      )}
      {emptyLevel !== undefined && (
        <div
          className="spray-tank__mark spray-tank__mark--empty"
          style={{ bottom: `${percentOf(emptyLevel)}%` }}
          title={`Empty level ${emptyLevel} %`}
        />
      )}
    </div>
  );
}
