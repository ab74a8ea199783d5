/**
 * Names of a chart's series in its legend (issue 36 item 4): each series by its own name, told apart
 * by its source (the device, the shelf) only where needed, and never named twice over.
 */

/** A series as its legend names it: its own name and where it comes from. */
export interface LegendSeries {
  name: string;
  source: string;
}

const says = (name: string, source: string) => name.toLocaleLowerCase().includes(source.toLocaleLowerCase());

/**
 * The legend's names, in order: a series' own name, prefixed with its source ("Boiler 2 · Room
 * temperature") when the chart spans several sources (`qualifyAll`) or another series has the same
 * name, unless the name already says its source ("Boiler 1", not "Boiler 1 · Boiler 1"). Names still
 * alike after that get their place among them ("Sensor (2)").
 */
export function legendNames(series: readonly LegendSeries[], qualifyAll: boolean): string[] {
  const count = (names: readonly string[], name: string) => names.filter((other) => other === name).length;
  const own = series.map((item) => item.name);
  const qualified = series.map((item) =>
    (qualifyAll || count(own, item.name) > 1) && item.source !== '' && !says(item.name, item.source)
      ? `${item.source} · ${item.name}`
      : item.name,
  );
  const seen = new Map<string, number>();
  return qualified.map((name) => {
    if (count(qualified, name) === 1) return name;
    const place = (seen.get(name) ?? 0) + 1;
    seen.set(name, place);
    return `${name} (${place})`;
  });
}
