import { LOW_STOCK_SHARE, shelfCapacity } from '@fieldlink/domain/retail';
import { hourBump } from './daily-cycle';
import { PlantModel, type ChannelSpec, type PlantModelOptions } from './plant-model';

/**
 * A smart shelf counting six products (c1..c6), each on 2 to 5 facings of the 243 mm deep shelf, so
 * `floor(243 x slots / depth)` units fill its space. Customers come at a rate that follows the
 * store's day (lunch and after-work peaks, nothing while closed) and take a product at its own
 * rate; staff restock every product to full on two rounds a day, and now and then a round misses a
 * product (out of stock at the back). A product that runs out stays empty until a round fills it:
 * the customers who wanted it then are the store's lost sales. The back room is short of each
 * shelf's first product (a round fills it only to a quarter of its space: LOW), and every third
 * shelf (by seed) has its second product out there altogether (it sells down to EMPTY and stays so),
 * so the stock screens have low and empty products to show (issue 35 item 11).
 */

interface Product {
  readonly name: string;
  readonly sku: string;
  /** Depth of one unit, mm. */
  readonly depth: number;
  /** Units a customer stream takes per hour at ordinary footfall. */
  readonly salesPerHour: number;
}

const PRODUCTS: readonly [Product, ...Product[]] = [
  { name: 'Sparkling water 600ml', sku: 'BEV-0600-SPW', depth: 68, salesPerHour: 1.4 },
  { name: 'Cola 375ml', sku: 'BEV-0375-COL', depth: 66, salesPerHour: 2.2 },
  { name: 'Energy drink 250ml', sku: 'BEV-0250-ENG', depth: 53, salesPerHour: 1.5 },
  { name: 'Iced tea 500ml', sku: 'BEV-0500-ICT', depth: 66, salesPerHour: 0.8 },
  { name: 'Orange juice 350ml', sku: 'BEV-0350-OJU', depth: 60, salesPerHour: 0.7 },
  { name: 'Cold brew coffee 300ml', sku: 'BEV-0300-CBC', depth: 58, salesPerHour: 0.9 },
  { name: 'Protein bar', sku: 'SNK-0060-PRB', depth: 27, salesPerHour: 0.6 },
  { name: 'Salted crisps 45g', sku: 'SNK-0045-CRS', depth: 60, salesPerHour: 1.1 },
  { name: 'Milk chocolate 50g', sku: 'CNF-0050-MCH', depth: 25, salesPerHour: 1.2 },
  { name: 'Trail mix 70g', sku: 'SNK-0070-TRM', depth: 45, salesPerHour: 0.4 },
  { name: 'Chewing gum', sku: 'CNF-0014-GUM', depth: 25, salesPerHour: 0.9 },
  { name: 'Sandwich, ham and cheese', sku: 'FRS-0210-HCS', depth: 70, salesPerHour: 1.3 },
  { name: 'Fruit cup', sku: 'FRS-0150-FRC', depth: 75, salesPerHour: 0.5 },
  { name: 'Yoghurt 170g', sku: 'DRY-0170-YOG', depth: 62, salesPerHour: 0.6 },
  { name: 'Mints', sku: 'CNF-0035-MNT', depth: 25, salesPerHour: 0.5 },
  { name: 'Sports drink 600ml', sku: 'BEV-0600-SPD', depth: 70, salesPerHour: 1 },
];

const PRODUCTS_PER_SHELF = 6;
const OPEN_HOUR = 7;
const CLOSE_HOUR = 22;
const RESTOCK_HOURS = [7, 11, 15, 19] as const;
/** A restock round misses a product this often (nothing left in the back room). */
const MISSED_RESTOCK_CHANCE = 0.05;
/** Largest shelf space of one product: five facings of the shallowest product. */
export const MAX_PRODUCT_CAPACITY = 48;

interface Slot {
  readonly product: Product;
  readonly capacity: number;
  /** This shelf's demand for the product, relative to the catalogue's rate. */
  readonly demand: number;
  count: number;
}

export class RetailShelf extends PlantModel {
  readonly kind = 'retailShelf' as const;
  readonly channels: readonly ChannelSpec[];

  private readonly slots: Slot[];
  private readonly restockDelayHours: number;
  /** What a restock round brings each slot, in channel order (the back room's shortages). */
  private readonly restockTo: readonly number[];
  private unitsSold: number;
  private lastHour: number;

  constructor(options: PlantModelOptions) {
    super(options);
    const pool = [...PRODUCTS];
    const planogramId = `PG-${this.random.integer(100, 999)}`;
    this.slots = [];
    const specs: ChannelSpec[] = [];
    for (let index = 0; index < PRODUCTS_PER_SHELF; index += 1) {
      const [product = PRODUCTS[0]] = pool.splice(this.random.integer(0, pool.length - 1), 1);
      const slotCount = this.random.integer(2, 5);
      const capacity = Math.floor(shelfCapacity({ slotCount, depth: product.depth }));
      this.slots.push({
        product,
        capacity,
        demand: this.random.between(0.6, 1.4),
        count: this.random.integer(0, capacity),
      });
      specs.push({
        code: `c${index + 1}`,
        name: product.name,
        range: [0, MAX_PRODUCT_CAPACITY],
        alarm: true,
        product: { sku: product.sku, slotCount, depth: product.depth, planogramId },
      });
    }
    this.channels = [...specs, { code: 't1', name: 'Units sold', range: [0, 1e9] }];
    this.restockDelayHours = this.random.between(0, 0.75);
    // Decided from the seed, not drawn: the random sequence (and so every other value) stays as it was.
    const outOfStock = options.seed % 3 === 0 ? 1 : -1;
    this.restockTo = this.slots.map((slot, index) =>
      index === 0 ? Math.floor(slot.capacity * LOW_STOCK_SHARE) : index === outOfStock ? 0 : slot.capacity,
    );
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
      if (slot.count > 0 && this.random.chance((slot.product.salesPerHour * slot.demand * footfall * h) / 3600)) {
        slot.count -= 1;
        this.unitsSold += 1;
      }
    }

    for (const restockHour of RESTOCK_HOURS) {
      const at = restockHour + this.restockDelayHours;
      if (this.lastHour < at && hour >= at) {
        this.slots.forEach((slot, index) => {
          // A round never takes units away: a slot above what the back room can bring keeps its count.
          if (!this.random.chance(MISSED_RESTOCK_CHANCE)) slot.count = Math.max(slot.count, this.restockTo[index]!);
        });
      }
    }
    this.lastHour = hour;
  }

  protected applyWrite(): number | undefined {
    return undefined;
  }
}
