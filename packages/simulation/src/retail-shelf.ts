import { hourBump } from './daily-cycle';
import { PlantModel, type ChannelSpec, type PlantModelOptions } from './plant-model';

/**
 * A smart shelf counting four products (c1..c4). Customers buy at random times at a rate that
 * follows the store's day (lunch and after-work peaks, nothing while closed); staff restock every
 * product to full on two rounds a day. A product that runs out stays empty until the next round.
 */

interface Product {
  readonly name: string;
  readonly salesPerHour: number;
}

const PRODUCTS: readonly [Product, ...Product[]] = [
  { name: 'Sparkling water 600ml', salesPerHour: 2.5 },
  { name: 'Cola 375ml', salesPerHour: 3.5 },
  { name: 'Energy drink 250ml', salesPerHour: 2 },
  { name: 'Iced tea 500ml', salesPerHour: 1.2 },
  { name: 'Orange juice 350ml', salesPerHour: 1 },
  { name: 'Protein bar', salesPerHour: 0.8 },
  { name: 'Salted crisps 45g', salesPerHour: 1.5 },
  { name: 'Milk chocolate 50g', salesPerHour: 1.8 },
];

const OPEN_HOUR = 7;
const CLOSE_HOUR = 22;
const RESTOCK_HOURS = [8, 15] as const;
/** Largest shelf space of one product: three slots, ten deep. */
export const MAX_PRODUCT_CAPACITY = 30;

interface Slot {
  readonly product: Product;
  readonly capacity: number;
  count: number;
}

export class RetailShelf extends PlantModel {
  readonly kind = 'retailShelf' as const;
  readonly channels: readonly ChannelSpec[];

  private readonly slots: Slot[];
  private readonly restockDelayHours: number;
  private unitsSold: number;
  private lastHour: number;

  constructor(options: PlantModelOptions) {
    super(options);
    const pool = [...PRODUCTS];
    this.slots = [];
    for (let index = 0; index < 4; index += 1) {
      const [product] = pool.splice(this.random.integer(0, pool.length - 1), 1);
      const capacity = this.random.integer(1, 3) * this.random.integer(6, 10);
      this.slots.push({ product: product ?? PRODUCTS[0], capacity, count: this.random.integer(0, capacity) });
    }
    this.channels = [
      ...this.slots.map((slot, index) => ({
        code: `c${index + 1}`,
        name: slot.product.name,
        range: [0, MAX_PRODUCT_CAPACITY] as const,
        alarm: true,
      })),
      { code: 't1', name: 'Units sold', range: [0, 1e9] },
    ];
    this.restockDelayHours = this.random.between(0, 0.75);
    this.unitsSold = this.random.integer(1_000, 20_000);
    this.lastHour = this.hourOfDay();
  }

  protected override get maxStepSeconds(): number {
    return 10;
  }

  /** Shelf space of each product, in channel order. */
  capacities(): number[] {
    return this.slots.map((slot) => slot.capacity);
  }

  values(): Record<string, number> {
    const values: Record<string, number> = { t1: this.unitsSold };
    this.slots.forEach((slot, index) => {
      values[`c${index + 1}`] = slot.count;
    });
    return values;
  }

  protected advance(h: number): void {
    const hour = this.hourOfDay();
    const open = hour >= OPEN_HOUR && hour < CLOSE_HOUR;
    const footfall = open ? 0.5 + 1.2 * hourBump(hour, 12.5, 1.2) + 1.4 * hourBump(hour, 18, 1.5) : 0;
    for (const slot of this.slots) {
      // At most one sale per product per short step: a Poisson process at this rate.
      if (slot.count > 0 && this.random.chance((slot.product.salesPerHour * footfall * h) / 3600)) {
        slot.count -= 1;
        this.unitsSold += 1;
      }
    }

    for (const restockHour of RESTOCK_HOURS) {
      const at = restockHour + this.restockDelayHours;
      if (this.lastHour < at && hour >= at) for (const slot of this.slots) slot.count = slot.capacity;
    }
    this.lastHour = hour;
  }

  protected applyWrite(): number | undefined {
    return undefined;
  }
}
